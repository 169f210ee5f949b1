// When the worker wakes by itself: a retry falling due, a held channel's recheck, a
// contained channel's next probe, a failed claim's backoff, or the fallback poll
// (CONSIGNA_WORKER_POLL_SECONDS). NOTIFY wakes it at once (worker.ts); this is the rest.
import { nextDueAt } from './sql/next-due.ts';
import type { AttemptResult, StageDeps } from './types.ts';

/**
 * Channels held back (a contained channel whose probe is under way, maybe in another
 * worker) free up when those attempts end: a claim looks this often.
 */
export const HELD_RECHECK_MS = 250;
// An idle worker looks up when the next retry falls due at most this often (one query
// per delivery otherwise); the timer it armed and the poll cover the rest.
const NEXT_DUE_INTERVAL_MS = 1000;

/** After the n-th failed claim in a row, the next waits 1, 2, 4, then 5 s. */
export function backoffDelay(failuresInARow: number): number {
  return Math.min(1000 * 2 ** (failuresInARow - 1), 5000);
}

/** The longest the worker sleeps: the held recheck while a channel is held, else the poll interval. */
export function longestSleep(heldChannels: number, pollSeconds: number): number {
  return heldChannels > 0 ? HELD_RECHECK_MS : pollSeconds * 1000;
}

/** Milliseconds until the earliest retry among `results` falls due (undefined: none is a retry). */
export function earliestRetry(results: readonly AttemptResult[], now: number): number | undefined {
  let earliest = Number.POSITIVE_INFINITY;
  for (const r of results)
    if (r.status === 'PENDENTE' && r.nextAttemptAt) earliest = Math.min(earliest, r.nextAttemptAt.getTime());
  return earliest === Number.POSITIVE_INFINITY ? undefined : Math.max(0, earliest - now);
}

/** One timer. Setting it replaces the previous time; `bringForward` only ever makes it sooner. */
export class WakeTimer {
  private timer: NodeJS.Timeout | undefined;
  private firesAt = Number.POSITIVE_INFINITY;
  private readonly fire: () => void;
  private stopped = false;

  constructor(fire: () => void) {
    this.fire = fire;
  }

  /** Wall-clock time it fires (Infinity when none is set). */
  get at(): number {
    return this.firesAt;
  }

  set(delayMs: number): void {
    this.clear();
    if (this.stopped) return;
    this.firesAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.firesAt = Number.POSITIVE_INFINITY;
      this.fire();
    }, delayMs);
    this.timer.unref();
  }

  bringForward(delayMs: number): void {
    if (Date.now() + delayMs < this.firesAt) this.set(delayMs);
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.firesAt = Number.POSITIVE_INFINITY;
  }
}

export class Scheduler {
  private readonly timer: WakeTimer;
  private readonly deps: Pick<StageDeps, 'db' | 'clock'>;
  private readonly pollSeconds: number;
  private failures = 0;
  private backingOffNow = false;
  private nextDueCheckedAt = Number.NEGATIVE_INFINITY;
  private stopped = false;

  /** `wake`: the timer fired (a backoff it ends). */
  constructor(deps: Pick<StageDeps, 'db' | 'clock' | 'config'>, wake: () => void) {
    this.deps = deps;
    this.pollSeconds = deps.config.worker.pollSeconds;
    this.timer = new WakeTimer(() => {
      this.backingOffNow = false;
      wake();
    });
  }

  /** A claim failed lately: none starts until the timer fires. */
  get backingOff(): boolean {
    return this.backingOffNow;
  }

  claimFailed(): void {
    if (this.stopped) return;
    this.failures += 1;
    this.backingOffNow = true;
    this.timer.set(backoffDelay(this.failures));
  }

  /** A claim answered, having written `recorded`. */
  claimSucceeded(recorded: readonly AttemptResult[]): void {
    this.failures = 0;
    this.retriesRecorded(recorded);
  }

  /**
   * The timer is set when a claim round ends, while its attempts are still in flight
   * (their rows then fall due only at the end of the lease). A failed attempt recorded
   * afterwards may fall due sooner: the timer comes forward, or the retry would wait a
   * whole poll interval instead of its scheduled delay.
   */
  retriesRecorded(recorded: readonly AttemptResult[]): void {
    if (this.stopped) return;
    const delay = earliestRetry(recorded, this.deps.clock.now().getTime());
    if (delay !== undefined) this.timer.bringForward(delay);
  }

  /** The loop skipped a claim: back when a held channel may have room, or a contained channel's probe may start. */
  recheck(heldChannels: number, probeSoonestMs: number): void {
    this.timer.bringForward(Math.min(longestSleep(heldChannels, this.pollSeconds), probeSoonestMs));
  }

  /** Nothing due, nothing running: sleeps until the next retry falls due, never longer than longestSleep. */
  async sleepUntilNextDue(held: ReadonlySet<string>, full: ReadonlySet<string>): Promise<void> {
    const cap = longestSleep(held.size, this.pollSeconds);
    // Looked up a moment ago and a timer is armed: it still holds (retries recorded here
    // since then brought it forward themselves, see retriesRecorded).
    if (Date.now() - this.nextDueCheckedAt < NEXT_DUE_INTERVAL_MS && this.timer.at <= Date.now() + cap) return;
    this.nextDueCheckedAt = Date.now();
    let delay = cap;
    try {
      const next = await nextDueAt(this.deps.db, [...held, ...full]);
      if (next) delay = Math.max(0, Math.min(delay, next.getTime() - this.deps.clock.now().getTime()));
    } catch {
      // the poll interval covers it
    }
    this.timer.set(delay);
  }

  stop(): void {
    this.stopped = true;
    this.timer.stop();
  }
}
