// Attempt results waiting to be written. While a backlog is worked through they ride
// along with the next claim (takeAll): one statement and one commit for both. A result
// no claim took within a short wait is written on its own, with those of the same
// moments, in one statement.
import type { DB } from '../../db/database.ts';
import type { Logger } from '../../observability/logger.ts';
import { recordResults, type AttemptResult } from './attempts.ts';

// Results kept for a retry after failed writes; past this, the leases expire and the
// deliveries are sent again (at least once, never lost).
const MAX_KEPT = 10_000;

export class Recorder {
  private readonly results: AttemptResult[] = [];
  private flushing: Promise<void> | undefined;
  private readonly db: DB;
  private readonly log: Logger;
  private readonly onWritten: (batch: AttemptResult[]) => void;

  /** `onWritten` is told of each batch once it is written (the worker schedules its retries). */
  constructor(db: DB, log: Logger, onWritten: (batch: AttemptResult[]) => void) {
    this.db = db;
    this.log = log;
    this.onWritten = onWritten;
  }

  add(result: AttemptResult): void {
    this.results.push(result);
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
   * is told once per batch (onWritten), never once per caller (measured: a `.then` per
   * caller, each walking everything written, took 5 % of the worker's CPU in a
   * 20,000-event drain).
   */
  flush(delayMs: number): Promise<void> {
    this.flushing ??= (async () => {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (this.results.length === 0) break;
        const batch = this.takeAll();
        try {
          await recordResults(this.db, batch);
        } catch (error) {
          this.log.warn(
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
}
