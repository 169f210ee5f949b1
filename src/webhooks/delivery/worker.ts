// The delivery engine. Claim a batch (one statement, committed, which also records
// the attempts finished since the last one) → buffer → sign and send (no transaction
// open) → the result rides along with the next claim, or is recorded on its own
// when no claim follows. Woken at once by NOTIFY on every new delivery; a timer
// covers retries falling due and any missed notification.
import type { Context } from '../../context.ts';
import { DELIVERIES_CHANNEL } from '../../events/outbox.ts';
import { signingSecrets } from '../webhooks.service.ts';
import type { Deliverer } from './deliverer.ts';
import type { Keys } from '../../crypto/keys.ts';
import {
  claimDue,
  nextDueAt,
  outcome,
  recordResults,
  refreshQueueStatistics,
  releaseClaims,
  type AttemptResult,
  type ClaimedDelivery,
} from './attempts.ts';

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

// Large enough to amortize a claim over many deliveries (measured draining 20,000
// events: 500 rows per claim delivered 10–15 % more per second than 200, with less
// PostgreSQL CPU per delivery), small enough that one worker does not hoard a queue
// that several workers could share.
const MAX_BATCH = 500;
// A claim asks for about this much work at the rate attempts are finishing: fast
// receivers get large batches, slow ones small batches that other workers can share.
const CLAIM_SECONDS = 0.25;
// Unsealed signing secrets kept in memory (one or two per channel with a webhook).
const SECRET_CACHE_SIZE = 1024;
// A backlog refreshes the queue's planner statistics at most this often per worker.
const STATISTICS_INTERVAL_MS = 60_000;
// An idle worker looks up when the next retry falls due at most this often (one
// query per delivery otherwise); the timer it armed and the poll cover the rest.
const NEXT_DUE_INTERVAL_MS = 1000;
// An idle worker records the results of this many milliseconds in one statement.
const RECORD_DELAY_MS = 10;

export async function startDeliveryWorker(deps: Deps, hooks: WorkerHooks = {}): Promise<DeliveryWorker> {
  const { concurrency, leaseSeconds, pollSeconds } = deps.config.worker;
  const log = deps.log.child({ role: 'worker' });
  // Claimed rows wait in a local buffer until one of the `concurrency` attempt slots
  // is free: the next batch is claimed while the current one is still being sent,
  // and a free slot never waits for a round trip to the database. A claim asks for
  // half a batch to a batch (see batchSize: one commit for many deliveries). While a
  // backlog is known, a second claim may run beside the first: on a busy machine a
  // claim takes longer than sending what the previous one brought (measured: 15–27
  // ms for 100–164 rows while those were sent), and one claim at a time left every
  // slot idle between claims.
  //
  // Attempts finished per second, measured over windows of at least 250 ms
  // (undefined until the first window closes).
  let rate: number | undefined;
  let windowStart = Date.now();
  let windowCount = 0;
  /** Rows per claim: CLAIM_SECONDS of work at the current rate, one round of attempts at least. */
  const batchSize = (): number =>
    Math.min(MAX_BATCH, rate === undefined ? 4 * concurrency : Math.max(concurrency, Math.round(rate * CLAIM_SECONDS)));
  // A buffered row must start early enough for its attempt (≤ one timeout) and the
  // recording of its result to end inside its lease: one that waited longer (slow
  // receivers filling every slot) is given back instead. The configuration keeps
  // the lease ≥ 3 timeouts, so this leaves at least one timeout of waiting.
  const maxWaitMs = leaseSeconds * 1000 - 2 * deps.config.worker.deliveryTimeoutMs;
  // The buffer: claimed batches in claim order, each with its claim time.
  const batches: Array<{ rows: ClaimedDelivery[]; next: number; at: number }> = [];
  let buffered = 0;
  let inFlight = 0;
  let stopping = false;
  const claims = new Set<Promise<void>>();
  // Rows asked for by the claims under way (they count against the capacity).
  let reserved = 0;
  // Something may be due that no claim has looked for yet (a NOTIFY, the timer).
  let wakeAgain = false;
  let timer: NodeJS.Timeout | undefined;
  // Wall-clock time the timer fires (Infinity when none is set), so that a retry
  // recorded after the timer was set can bring it forward.
  let timerAt = Number.POSITIVE_INFINITY;
  let failures = 0;
  let backingOff = false;
  // True when the last claim filled all it asked for (more deliveries may be due):
  // finishing attempts then claim again as soon as there is room for a batch.
  let moreDue = false;
  const results: AttemptResult[] = [];
  let flushing: Promise<void> | undefined;
  let idle: (() => void) | undefined;
  const secretCache = openedSecrets(deps.keys);
  // See claimDue: with stale statistics a backlog makes every claim read and sort
  // all due rows. When a claim comes back full, the statistics are refreshed (off the
  // claim path); if this role may not ANALYZE, backlog claims run `ordered`.
  let statisticsAt = Number.NEGATIVE_INFINITY;
  let statistics: 'idle' | 'running' | 'refused' = 'idle';

  const unlisten = await deps.database.listen(
    DELIVERIES_CHANNEL,
    () => wake(),
    () => wake(),
  );

  function wake(): void {
    if (stopping) return;
    wakeAgain = true;
    pump();
  }

  /** Starts the claims there is reason and room for. */
  function pump(): void {
    while (!stopping && !backingOff && (wakeAgain || moreDue)) {
      // A second claim only while a backlog is known; an idle queue gets one at a time.
      if (claims.size >= (moreDue ? 2 : 1)) return;
      const batch = batchSize();
      const room = concurrency + 2 * batch - inFlight - buffered - reserved;
      // Full: finishing attempts call pump again.
      if (room < Math.max(1, Math.floor(batch / 2))) return;
      wakeAgain = false;
      claim(Math.min(room, batch));
    }
  }

  function claim(wanted: number): void {
    reserved += wanted;
    // While a backlog is worked through, finished attempts ride along: one statement,
    // one commit for both. Not on the idle path, where the claim is most of an
    // event's latency (measured at 200 events/s: 0.79 ms alone, 1.18 ms carrying the
    // previous event's result); those results are recorded beside it (flush).
    const record = moreDue ? results.splice(0, results.length) : [];
    const running = (async () => {
      let batch: ClaimedDelivery[];
      try {
        batch = await claimDue(deps.database.db, deps.clock.now(), wanted, leaseSeconds, {
          ordered: moreDue && statistics === 'refused',
          record,
        });
      } catch (error) {
        keepForLater(record);
        failures += 1;
        log.warn({ err: { message: (error as Error).message } }, 'claiming deliveries failed; retrying');
        if (!stopping) {
          backingOff = true;
          schedule(Math.min(1000 * 2 ** (failures - 1), 5000));
        }
        return;
      } finally {
        reserved -= wanted;
      }
      failures = 0;
      scheduleRetries(record);
      moreDue = batch.length === wanted;
      if (moreDue) refreshStatistics();
      // Queue drained: no claim is coming to take the next results along.
      else if (results.length > 0) void flush();
      if (batch.length > 0) {
        batches.push({ rows: batch, next: 0, at: Date.now() });
        buffered += batch.length;
      }
      dispatch();
    })();
    claims.add(running);
    void running.finally(() => {
      claims.delete(running);
      if (stopping || backingOff) return;
      pump();
      // Nothing due and nothing running: sleep until the next retry falls due.
      if (claims.size === 0 && !moreDue && !wakeAgain) void scheduleNextDue();
    });
  }

  function refreshStatistics(): void {
    if (statistics !== 'idle' || Date.now() - statisticsAt < STATISTICS_INTERVAL_MS) return;
    statistics = 'running';
    statisticsAt = Date.now();
    refreshQueueStatistics(deps.database.db).then(
      () => {
        statistics = 'idle';
      },
      (error: Error & { code?: string }) => {
        // 42501: not the table's owner. Anything else: try again next interval.
        statistics = error.code === '42501' ? 'refused' : 'idle';
        log.warn({ err: { message: error.message } }, 'refreshing the delivery queue statistics failed');
      },
    );
  }

  /** Starts buffered deliveries while attempt slots are free. */
  function dispatch(): void {
    let stale: ClaimedDelivery[] | undefined;
    while (!stopping && inFlight < concurrency && buffered > 0) {
      const head = batches[0]!;
      const claimed = head.rows[head.next++]!;
      buffered -= 1;
      if (head.next === head.rows.length) batches.shift();
      if (Date.now() - head.at > maxWaitMs) (stale ??= []).push(claimed);
      else void attempt(claimed);
    }
    if (stale) giveBack(stale);
  }

  /** Unstarted claims become due again at once (if this fails, their leases expire: never lost). */
  function giveBack(unstarted: ClaimedDelivery[]): Promise<void> {
    return releaseClaims(deps.database.db, unstarted, deps.clock.now()).then(
      () => undefined,
      (error: Error) =>
        log.warn({ err: { message: error.message }, count: unstarted.length }, 'giving back unstarted deliveries failed'),
    );
  }

  let nextDueCheckedAt = Number.NEGATIVE_INFINITY;
  /** Sleeps until the next retry falls due, never longer than the poll interval. */
  async function scheduleNextDue(): Promise<void> {
    // Looked up a moment ago and a timer is armed: it still holds (retries recorded
    // here since then brought it forward themselves, see scheduleRetries).
    if (Date.now() - nextDueCheckedAt < NEXT_DUE_INTERVAL_MS && timerAt !== Number.POSITIVE_INFINITY) return;
    nextDueCheckedAt = Date.now();
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
      backingOff = false;
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
    for (const r of recorded)
      if (r.status === 'PENDENTE' && r.nextAttemptAt) earliest = Math.min(earliest, r.nextAttemptAt.getTime());
    if (earliest === Number.POSITIVE_INFINITY) return;
    const delay = Math.max(0, earliest - deps.clock.now().getTime());
    if (Date.now() + delay < timerAt) schedule(delay);
  }

  async function attempt(claimed: ClaimedDelivery): Promise<void> {
    inFlight += 1;
    try {
      const now = deps.clock.now();
      const secrets = signingSecrets(
        secretCache,
        {
          secret_sealed: claimed.secretSealed,
          previous_secret_sealed: claimed.previousSecretSealed,
          previous_valid_until: claimed.previousValidUntil,
        },
        now,
      );
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
      windowCount += 1;
      const now = Date.now();
      if (now - windowStart >= 250) {
        rate = (windowCount * 1000) / (now - windowStart);
        windowStart = now;
        windowCount = 0;
      }
      dispatch();
      if (inFlight === 0) idle?.();
      pump();
    }
  }

  /**
   * Records results that no claim is taking along: those of the next few
   * milliseconds in one statement, and those finishing while a write is running in
   * the next one. While a backlog is being worked through, claims follow one another
   * and take every result along: no statement of its own then.
   */
  function flush(): Promise<void> {
    if (moreDue && !stopping) return Promise.resolve();
    flushing ??= (async () => {
      await new Promise((resolve) => setTimeout(resolve, stopping ? 0 : RECORD_DELAY_MS));
      while (results.length > 0) {
        const batch = results.splice(0, results.length);
        try {
          await recordResults(deps.database.db, batch);
          scheduleRetries(batch);
        } catch (error) {
          log.warn({ err: { message: (error as Error).message }, count: batch.length }, 'recording attempts failed; retrying');
          keepForLater(batch);
          if (stopping) break;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    })().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  /**
   * Results whose write failed go out with the next one; if the process dies first,
   * the leases expire and the deliveries are sent again (at least once, never lost).
   */
  function keepForLater(batch: AttemptResult[]): void {
    results.unshift(...batch.slice(0, Math.max(0, 10_000 - results.length)));
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
      // Claims under way land in the buffer; what was never started is given back.
      await Promise.all(claims);
      const unstarted = batches.splice(0).flatMap((b) => b.rows.slice(b.next));
      buffered = 0;
      if (unstarted.length > 0) await giveBack(unstarted);
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      await flush();
    },
  };
}

/**
 * Secrets unsealed (AES-256-GCM) once, not once per delivery: remembered by their
 * sealed bytes as the claim returns them (hex text). A rotation seals a new secret,
 * so new text, so a new entry; the oldest entries go first past the size limit.
 */
function openedSecrets(keys: Keys): { open(sealedHex: string): string } {
  const secrets = new Map<string, string>();
  return {
    open(sealedHex) {
      let secret = secrets.get(sealedHex);
      if (secret === undefined) {
        secret = keys.open(Buffer.from(sealedHex, 'hex'));
        if (secrets.size >= SECRET_CACHE_SIZE) secrets.delete(secrets.keys().next().value!);
        secrets.set(sealedHex, secret);
      }
      return secret;
    },
  };
}
