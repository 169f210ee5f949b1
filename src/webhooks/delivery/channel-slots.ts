// How many of each channel's attempts this worker may have under way at once.
//
// A channel's cap (CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL) is shared by the
// workers alive (worker-registry.ts): each sends at most cap ÷ workers of its
// attempts at once, so together they never exceed the cap. And at most half of this
// worker's slots: an endpoint that hangs leaves the other half to every other channel
// while it is being recognised.
//
// A channel whose attempts failed `containAfter` times in a row is contained here at
// once (one attempt at a time), before the shared state (channel-health.ts) says so.
import type { AttemptResult } from './attempts.ts';

/**
 * A contained channel's next probe starts no sooner than this after the last one
 * ended. One at a time is enough for an endpoint that hangs (a probe per timeout);
 * one that fails at once (503, connection refused) would otherwise be probed as fast
 * as it answers (measured: 2,000 probes in 10 s, one at a time, from one worker).
 */
export const PROBE_INTERVAL_MS = 1000;

export class ChannelSlots {
  private readonly sending = new Map<string, number>();
  private readonly failuresInARow = new Map<string, number>();
  private readonly containedHere = new Set<string>();
  private readonly lastProbeEnded = new Map<string, number>();
  private readonly cap: number;
  private readonly concurrency: number;
  private readonly containAfter: number;
  private shareOfSlots = 1;

  constructor(options: { cap: number; concurrency: number; containAfter: number }) {
    this.cap = options.cap;
    this.concurrency = options.concurrency;
    this.containAfter = options.containAfter;
    this.workersAlive(1);
  }

  /** The workers sharing each channel's cap changed. */
  workersAlive(count: number): void {
    this.shareOfSlots = Math.max(1, Math.min(Math.floor(this.cap / Math.max(1, count)), Math.floor(this.concurrency / 2)));
  }

  /** Attempts of one channel this worker may have under way at once (when not contained). */
  get share(): number {
    return this.shareOfSlots;
  }

  /** May one more of this channel's attempts start, `startedNow` having just been started? */
  readonly mayStart = (channelId: string, startedNow = 0): boolean =>
    this.sendingOf(channelId) + startedNow < (this.containedHere.has(channelId) ? 1 : this.shareOfSlots);

  sendingOf(channelId: string): number {
    return this.sending.get(channelId) ?? 0;
  }

  /** Channels with attempts under way here. */
  channels(): IterableIterator<string> {
    return this.sending.keys();
  }

  started(channelId: string): void {
    this.sending.set(channelId, this.sendingOf(channelId) + 1);
  }

  ended(channelId: string, now = Date.now()): void {
    if (this.containedHere.has(channelId)) this.lastProbeEnded.set(channelId, now);
    const left = this.sendingOf(channelId) - 1;
    if (left > 0) this.sending.set(channelId, left);
    else this.sending.delete(channelId);
  }

  contained(): string[] {
    return [...this.containedHere];
  }

  /** Milliseconds before a contained channel's next probe may start (0: now, or not contained). */
  probeWait(channelId: string, now = Date.now()): number {
    const last = this.containedHere.has(channelId) ? this.lastProbeEnded.get(channelId) : undefined;
    return last === undefined ? 0 : Math.max(0, last + PROBE_INTERVAL_MS - now);
  }

  /** Counts an attempt's result; true when it just contained its channel here. */
  noteResult(result: AttemptResult): boolean {
    const { channelId } = result;
    if (result.status === 'ENTREGUE') {
      this.failuresInARow.delete(channelId);
      this.containedHere.delete(channelId);
      this.lastProbeEnded.delete(channelId);
      return false;
    }
    const failures = (this.failuresInARow.get(channelId) ?? 0) + 1;
    this.failuresInARow.set(channelId, failures);
    if (failures < this.containAfter || this.containedHere.has(channelId)) return false;
    this.containedHere.add(channelId);
    return true;
  }
}
