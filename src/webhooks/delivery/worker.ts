// The delivery engine, in four stages:
//
//   1. claim   one statement, committed: takes due deliveries fairly across channels
//              (attempts.ts, claimDue) under a lease, and records the attempts that
//              finished since the last claim.
//   2. buffer  claimed rows wait in memory, one queue per channel served in turns
//   and slots  (claim-buffer.ts), for one of `concurrency` attempt slots; a channel
//              has at most its share of its cap under way (channel-slots.ts).
//   3. send    sign and POST, no transaction open (deliverer.ts).
//   4. record  the result rides along with the next claim, or is written on its own
//              when no claim takes it soon (recorder.ts); channel health is written
//              beside it (channel-health.ts), and contains an endpoint that keeps
//              failing.
//
// At least once, never lost: a row is only ever marked ENTREGUE by the record stage,
// after its attempt answered 2xx. Until then it is PENDENTE with a lease; if the
// process dies anywhere in between (buffered, in flight, result not yet written),
// the lease runs out and the row is due again, for this or any other worker. A
// result written late for a lease that ran out is ignored (the newer attempt owns
// the row). So a delivery can be sent twice, never zero times.
//
// Woken at once by NOTIFY on every new delivery; a timer covers retries falling due,
// channels held back by their cap, and any missed notification.
import type { Context } from '../../context.ts';
import { DELIVERIES_CHANNEL } from '../../events/outbox.ts';
import { signingSecrets } from '../signature.ts';
import type { Deliverer } from './deliverer.ts';
import {
  claimDue,
  nextDueAt,
  outcome,
  refreshQueueStatistics,
  releaseClaims,
  type AttemptResult,
  type ClaimedDelivery,
} from './attempts.ts';
import { HealthWriter } from './channel-health.ts';
import { ClaimBuffer } from './claim-buffer.ts';
import { ChannelPace } from './channel-pace.ts';
import { ChannelSlots, PROBE_INTERVAL_MS } from './channel-slots.ts';
import { Recorder } from './recorder.ts';
import { openedSecrets } from './secret-cache.ts';
import { WakeTimer } from './wake-timer.ts';
import { heartbeat, leave } from './worker-registry.ts';
import { uuidv7 } from '../../crypto/random.ts';

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
  /** Claimed here, waiting because their channel already has its share of attempts under way. */
  readonly waitingForShare: number;
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
// A backlog refreshes the queue's planner statistics at most this often per worker.
const STATISTICS_INTERVAL_MS = 60_000;
// An idle worker looks up when the next retry falls due at most this often (one
// query per delivery otherwise); the timer it armed and the poll cover the rest.
const NEXT_DUE_INTERVAL_MS = 1000;
// Channels held back by their cap free up when their attempts end, in this worker
// (it claims again at once) or in another one (seen by a claim this often).
const HELD_RECHECK_MS = 250;
// A claim takes at most this many times a channel's share of slots from it: enough
// rows to amortize the claim (a 20,000-event drain of one channel needs batches of
// hundreds), few enough that one worker does not hoard a channel whose attempts the
// other workers could be sending too.
const CLAIM_AHEAD = 16;
// An idle worker writes the results of this many milliseconds in one statement.
const RECORD_DELAY_MS = 10;
// While claims follow one another, a result waits this long for one to take it along
// (measured draining 20,000 events: claims came every 40–80 ms; results written on
// their own instead doubled PostgreSQL's CPU per delivery).
const RIDE_WAIT_MS = 100;
// How often a worker says it is alive and counts the others (worker-registry.ts).
const HEARTBEAT_MS = 2000;

export async function startDeliveryWorker(deps: Deps, hooks: WorkerHooks = {}): Promise<DeliveryWorker> {
  const { concurrency, leaseSeconds, pollSeconds, maxInFlightPerChannel, containAfter } = deps.config.worker;
  const log = deps.log.child({ role: 'worker' });

  // Attempts finished per second, measured over windows of at least 250 ms
  // (undefined until the first window closes). A window starts afresh when work
  // comes after an idle spell (see wake): one that spanned the spell would say the
  // rate is near zero, and the burst's first claims would be of one round each
  // (measured: 25 claims of 64 rows in the first 250 ms of a 20,000-event drain).
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
  const buffer = new ClaimBuffer(leaseSeconds * 1000 - 2 * deps.config.worker.deliveryTimeoutMs);
  const recorder = new Recorder(deps.database.db, log, (written) => scheduleRetries(written));
  const health = new HealthWriter({ db: deps.database.db, clock: deps.clock, log, containAfter });
  const secretCache = openedSecrets(deps.keys);
  const paces = new ChannelPace();
  const slots = new ChannelSlots({ cap: maxInFlightPerChannel, concurrency, containAfter });
  const { mayStart } = slots;

  let inFlight = 0;
  let stopping = false;
  let idle: (() => void) | undefined;

  // ---- 1. claim ---------------------------------------------------------------
  // Claimed rows wait in the buffer until a slot is free: the next batch is claimed
  // while the current one is still being sent, and a free slot never waits for a
  // round trip to the database. While a backlog is known, a second claim may run
  // beside the first: on a busy machine a claim takes longer than sending what the
  // previous one brought (measured: 15–27 ms for 100–164 rows while those were
  // sent), and one claim at a time left every slot idle between claims.
  const claims = new Set<Promise<void>>();
  // Claims started, and the newest whose answer was applied (see claim).
  let claimsStarted = 0;
  let claimsApplied = 0;
  // Rows asked for by the claims under way (they count against the capacity).
  let reserved = 0;
  // Something may be due that no claim has looked for yet (a NOTIFY, the timer).
  let wakeAgain = false;
  // A channel this worker held enough of has room again (its attempts ended).
  let roomAgain = false;
  // True when the last claim filled all it asked for (more deliveries may be due):
  // finishing attempts then claim again as soon as there is room for a batch.
  let moreDue = false;
  // True when the last claim left due rows behind (a full batch, or channels cut to
  // their share): results then wait a little for the next claim to take them along.
  let backlog = false;
  // Contained channels the last claim left with due rows (their probe is under way).
  let held = new Set<string>();
  let failures = 0;
  let backingOff = false;
  // See claimDue: with stale statistics a backlog makes every claim read and sort
  // all due rows. When a claim comes back full, the statistics are refreshed (off the
  // claim path); if this role may not ANALYZE, backlog claims run `ordered`.
  let statisticsAt = Number.NEGATIVE_INFINITY;
  let statistics: 'idle' | 'running' | 'refused' = 'idle';

  function wake(): void {
    if (stopping) return;
    if (inFlight === 0 && claims.size === 0 && buffer.size === 0 && Date.now() - windowStart > 1000) {
      windowStart = Date.now();
      windowCount = 0;
    }
    wakeAgain = true;
    pump();
  }

  /** Starts the claims there is reason and room for. */
  function pump(): void {
    while (!stopping && !backingOff && (wakeAgain || moreDue || roomAgain)) {
      // A second claim only while a backlog is known; an idle queue gets one at a time.
      // A notification during a backlog gets a third, small claim of its own: new
      // events (another channel's, first in its turns) need not wait behind the
      // backlog's large claims (measured: beside a 2,000-event burst to an endpoint
      // answering 503, another channel's p95 went from 4.8 to 13–40 ms without it).
      const fastLane = moreDue && wakeAgain;
      if (claims.size >= (moreDue ? 2 : 1) + (fastLane ? 1 : 0)) return;
      const batch = fastLane && claims.size >= 2 ? concurrency : batchSize();
      // Rows waiting for their channel's share of slots take no room: a channel whose
      // endpoint is slow must not stop the others' rows from being claimed.
      const room = concurrency + 2 * batch - inFlight - (buffer.size - buffer.waiting(mayStart)) - reserved;
      // Full: finishing attempts call pump again.
      if (room < Math.max(1, Math.floor(batch / 2))) return;
      const limits = claimLimits();
      // Only a wake looks for channels this worker does not know yet. Otherwise a claim in
      // which every channel it knows is limited to nothing would come back empty: at the
      // start of each 20,000-event drain, one claim in two did, every 3-5 ms, each a
      // statement and a commit. The attempts under way, or the claims, call pump again;
      // the timer still looks for what no notification announces (another worker's
      // retries, expired leases, held channels) while these channels keep it busy.
      if (!wakeAgain && (inFlight > 0 || claims.size > 0) && limits.size > 0 && !hasRoom(limits)) {
        roomAgain = false;
        // A contained channel limited only by its pause between probes: its next probe
        // is claimed when the pause ends, not at the poll.
        timer.bringForward(Math.min(held.size > 0 ? HELD_RECHECK_MS : pollSeconds * 1000, probeSoonest));
        return;
      }
      wakeAgain = false;
      roomAgain = false;
      claim(Math.min(room, batch), limits);
    }
  }

  function hasRoom(limits: ReadonlyMap<string, number>): boolean {
    for (const n of limits.values()) if (n > 0) return true;
    return false;
  }

  /** `limits`: per channel this worker knows, how many rows this claim may take (claimLimits). */
  function claim(wanted: number, limits: Map<string, number>): void {
    const seq = ++claimsStarted;
    reserved += wanted;
    // While a backlog is worked through, finished attempts ride along: one statement,
    // one commit for both. So too while a channel is held, or held enough of here:
    // its attempts' end brings a claim. Not on the idle path, where the claim
    // is most of an event's latency (measured at 200 events/s: 0.79 ms alone, 1.18 ms
    // carrying the previous event's result); those results are recorded beside it.
    const record = backlog || held.size > 0 || full.size > 0 ? recorder.takeAll() : [];
    // Rows of each channel this claim may bring: counted as held here until it returns,
    // so that a claim running beside it does not ask for the same room again.
    for (const [channelId, n] of limits) claiming.set(channelId, (claiming.get(channelId) ?? 0) + n);
    const running = (async () => {
      let claimed;
      try {
        claimed = await claimDue(deps.database.db, deps.clock.now(), wanted, leaseSeconds, {
          ordered: moreDue && statistics === 'refused',
          record,
          // A channel not seen lately: one round of its share until its rate is known.
          perChannel: slots.share,
          contained: slots.contained(),
          probeIntervalMs: PROBE_INTERVAL_MS,
          limits,
        });
      } catch (error) {
        recorder.keepForLater(record);
        failures += 1;
        log.warn({ err: { message: (error as Error).message } }, 'claiming deliveries failed; retrying');
        if (!stopping) {
          backingOff = true;
          timer.set(Math.min(1000 * 2 ** (failures - 1), 5000));
        }
        return;
      } finally {
        reserved -= wanted;
        for (const [channelId, n] of limits) {
          const left = (claiming.get(channelId) ?? n) - n;
          if (left > 0) claiming.set(channelId, left);
          else claiming.delete(channelId);
        }
      }
      failures = 0;
      scheduleRetries(record);
      // Claims run side by side and may return in any order. The newest one started saw
      // the latest state (its limits also decided `full`): what it says about the queue
      // holds. An older one adds to it and never takes back a "more is due": one that was
      // limited to nothing says "no more" only of the channels it looked at (measured: a
      // single channel's drain stopped for the 5 s poll interval, in about one round of
      // ten, when such a claim returned last).
      const newest = seq > claimsApplied;
      if (newest) claimsApplied = seq;
      held = newest ? new Set(claimed.held) : new Set([...held, ...claimed.held]);
      buffer.push(claimed.rows);
      // Channels this worker now holds enough of: the next claim of theirs comes when
      // their attempts end and make room (see send).
      let roomForMore = false;
      for (const { channelId } of claimed.rows) {
        if (full.has(channelId)) continue;
        if (worthClaiming(channelId)) roomForMore = true;
        else full.add(channelId);
      }
      // Claim again at once when the batch came back full, or when a channel was cut to
      // its share of it and this worker has room for more of it (its attempts ended
      // while the claim ran: nothing else would bring its next claim). Not on `more`
      // alone, which channels this worker holds enough of would turn into empty claims.
      const more = claimed.rows.length === wanted || (claimed.more && roomForMore);
      const leftOver = claimed.rows.length === wanted || claimed.more;
      moreDue = newest ? more : moreDue || more;
      backlog = newest ? leftOver : backlog || leftOver;
      if (backlog || held.size > 0 || full.size > 0) refreshStatistics();
      // Queue drained: no claim is coming to take the next results along.
      else void recordNow(RECORD_DELAY_MS);
      shedContained();
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

  /**
   * How many rows of each channel this worker should hold (claimed, waiting or being
   * sent): its share of slots and CLAIM_SECONDS of attempts at the pace its endpoint
   * answers (channel-pace.ts), CLAIM_AHEAD shares at most. Claimed rows count their attempt;
   * a channel whose endpoint is slow must not have hundreds of them waiting here for
   * a slot (the other workers could send them, and its deliveries would show
   * attempts not yet made).
   */
  const aheadOf = (channelId: string): number =>
    Math.min(CLAIM_AHEAD * slots.share, slots.share + Math.floor(paces.perSecond(channelId, slots.share) * CLAIM_SECONDS));
  const roomOf = (channelId: string): number =>
    Math.max(0, aheadOf(channelId) - buffer.countOf(channelId) - slots.sendingOf(channelId) - (claiming.get(channelId) ?? 0));
  // Rows of each channel asked for by the claims under way.
  const claiming = new Map<string, number>();
  // A claim for less than half of a channel's holding is not worth its statement.
  const worthClaiming = (channelId: string): boolean => roomOf(channelId) >= Math.max(1, Math.floor(aheadOf(channelId) / 2));
  // Channels left out of the last claim because this worker holds enough of them; a
  // claim follows when their attempts end and make room (see send).
  let full = new Set<string>();
  // Milliseconds until the soonest probe of a contained channel may start (claimLimits).
  let probeSoonest = Number.POSITIVE_INFINITY;

  /** Per channel, how many rows this claim may take (0: none), for the channels this worker knows. */
  function claimLimits(): Map<string, number> {
    const limits = new Map<string, number>();
    full = new Set();
    probeSoonest = Number.POSITIVE_INFINITY;
    for (const channelId of new Set([...paces.channels(), ...buffer.channels(), ...slots.channels()])) {
      // A contained channel between probes: none now (the held recheck, or the timer set
      // when pump skips a claim, comes back for it).
      const wait = slots.probeWait(channelId);
      if (wait > 0) {
        limits.set(channelId, 0);
        probeSoonest = Math.min(probeSoonest, wait);
        continue;
      }
      const worth = worthClaiming(channelId);
      limits.set(channelId, worth ? roomOf(channelId) : 0);
      if (!worth) full.add(channelId);
    }
    return limits;
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

  // ---- timers: retries falling due, held channels, missed notifications -------
  const timer = new WakeTimer(() => {
    backingOff = false;
    wake();
  });
  let nextDueCheckedAt = Number.NEGATIVE_INFINITY;

  /** Sleeps until the next retry falls due, never longer than the poll interval. */
  async function scheduleNextDue(): Promise<void> {
    const cap = held.size > 0 ? HELD_RECHECK_MS : pollSeconds * 1000;
    // Looked up a moment ago and a timer is armed: it still holds (retries recorded
    // here since then brought it forward themselves, see scheduleRetries).
    if (Date.now() - nextDueCheckedAt < NEXT_DUE_INTERVAL_MS && timer.at <= Date.now() + cap) return;
    nextDueCheckedAt = Date.now();
    let delay = cap;
    try {
      const next = await nextDueAt(deps.database.db, [...held, ...full]);
      if (next) delay = Math.max(0, Math.min(delay, next.getTime() - deps.clock.now().getTime()));
    } catch {
      // the poll interval covers it
    }
    timer.set(delay);
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
    timer.bringForward(delay);
  }

  // ---- 2. buffer and slots -----------------------------------------------------
  /** Starts buffered deliveries while attempt slots are free; gives back rows that waited too long. */
  function dispatch(): void {
    if (stopping) return;
    const { ready, stale } = buffer.take(concurrency - inFlight, mayStart);
    for (const claimed of ready) void send(claimed);
    if (stale.length > 0) void giveBack(stale);
  }

  /** Unstarted claims become due again at once (if this fails, their leases expire: never lost). */
  function giveBack(unstarted: ClaimedDelivery[]): Promise<void> {
    return releaseClaims(deps.database.db, unstarted, deps.clock.now()).then(
      () => undefined,
      (error: Error) =>
        log.warn({ err: { message: error.message }, count: unstarted.length }, 'giving back unstarted deliveries failed'),
    );
  }

  // ---- 3. send -----------------------------------------------------------------
  async function send(claimed: ClaimedDelivery): Promise<void> {
    inFlight += 1;
    slots.started(claimed.channelId);
    const startedAt = Date.now();
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
        deliveryId: claimed.id,
        channelId: claimed.channelId,
        traceContext: claimed.traceContext,
      });
      const result = outcome(claimed, sent, deps.clock.now(), deps.config.retryDelaysSeconds);
      hooks.onAttempt?.(claimed, result);
      record(result);
      // Contained here: its buffered rows go back unattempted, and every other worker
      // should know at once, not at the next health write.
      if (slots.noteResult(result)) {
        shedContained();
        void health.flush();
      }
    } catch (error) {
      // The lease expires and the delivery is tried again: never lost.
      log.error({ err: error, deliveryId: claimed.id }, 'delivery attempt crashed');
    } finally {
      inFlight -= 1;
      slots.ended(claimed.channelId);
      countFinished();
      paces.finished(claimed.channelId, Date.now() - startedAt);
      // A contained channel's probe ended: its next one may be claimed. A channel this
      // worker held enough of: claim again once it is worth it.
      if (held.has(claimed.channelId)) wakeAgain = true;
      else if (full.has(claimed.channelId) && worthClaiming(claimed.channelId)) {
        full.delete(claimed.channelId);
        roomAgain = true;
      }
      dispatch();
      if (inFlight === 0) idle?.();
      pump();
    }
  }

  /**
   * A claim made before the shared state said "contained" may bring more of such a
   * channel's rows: one may wait here for its probe, the rest go back unattempted.
   */
  function shedContained(): void {
    for (const channelId of slots.contained()) {
      const rows = buffer.takeChannel(channelId);
      if (rows.length === 0) continue;
      const keep = slots.sendingOf(channelId) === 0 ? 1 : 0;
      buffer.push(rows.slice(0, keep));
      if (rows.length > keep) void giveBack(rows.slice(keep));
    }
  }

  function countFinished(): void {
    windowCount += 1;
    const now = Date.now();
    if (now - windowStart >= 250) {
      rate = (windowCount * 1000) / (now - windowStart);
      windowStart = now;
      windowCount = 0;
    }
  }

  // ---- 4. record -----------------------------------------------------------------
  function record(result: AttemptResult): void {
    recorder.add(result);
    health.add(result);
    // While claims follow one another (a backlog, a held channel, one this worker holds
    // enough of: their attempts' end brings a claim, see send), the next claim takes the
    // result along. One that no claim took within RIDE_WAIT_MS is written on its own:
    // the claim may wait on another channel's attempts.
    const claimComing = backlog || held.has(result.channelId) || full.has(result.channelId);
    void recordNow(stopping ? 0 : claimComing ? RIDE_WAIT_MS : RECORD_DELAY_MS);
  }

  function recordNow(delayMs = 0): Promise<void> {
    return recorder.flush(delayMs);
  }

  // ---- the workers alive, for the shares of each channel's cap --------------------
  const workerId = uuidv7(Date.now());
  let warnedCap = false;
  const beat = async () => {
    try {
      const alive = await heartbeat(deps.database.db, workerId, deps.clock.now());
      slots.workersAlive(alive);
      // Each worker keeps at least one attempt per channel: with more workers than the
      // cap, a channel can get up to one request per worker at once (docs/delivery-engine.md "Per-channel cap").
      if (alive > deps.config.worker.maxInFlightPerChannel && !warnedCap) {
        warnedCap = true;
        log.warn(
          { workers: alive, cap: deps.config.worker.maxInFlightPerChannel },
          'more delivery workers than CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: a channel may get one request at once per worker',
        );
      }
    } catch (error) {
      log.warn({ err: { message: (error as Error).message } }, 'worker heartbeat failed');
    }
  };
  await beat();
  const heartbeatTimer = setInterval(() => void beat(), HEARTBEAT_MS);
  heartbeatTimer.unref();

  const unlisten = await deps.database.listen(
    DELIVERIES_CHANNEL,
    () => wake(),
    () => wake(),
  );
  wake();

  return {
    wake,
    get inFlight() {
      return inFlight;
    },
    get waitingForShare() {
      return buffer.waiting(mayStart);
    },
    async stop() {
      stopping = true;
      timer.stop();
      clearInterval(heartbeatTimer);
      await unlisten();
      // Claims under way land in the buffer; what was never started is given back.
      await Promise.all(claims);
      const unstarted = buffer.drain();
      if (unstarted.length > 0) await giveBack(unstarted);
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      await recordNow();
      await health.stop();
      await leave(deps.database.db, workerId).catch(() => {});
    },
  };
}
