// Claimed deliveries waiting for an attempt slot: one queue per channel, served in
// turns, so a channel that may not send more right now (its share of this worker's
// slots is taken) never stands in front of another channel's rows.
import type { ClaimedDelivery } from './types.ts';

interface Waiting {
  row: ClaimedDelivery;
  at: number;
}

export class ClaimBuffer {
  private readonly queues = new Map<string, Waiting[]>();
  // Queues sorted out of arrival order (see push), with the oldest arrival among their
  // rows: a row that waited too long may then sit behind a newer one, not at the head.
  private readonly mixed = new Map<Waiting[], number>();
  private count = 0;
  private readonly maxWaitMs: number;

  /** `maxWaitMs`: a row that waited longer must not start any more (its lease may end first). */
  constructor(maxWaitMs: number) {
    this.maxWaitMs = maxWaitMs;
  }

  get size(): number {
    return this.count;
  }

  /**
   * Each channel's rows wait oldest event first, whatever order the claims return them
   * in: a claim's rows come in the table's physical order (after a recovery or retries,
   * far from the order of occurrence), and claims running side by side may answer out of
   * order. Only a queue that got an older row behind a newer one is sorted (stable, on
   * rows mostly in order already).
   */
  push(rows: ClaimedDelivery[]): void {
    const at = Date.now();
    let unordered: Set<Waiting[]> | undefined;
    for (const row of rows) {
      let queue = this.queues.get(row.channelId);
      if (!queue) this.queues.set(row.channelId, (queue = []));
      const last = queue[queue.length - 1];
      if (last && last.row.eventAt > row.eventAt) (unordered ??= new Set()).add(queue);
      queue.push({ row, at });
    }
    if (unordered) {
      for (const queue of unordered) {
        queue.sort((a, b) => a.row.eventAt - b.row.eventAt);
        this.mixed.set(queue, oldestArrival(queue));
      }
    }
    this.count += rows.length;
  }

  /**
   * Up to `slots` rows to start now, one channel at a time in turns, each channel only
   * while `mayStart(channel, startedHere)` says so; and the rows that waited too long.
   */
  take(
    slots: number,
    mayStart: (channelId: string, startedHere: number) => boolean,
  ): {
    ready: ClaimedDelivery[];
    stale: ClaimedDelivery[];
  } {
    const ready: ClaimedDelivery[] = [];
    const stale: ClaimedDelivery[] = [];
    const now = Date.now();
    const started = new Map<string, number>();
    let progress = true;
    while (ready.length < slots && progress) {
      progress = false;
      for (const [channelId, queue] of this.queues) {
        if (ready.length >= slots) break;
        this.dropStale(queue, now, stale);
        const here = started.get(channelId) ?? 0;
        if (queue.length > 0 && mayStart(channelId, here)) {
          ready.push(queue.shift()!.row);
          started.set(channelId, here + 1);
          progress = true;
        }
        if (queue.length === 0) {
          this.queues.delete(channelId);
          this.mixed.delete(queue);
        }
      }
    }
    // A channel served last this time goes to the back of the turn order.
    for (const channelId of started.keys()) {
      const queue = this.queues.get(channelId);
      if (queue) {
        this.queues.delete(channelId);
        this.queues.set(channelId, queue);
      }
    }
    this.count -= ready.length + stale.length;
    return { ready, stale };
  }

  /** Moves the rows of `queue` that waited longer than maxWaitMs to `stale`. */
  private dropStale(queue: Waiting[], now: number, stale: ClaimedDelivery[]): void {
    const oldest = this.mixed.get(queue);
    if (oldest === undefined) {
      // In arrival order: the stale rows are at the head.
      while (queue.length > 0 && now - queue[0]!.at > this.maxWaitMs) stale.push(queue.shift()!.row);
      return;
    }
    if (now - oldest <= this.maxWaitMs) return;
    let kept = 0;
    for (const waiting of queue) {
      if (now - waiting.at > this.maxWaitMs) stale.push(waiting.row);
      else queue[kept++] = waiting;
    }
    queue.length = kept;
    if (kept === 0) this.mixed.delete(queue);
    else this.mixed.set(queue, oldestArrival(queue));
  }

  /** Rows whose channel may not start another attempt now. */
  waiting(mayStart: (channelId: string, startedHere: number) => boolean): number {
    let count = 0;
    for (const [channelId, queue] of this.queues) if (!mayStart(channelId, 0)) count += queue.length;
    return count;
  }

  /** The channels with rows waiting here. */
  channels(): IterableIterator<string> {
    return this.queues.keys();
  }

  /** Rows of one channel waiting here. */
  countOf(channelId: string): number {
    return this.queues.get(channelId)?.length ?? 0;
  }

  /** Every row of one channel not started yet (to give back). */
  takeChannel(channelId: string): ClaimedDelivery[] {
    const queue = this.queues.get(channelId) ?? [];
    this.queues.delete(channelId);
    this.mixed.delete(queue);
    this.count -= queue.length;
    return queue.map((w) => w.row);
  }

  /** Everything not started (a stopping worker gives it back). */
  drain(): ClaimedDelivery[] {
    const rows = [...this.queues.values()].flatMap((queue) => queue.map((w) => w.row));
    this.queues.clear();
    this.mixed.clear();
    this.count = 0;
    return rows;
  }
}

function oldestArrival(queue: readonly Waiting[]): number {
  let oldest = Number.POSITIVE_INFINITY;
  for (const waiting of queue) oldest = Math.min(oldest, waiting.at);
  return oldest;
}
