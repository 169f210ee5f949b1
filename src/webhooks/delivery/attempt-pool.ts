// The worker's attempt slots, and which requests hold one.
//
// A slot is CPU and event-loop time: a request that is answering. A request that has
// not answered within `slowAfterMs` stops holding its slot: a hanging socket costs a
// file descriptor, so the pool keeps many of them (`maxSlow`) beside its `concurrency`
// slots. Its channel is then slow until one of its attempts answers in time, and slow
// channels' new attempts share `slowShare` slots among them. The last `reserve` slots
// go only to channels with nothing under way: when many endpoints start hanging at
// once, before any is known to be slow, the channels that send one event at a time
// still find a slot. Each channel's own cap (channel-slots.ts) counts every attempt
// under way, slot or not, so a hanging channel never holds more sockets than its cap.
// docs/delivery-engine.md "Slow endpoints". The rule is dispatch-policy.ts's (mayTakeSlot).
import { mayTakeSlot, type PoolLimits } from './dispatch-policy.ts';

interface Attempt {
  channelId: string;
  startedAt: number;
  holdsSlot: boolean;
}

export interface PoolSnapshot {
  /** Slots held. */
  busy: number;
  /** Slots held by slow channels' attempts. */
  slowBusy: number;
  /** Attempts past slowAfterMs (holding a socket, not a slot). */
  slowHeld: number;
  /** Milliseconds the oldest of those has been under way (0 when none). */
  oldestSlowMs: number;
  /** Channels slow now. */
  slowChannels: number;
}

/** The attempts under way in one worker, by slot. */
export class AttemptPool {
  readonly limits: PoolLimits;
  private readonly attempts = new Map<object, Attempt>();
  /** Slot holders in start order: the oldest is first to let go. */
  private readonly holding = new Set<object>();
  private readonly slotsOf = new Map<string, number>();
  private readonly slowHeldOf = new Map<string, number>();
  /** Slow channels; one leaves when an attempt of it answers in time and none of it is still past slowAfterMs. */
  private readonly slow = new Set<string>();
  private busyCount = 0;
  private slowBusyCount = 0;
  private slowHeldCount = 0;

  constructor(limits: PoolLimits) {
    this.limits = limits;
  }

  get busy(): number {
    return this.busyCount;
  }

  get free(): number {
    return Math.max(0, this.limits.concurrency - this.busyCount);
  }

  /**
   * A dispatch round's decision: may one more attempt of this channel start, `underWay`
   * of its attempts being under way here and `startedHere` given out in this round? Every
   * yes is a start (ClaimBuffer.take starts each row it is allowed), counted for the
   * rest of the round.
   */
  round(): (channelId: string, underWay: number, startedHere: number) => boolean {
    let started = 0;
    let slowStarted = 0;
    return (channelId, underWay, startedHere) => {
      const channelSlow = this.slow.has(channelId);
      const yes = mayTakeSlot(this.limits, {
        busy: this.busyCount + started,
        slowBusy: this.slowBusyCount + slowStarted,
        slowHeld: this.slowHeldCount,
        channelUnderWay: underWay + startedHere,
        channelSlow,
      });
      if (yes) {
        started += 1;
        if (channelSlow) slowStarted += 1;
      }
      return yes;
    };
  }

  isSlow(channelId: string): boolean {
    return this.slow.has(channelId);
  }

  started(key: object, channelId: string, now: number): void {
    this.attempts.set(key, { channelId, startedAt: now, holdsSlot: true });
    this.holding.add(key);
    this.busyCount += 1;
    this.slotsOf.set(channelId, (this.slotsOf.get(channelId) ?? 0) + 1);
    if (this.slow.has(channelId)) this.slowBusyCount += 1;
  }

  /** The attempt ended (any answer, or none). One that answered in time may end its channel's slowness. */
  ended(key: object, now: number): void {
    const attempt = this.attempts.get(key);
    if (!attempt) return;
    this.attempts.delete(key);
    const { channelId } = attempt;
    if (attempt.holdsSlot) {
      this.holding.delete(key);
      this.busyCount -= 1;
      this.decrement(this.slotsOf, channelId);
      if (this.slow.has(channelId)) this.slowBusyCount -= 1;
    } else {
      this.slowHeldCount -= 1;
      this.decrement(this.slowHeldOf, channelId);
    }
    const inTime = now - attempt.startedAt < this.limits.slowAfterMs;
    if (!inTime) this.markSlow(channelId);
    else if (this.slow.has(channelId) && !this.slowHeldOf.has(channelId)) {
      this.slow.delete(channelId);
      this.slowBusyCount -= this.slotsOf.get(channelId) ?? 0;
    }
  }

  /** Lets go of the slots of attempts past slowAfterMs (oldest first, while maxSlow allows); how many. */
  release(now: number): number {
    let released = 0;
    for (const key of this.holding) {
      if (this.slowHeldCount >= this.limits.maxSlow) break;
      const attempt = this.attempts.get(key)!;
      if (now - attempt.startedAt < this.limits.slowAfterMs) break;
      this.holding.delete(key);
      attempt.holdsSlot = false;
      this.busyCount -= 1;
      this.decrement(this.slotsOf, attempt.channelId);
      if (this.slow.has(attempt.channelId)) this.slowBusyCount -= 1;
      this.slowHeldCount += 1;
      this.slowHeldOf.set(attempt.channelId, (this.slowHeldOf.get(attempt.channelId) ?? 0) + 1);
      this.markSlow(attempt.channelId);
      released += 1;
    }
    return released;
  }

  /** When the oldest slot holder passes slowAfterMs (undefined: none, or no room to let go). */
  nextReleaseAt(): number | undefined {
    if (this.slowHeldCount >= this.limits.maxSlow) return undefined;
    for (const key of this.holding) return this.attempts.get(key)!.startedAt + this.limits.slowAfterMs;
    return undefined;
  }

  snapshot(now: number): PoolSnapshot {
    let oldest = now;
    for (const attempt of this.attempts.values()) {
      if (!attempt.holdsSlot) oldest = Math.min(oldest, attempt.startedAt);
    }
    return {
      busy: this.busyCount,
      slowBusy: this.slowBusyCount,
      slowHeld: this.slowHeldCount,
      oldestSlowMs: now - oldest,
      slowChannels: this.slow.size,
    };
  }

  private markSlow(channelId: string): void {
    if (this.slow.has(channelId)) return;
    this.slow.add(channelId);
    this.slowBusyCount += this.slotsOf.get(channelId) ?? 0;
  }

  private decrement(counts: Map<string, number>, channelId: string): void {
    const left = (counts.get(channelId) ?? 1) - 1;
    if (left > 0) counts.set(channelId, left);
    else counts.delete(channelId);
  }
}
