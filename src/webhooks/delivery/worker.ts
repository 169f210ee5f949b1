// The delivery engine. Claim (one statement, committed) → sign and send (no
// transaction open) → record (batched). Woken at once by NOTIFY on every new
// delivery; a timer covers retries falling due and any missed notification.
import type { Context } from '../../context.ts';
import { DELIVERIES_CHANNEL } from '../../events/outbox.ts';
import { signingSecrets } from '../webhooks.service.ts';
import type { Deliverer } from './deliverer.ts';
import { claimDue, nextDueAt, outcome, recordResults, type AttemptResult, type ClaimedDelivery } from './attempts.ts';

export interface WorkerHooks {
  /** After each attempt (metrics). */
  onAttempt?(claimed: ClaimedDelivery, result: AttemptResult): void;
}

export interface DeliveryWorker {
  /** Stops claiming, lets in-flight attempts finish and records them. */
  stop(): Promise<void>;
  /** Claims now (tests, and the resend path, use it to skip the wait). */
  wake(): void;
  readonly inFlight: number;
}

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config' | 'log'> & { deliverer: Deliverer };

// Large enough to amortize a claim over many deliveries, small enough that one
// worker does not hoard a queue that several workers could share.
const MAX_BATCH = 200;

export async function startDeliveryWorker(deps: Deps, hooks: WorkerHooks = {}): Promise<DeliveryWorker> {
  const { concurrency, leaseSeconds, pollSeconds } = deps.config.worker;
  const log = deps.log.child({ role: 'worker' });
  let inFlight = 0;
  let stopping = false;
  let claiming = false;
  let wakeAgain = false;
  let timer: NodeJS.Timeout | undefined;
  // Wall-clock time the timer fires (Infinity when none is set), so that a retry
  // recorded after the timer was set can bring it forward.
  let timerAt = Number.POSITIVE_INFINITY;
  let failures = 0;
  // True when the last claim stopped for lack of room: a finishing attempt then
  // claims again, since more deliveries may be due.
  let saturated = false;
  const results: AttemptResult[] = [];
  let flushing: Promise<void> | undefined;
  let idle: (() => void) | undefined;

  const unlisten = await deps.database.listen(DELIVERIES_CHANNEL, () => wake(), () => wake());

  function wake(): void {
    if (stopping) return;
    if (claiming) {
      wakeAgain = true;
      return;
    }
    void claimLoop();
  }

  async function claimLoop(): Promise<void> {
    claiming = true;
    let idleNow = false;
    try {
      while (!stopping) {
        const room = concurrency - inFlight;
        if (room <= 0) {
          saturated = true;
          break;
        }
        const wanted = Math.min(room, MAX_BATCH);
        const batch = await claimDue(deps.database.db, deps.clock.now(), wanted, leaseSeconds);
        failures = 0;
        for (const claimed of batch) void attempt(claimed);
        if (batch.length < wanted) {
          if (!wakeAgain) {
            idleNow = true;
            break;
          }
          wakeAgain = false;
        }
      }
    } catch (error) {
      failures += 1;
      log.warn({ err: { message: (error as Error).message } }, 'claiming deliveries failed; retrying');
    } finally {
      claiming = false;
    }
    if (stopping) return;
    if (failures > 0) schedule(Math.min(1000 * 2 ** (failures - 1), 5000));
    else if (idleNow) await scheduleNextDue();
  }

  /** Sleeps until the next retry falls due, never longer than the poll interval. */
  async function scheduleNextDue(): Promise<void> {
    let delay = pollSeconds * 1000;
    try {
      const next = await nextDueAt(deps.database.db);
      if (next) delay = Math.max(0, Math.min(delay, next.getTime() - deps.clock.now().getTime()));
    } catch {
      // the poll interval covers it
    }
    schedule(delay);
  }

  function schedule(delayMs: number): void {
    clearTimeout(timer);
    timerAt = Number.POSITIVE_INFINITY;
    if (stopping) return;
    timerAt = Date.now() + delayMs;
    timer = setTimeout(() => {
      timerAt = Number.POSITIVE_INFINITY;
      wake();
    }, delayMs);
    timer.unref();
  }

  /**
   * The timer is set when a claim round ends, while its attempts are still in flight
   * (their rows then fall due only at the end of the lease). A failed attempt
   * recorded afterwards may fall due sooner than that timer: bring it forward, or
   * the retry would wait a whole poll interval instead of its scheduled delay.
   */
  function scheduleRetries(recorded: AttemptResult[]): void {
    if (stopping) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const r of recorded) if (r.status === 'PENDENTE' && r.nextAttemptAt) earliest = Math.min(earliest, r.nextAttemptAt.getTime());
    if (earliest === Number.POSITIVE_INFINITY) return;
    const delay = Math.max(0, earliest - deps.clock.now().getTime());
    if (Date.now() + delay < timerAt) schedule(delay);
  }

  async function attempt(claimed: ClaimedDelivery): Promise<void> {
    inFlight += 1;
    try {
      const now = deps.clock.now();
      const secrets = signingSecrets(deps, { secret_sealed: claimed.secretSealed, previous_secret_sealed: claimed.previousSecretSealed, previous_valid_until: claimed.previousValidUntil }, now);
      const sent = await deps.deliverer.send({
        url: claimed.url,
        body: claimed.payload,
        eventId: claimed.eventId,
        tipo: claimed.tipo,
        attempt: claimed.attempt,
        secrets,
      });
      const result = outcome(claimed, sent, deps.clock.now(), deps.config.retryDelaysSeconds);
      hooks.onAttempt?.(claimed, result);
      results.push(result);
      void flush();
    } catch (error) {
      // The lease expires and the delivery is tried again: never lost.
      log.error({ err: error, deliveryId: claimed.id }, 'delivery attempt crashed');
    } finally {
      inFlight -= 1;
      if (inFlight === 0) idle?.();
      if (saturated) {
        saturated = false;
        wake();
      }
    }
  }

  /** Results pile up while a write is running and go out together in the next one. */
  function flush(): Promise<void> {
    flushing ??= (async () => {
      while (results.length > 0) {
        const batch = results.splice(0, results.length);
        try {
          await recordResults(deps.database.db, batch);
          scheduleRetries(batch);
        } catch (error) {
          log.warn({ err: { message: (error as Error).message }, count: batch.length }, 'recording attempts failed; retrying');
          // Kept for the next write; if the process dies first, the leases expire and
          // the deliveries are sent again (at least once, never lost).
          if (stopping) break;
          results.unshift(...batch.slice(0, 10_000 - results.length));
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    })().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  wake();

  return {
    wake,
    get inFlight() {
      return inFlight;
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await unlisten();
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      await flush();
    },
  };
}
