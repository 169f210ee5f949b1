// The record stage: attempt results waiting to be written, and each channel's health
// beside them (channel-health.ts). While claims follow one another the results ride
// along with the next claim (takeAll): one statement and one commit for both. A result
// no claim took within a short wait is written on its own, with those of the same
// moments, in one statement.
import { HealthWriter } from './channel-health.ts';
import { recordResults } from './sql/record-results.ts';
import type { AttemptResult, StageDeps } from './types.ts';

// Results kept for a retry after failed writes; past this, the leases expire and the
// deliveries are sent again (at least once, never lost).
const MAX_KEPT = 10_000;
/** An idle worker writes the results of this many milliseconds in one statement. */
export const RECORD_DELAY_MS = 10;
/** While claims follow one another, a result waits this long for one to take it along rather than cost a statement of its own. */
export const RIDE_WAIT_MS = 100;

/**
 * How long a result waits before it is written on its own: a little for a claim that is
 * coming anyway (a backlog, its channel held, or held enough of here: its attempts' end
 * brings a claim), since that claim may wait on another channel's attempts; nothing for
 * a stopping worker.
 */
export function recordDelay(state: { stopping: boolean; claimComing: boolean }): number {
  return state.stopping ? 0 : state.claimComing ? RIDE_WAIT_MS : RECORD_DELAY_MS;
}

export class Recorder {
  private readonly results: AttemptResult[] = [];
  private flushing: Promise<void> | undefined;
  private readonly deps: Pick<StageDeps, 'db' | 'log'>;
  private readonly health: HealthWriter;
  private readonly onWritten: (batch: AttemptResult[]) => void;

  /** `onWritten` is told of each batch once it is written (the worker schedules its retries). */
  constructor(deps: Pick<StageDeps, 'db' | 'clock' | 'log' | 'config'>, onWritten: (batch: AttemptResult[]) => void) {
    this.deps = deps;
    this.health = new HealthWriter({
      db: deps.db,
      clock: deps.clock,
      log: deps.log,
      containAfter: deps.config.worker.containAfter,
    });
    this.onWritten = onWritten;
  }

  /** An attempt's result: written within `delayMs` unless a claim takes it first. */
  record(result: AttemptResult, delayMs: number): void {
    this.results.push(result);
    this.health.add(result);
    void this.flush(delayMs);
  }

  /** A channel was just contained here: every other worker should know now, not at the next health write. */
  flushHealth(): void {
    void this.health.flush();
  }

  /** Everything waiting, for a claim to record in its own statement. */
  takeAll(): AttemptResult[] {
    return this.results.splice(0, this.results.length);
  }

  /** Results whose write failed go out with the next one. */
  keepForLater(batch: AttemptResult[]): void {
    this.results.unshift(...batch.slice(0, Math.max(0, MAX_KEPT - this.results.length)));
  }

  /**
   * Writes what is waiting after `delayMs` (unless a claim took it first), and again
   * `delayMs` after each write while results keep coming. Every caller meanwhile gets
   * the same promise: under a backlog that is one per attempt, so what follows a write
   * is told once per batch (onWritten), never once per caller.
   */
  flush(delayMs: number): Promise<void> {
    this.flushing ??= (async () => {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (this.results.length === 0) break;
        const batch = this.takeAll();
        try {
          await recordResults(this.deps.db, batch);
        } catch (error) {
          this.deps.log.warn(
            { err: { message: (error as Error).message }, count: batch.length },
            'recording attempts failed; retrying',
          );
          this.keepForLater(batch);
          // Stopping: the leases of what is left expire and it is sent again.
          if (delayMs === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 500));
          continue;
        }
        this.onWritten(batch);
      }
    })().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Writes what is left, results then health. */
  async stop(): Promise<void> {
    await this.flush(0);
    await this.health.stop();
  }
}
