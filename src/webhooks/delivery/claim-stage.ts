// The claim stage: claims due deliveries (sql/claim-due.ts), several side by side, and
// tells the loop what each answered. Input: a ClaimRequest (how many rows, each
// channel's limit, the results to record on the way); result: a ClaimAnswer, or the
// results handed back when the claim failed.
import { PROBE_INTERVAL_MS, type SlotView } from './dispatch-policy.ts';
import { claimDue, type Claim } from './sql/claim-due.ts';
import { refreshQueueStatistics } from './sql/refresh-statistics.ts';
import type { Recorder } from './recorder.ts';
import type { AttemptResult, StageDeps } from './types.ts';

type Slots = Pick<SlotView, 'share'> & { contained(): readonly string[] };

// A backlog refreshes the queue's planner statistics at most this often per worker.
const STATISTICS_INTERVAL_MS = 60_000;

export interface ClaimRequest {
  wanted: number;
  /** Per channel this worker knows, the most rows this claim may take (claim-policy.ts, channelLimits). */
  limits: Map<string, number>;
  /** A backlog is known: where the statistics may not be refreshed, the claim runs `ordered`. */
  moreDue: boolean;
  /** The results waiting to be written ride along (one statement and one commit for both). */
  rideAlong: boolean;
}

export interface ClaimAnswer extends Claim {
  wanted: number;
  /** The results this claim wrote. */
  record: AttemptResult[];
  /** No claim started after this one has answered yet: its word on the queue holds (claim-policy.ts, afterClaim). */
  newest: boolean;
}

export interface ClaimEvents {
  answered(answer: ClaimAnswer): void;
  /** The claim failed (the results it was to write wait for the next write). */
  failed(): void;
  /** A claim's answer (or failure) has been handled and it no longer counts as running. */
  settled(): void;
}

export class ClaimStage {
  private readonly running = new Set<Promise<void>>();
  // Claims started, and the newest whose answer was applied.
  private started = 0;
  private applied = 0;
  private reservedRows = 0;
  // Rows of each channel asked for by the claims under way.
  private readonly claiming = new Map<string, number>();
  // With stale statistics a backlog makes every claim read and sort all due rows
  // (claimDue, `ordered`): when a claim leaves a backlog they are refreshed, off the
  // claim path; if this role may not ANALYZE, backlog claims run `ordered`.
  private statisticsAt = Number.NEGATIVE_INFINITY;
  private statistics: 'idle' | 'running' | 'refused' = 'idle';
  private readonly deps: Pick<StageDeps, 'db' | 'clock' | 'log' | 'config'>;
  private readonly slots: Slots;
  private readonly recorder: Pick<Recorder, 'takeAll' | 'keepForLater'>;
  private readonly events: ClaimEvents;

  /**
   * `slots`: a channel not seen lately gets one round of its share until its pace is
   * known, and channels contained here count as contained before the shared state says so.
   * `recorder`: the results a claim writes on the way.
   */
  constructor(
    deps: Pick<StageDeps, 'db' | 'clock' | 'log' | 'config'>,
    from: { slots: Slots; recorder: Pick<Recorder, 'takeAll' | 'keepForLater'> },
    events: ClaimEvents,
  ) {
    this.deps = deps;
    this.slots = from.slots;
    this.recorder = from.recorder;
    this.events = events;
  }

  /** Claims under way. */
  get size(): number {
    return this.running.size;
  }

  /** Rows asked for by the claims under way. */
  get reserved(): number {
    return this.reservedRows;
  }

  /** Rows of a channel asked for by the claims under way: held here until they answer, so a claim beside them does not ask for the same room. */
  claimingOf(channelId: string): number {
    return this.claiming.get(channelId) ?? 0;
  }

  start(request: ClaimRequest): void {
    const { wanted, limits } = request;
    const record = request.rideAlong ? this.recorder.takeAll() : [];
    const seq = ++this.started;
    this.reservedRows += wanted;
    for (const [channelId, n] of limits) this.claiming.set(channelId, this.claimingOf(channelId) + n);
    const running = (async () => {
      let claim: Claim;
      try {
        claim = await claimDue(this.deps.db, this.deps.clock.now(), wanted, this.deps.config.worker.leaseSeconds, {
          ordered: request.moreDue && this.statistics === 'refused',
          record,
          perChannel: this.slots.share,
          contained: this.slots.contained(),
          probeIntervalMs: PROBE_INTERVAL_MS,
          limits,
        });
      } catch (error) {
        this.deps.log.warn({ err: { message: (error as Error).message } }, 'claiming deliveries failed; retrying');
        this.recorder.keepForLater(record);
        this.events.failed();
        return;
      } finally {
        this.reservedRows -= wanted;
        for (const [channelId, n] of limits) {
          const left = (this.claiming.get(channelId) ?? n) - n;
          if (left > 0) this.claiming.set(channelId, left);
          else this.claiming.delete(channelId);
        }
      }
      const newest = seq > this.applied;
      if (newest) this.applied = seq;
      this.events.answered({ ...claim, wanted, record, newest });
    })();
    this.running.add(running);
    void running.finally(() => {
      this.running.delete(running);
      this.events.settled();
    });
  }

  /** Fresh planner statistics for a backlog, at most every STATISTICS_INTERVAL_MS. */
  refreshStatistics(): void {
    if (this.statistics !== 'idle' || Date.now() - this.statisticsAt < STATISTICS_INTERVAL_MS) return;
    this.statistics = 'running';
    this.statisticsAt = Date.now();
    refreshQueueStatistics(this.deps.db).then(
      () => {
        this.statistics = 'idle';
      },
      (error: Error & { code?: string }) => {
        // 42501: not the table's owner. Anything else: try again next interval.
        this.statistics = error.code === '42501' ? 'refused' : 'idle';
        this.deps.log.warn({ err: { message: error.message } }, 'refreshing the delivery queue statistics failed');
      },
    );
  }

  /** Every claim under way has answered and been handled. */
  async settled(): Promise<void> {
    await Promise.all(this.running);
  }
}
