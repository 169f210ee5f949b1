// The state of a worker's attempt slots: attempts under way (all, and per channel), each
// channel's run of failures and containment here, its last probe. The rules are
// dispatch-policy.ts's.
import type { AttemptResult } from './types.ts';
import { afterAttempt, mayStart, probeWait, shareOfSlots, type SlotView } from './dispatch-policy.ts';

export class ChannelSlots implements SlotView {
  readonly concurrency: number;
  private inFlightCount = 0;
  private readonly sending = new Map<string, number>();
  private readonly failuresInARow = new Map<string, number>();
  private readonly containedHere = new Set<string>();
  private readonly lastProbeEnded = new Map<string, number>();
  private readonly cap: number;
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
    this.shareOfSlots = shareOfSlots(this.cap, count, this.concurrency);
  }

  get share(): number {
    return this.shareOfSlots;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** May one more of this channel's attempts start, `startedNow` having just been started? */
  readonly mayStart = (channelId: string, startedNow = 0): boolean => mayStart(this, channelId, startedNow);

  sendingOf(channelId: string): number {
    return this.sending.get(channelId) ?? 0;
  }

  isContained(channelId: string): boolean {
    return this.containedHere.has(channelId);
  }

  /** Channels with attempts under way here. */
  channels(): IterableIterator<string> {
    return this.sending.keys();
  }

  started(channelId: string): void {
    this.inFlightCount += 1;
    this.sending.set(channelId, this.sendingOf(channelId) + 1);
  }

  ended(channelId: string, now = Date.now()): void {
    this.inFlightCount -= 1;
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
    return probeWait(this.containedHere.has(channelId) ? this.lastProbeEnded.get(channelId) : undefined, now);
  }

  /** Counts an attempt's result; true when it just contained its channel here. */
  noteResult(result: AttemptResult): boolean {
    const { channelId } = result;
    const run = afterAttempt(
      { failuresInARow: this.failuresInARow.get(channelId) ?? 0, contained: this.containedHere.has(channelId) },
      result.status === 'ENTREGUE',
      this.containAfter,
    );
    if (run.failuresInARow > 0) this.failuresInARow.set(channelId, run.failuresInARow);
    else this.failuresInARow.delete(channelId);
    if (run.contained) this.containedHere.add(channelId);
    else {
      this.containedHere.delete(channelId);
      this.lastProbeEnded.delete(channelId);
    }
    return run.justContained;
  }
}
