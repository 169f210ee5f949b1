// The queue operations of the delivery engine, one SQL statement each: claim a batch
// of due deliveries (recording finished attempts on the way), record a batch of
// attempt results, give back unstarted claims.
//
// Each statement reaches its batch's rows with `d.id = any (array(select id from …))`.
// A plain join to the batch (CTE or unnest) let the planner read the whole table and
// hash it whenever it judged a few hundred index probes dearer than a scan: so it did
// on tables of 20,000–80,000 rows, with custom plans (batch size known) and generic
// ones (unknown), and each claim cost O(table) (measured: 2.5× the PostgreSQL CPU per
// delivery of a 20,000-event drain). An array built by a subquery is estimated at ten
// elements, so the primary-key index is always the cheaper path, at any table size.
// test/webhooks/claim-plan.test.ts holds the statements to zero sequential scans.
//
// Fairness between channels: the claim (see claimDue) gives every channel with due
// rows its share of each batch, in turns, and a contained channel (channel-health.ts)
// one attempt at a time across every worker; the worker then sends at most its share
// of each channel's cap at once (worker.ts).
import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../../db/database.ts';
import { addSeconds } from '../../clock.ts';
import { uuidv7 } from '../../crypto/random.ts';

export const MAX_ATTEMPTS = 7;

export interface ClaimedDelivery {
  id: string;
  leaseId: string;
  channelId: string;
  attempt: number;
  eventId: string;
  tipo: string;
  payload: string;
  url: string;
  /** Sealed secrets as hex text: the worker's cache of opened secrets is keyed by it. */
  secretSealed: string;
  previousSecretSealed: string | null;
  previousValidUntil: Date | null;
  /** When the event happened (epoch ms): event-to-delivery latency is measured from it. */
  eventAt: number;
  /** The traceparent of the change that recorded the event (tracing on): the attempt continues it. */
  traceContext: string | null;
}

/**
 * Claims up to `limit` due deliveries: SKIP LOCKED lets many workers claim side by
 * side without waiting on each other. The claim moves next_attempt_at to the end of
 * the lease, so a worker that dies leaves rows that become due again by themselves.
 * The attempt number stops at MAX_ATTEMPTS: a takeover after a crash during the
 * seventh attempt repeats attempt 7 (docs/rules.md §5.11: seven attempts in all, and a
 * crash of ours must not cost the channel an attempt nor leave the delivery unsent).
 *
 * Fair between channels, in the same statement:
 * - Every channel with due rows gets an equal share of the batch (at most `perChannel`
 *   or its entry in `limits`; the remainder to the channels whose oldest due row waited
 *   longest), taken oldest first. With more such channels than the batch has rows, one
 *   row each to the channels whose oldest due row waited longest (a claim running beside
 *   another ranks them alike, and takes those channels' next rows; they fall back once
 *   their rows are leased). No backlog, however old or large, fills a batch while another
 *   channel has due work. (`more` says a channel had more due than its share: the
 *   worker claims again at once.) The statement locks only the rows it claims.
 * - A contained channel's share is one attempt across every worker: 1 less its rows
 *   under a live lease (liveLeases: a range of the queue index), plus the results this
 *   claim records. Its other due rows are not claimed: they keep their attempt count
 *   and their place. That count is only right if no other claim of the channel runs
 *   beside it (it would not see that claim's lease before its commit): such a claim
 *   locks the channel's webhook row, and a claim that finds it locked skips the
 *   channel this time. FOR NO KEY UPDATE, so that event inserts (FOR KEY SHARE of
 *   the same row, see recordEvent) never wait for a claim. And none within
 *   `probeIntervalMs` of its last failure (channel-slots.ts, PROBE_INTERVAL_MS).
 * The work is one index probe per channel with a webhook, plus each channel's share
 * of rows, read twice when it is taken whole (locked, then to look one row past it):
 * O(channels + batch), never O(backlog).
 *
 * Only channels that still have a webhook are walked: an orphan row (none should
 * exist, see recordEvent) can never be sent, and must not make a full queue look
 * drained.
 *
 * `held` comes back with the contained channels left with due rows: the worker
 * claims again when its own probe of one of them ends, and re-checks on a short
 * timer for probes under way elsewhere.
 *
 * `record`: results to write in the same statement (and commit) as the claim, as
 * recordResults would: a busy worker pays one round trip and one commit per batch
 * instead of two.
 *
 * `ordered`: walk deliveries_due in order whatever the statistics say. Right after
 * a burst, statistics that still say the queue is nearly empty make the planner read
 * *every* due row (bitmap scan) and sort them to keep `limit`: a claim then costs
 * O(backlog) (measured: 12,000 due rows read and sorted, 4.7 ms, to return 40). The
 * worker refreshes the statistics instead (refreshQueueStatistics) and asks for
 * `ordered` only when it may not: a transaction that turns bitmap scans and sorts
 * off, three more round trips per claim. (Statements are prepared per connection,
 * see src/db/database.ts: once PostgreSQL settles on a generic plan for the claim,
 * these settings no longer change it; measured, that generic plan walks the index.)
 */
export interface ClaimOptions {
  ordered?: boolean;
  record?: AttemptResult[];
  /** Most rows of one channel in this batch (default: the batch). */
  perChannel?: number;
  /** Channels to treat as contained even before the shared state says so (the caller saw them fail). */
  contained?: readonly string[];
  /** Most rows of these channels in this batch, instead of `perChannel` (0: none at all). */
  limits?: ReadonlyMap<string, number>;
  /** A contained channel's next probe starts no sooner than this after its last failure. */
  probeIntervalMs?: number;
}

export interface Claim {
  rows: ClaimedDelivery[];
  /** Contained channels left with due rows (their one attempt is under way). */
  held: string[];
  /** Some channel had more due rows than its share of this batch. */
  more: boolean;
}

export async function claimDue(
  db: DB,
  now: Date,
  limit: number,
  leaseSeconds: number,
  options: ClaimOptions = {},
): Promise<Claim> {
  const record = options.record ?? [];
  const perChannel = Math.max(1, Math.min(options.perChannel ?? limit, limit));
  if (options.ordered) {
    return db.transaction().execute(async (tx) => {
      await sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true)`.execute(tx);
      return claimStatement(tx, now, limit, leaseSeconds, perChannel, options, record);
    });
  }
  return claimStatement(db, now, limit, leaseSeconds, perChannel, options, record);
}

/**
 * Fresh planner statistics for the claim's two columns. Autovacuum re-analyzes a
 * table only after 10 % of it changed: a burst of 20,000 events on a table with a
 * million delivered rows leaves the statistics saying "almost nothing pending",
 * and claims pay for it (see claimDue). Samples at most 30,000 rows.
 */
export async function refreshQueueStatistics(db: DB): Promise<void> {
  await sql`analyze deliveries (status, next_attempt_at)`.execute(db);
}

async function claimStatement(
  db: DB,
  now: Date,
  limit: number,
  leaseSeconds: number,
  perChannel: number,
  { contained = [], limits = new Map(), probeIntervalMs = 0 }: Pick<ClaimOptions, 'contained' | 'limits' | 'probeIntervalMs'>,
  record: AttemptResult[],
): Promise<Claim> {
  const leaseId = uuidv7(now.getTime());
  const leaseEnd = addSeconds(now, leaseSeconds);
  // A data-modifying CTE runs whether or not it is referenced. Its rows still hold
  // this worker's leases (next_attempt_at in the future) unless a lease ran out: they
  // are kept out of `due` all the same, since one statement must not update a row
  // twice. By lease (one per claimed batch, a handful), not by id: a check against
  // hundreds of ids on every row scanned costs more than the claim itself. The same
  // CTE's changes are invisible to the rest of the statement, so the leases it ends
  // are given back to each channel's room by count.
  const leases = [...new Set(record.map((r) => r.leaseId))];
  const ending = new Map<string, number>();
  for (const r of record) ending.set(r.channelId, (ending.get(r.channelId) ?? 0) + 1);
  const recording = record.length > 0 ? sql`${resultsRecorded(record)}, ` : sql``;
  const notRecorded = record.length > 0 ? sql`and (lease_id is null or not (lease_id = any (${leases}::uuid[])))` : sql``;
  const endingHere =
    record.length > 0
      ? sql`+ coalesce((select e.n from unnest(${[...ending.keys()]}::uuid[], ${[...ending.values()]}::int[]) as e(channel_id, n)
                        where e.channel_id = c.channel_id), 0)`
      : sql``;
  const { rows } = await sql<{
    held: string[] | null;
    more: boolean;
    id: string | null;
    channel_id: string;
    tentativas: number;
    event_id: string;
    tipo: string;
    payload: string;
    url: string;
    secret_sealed: string;
    previous_secret_sealed: string | null;
    previous_valid_until: Date | null;
    criado_em_ms: number;
    trace_context: string | null;
  }>`
    with ${recording}limits as (
      select * from unnest(${[...limits.keys()]}::uuid[], ${[...limits.values()]}::int[]) as l(channel_id, n)
    ),
    active as materialized (
      select w.channel_id, h.contained_since is not null or w.channel_id = any (${contained}::uuid[]) as contained,
        coalesce((select l.n from limits l where l.channel_id = w.channel_id), ${perChannel}::int) as most,
        coalesce(h.last_failure_at > ${now}::timestamptz - make_interval(secs => ${probeIntervalMs / 1000}), false) as resting,
        oldest.oldest_at
      from webhooks w left join delivery_channels h on h.channel_id = w.channel_id
      -- The channel's oldest due row, one probe of the queue index per channel. Not
      -- "exists": planned while the table was small (a prepared statement keeps its
      -- generic plan), that became a sequential scan of every delivery, in every claim
      -- (measured: 8.6 ms a claim on 82,000 rows, half the drain's database CPU).
      cross join lateral (
        select d.next_attempt_at as oldest_at from deliveries d
        where d.channel_id = w.channel_id and d.status = 'PENDENTE' and d.next_attempt_at <= ${now} ${notRecorded}
        order by d.next_attempt_at limit 1
      ) oldest
    ),
    -- Shares that add up to the batch at most, after one row per contained channel: with
    -- no more channels than rows, an equal share each and the remainder to those waiting
    -- longest; with more, one row each, and the walk in due takes the batch's worth.
    room as materialized (
      select channel_id, false as contained, rank as ord,
        least(case when n > budget then 1 else budget / n + case when rank <= budget % n then 1 else 0 end end, most) as room
      from (
        select channel_id, most, (select count(*) from active where not contained and most > 0)::int as n,
          greatest(${limit}::int - (select count(*) from active where contained and most > 0)::int, 0) as budget,
          row_number() over (order by oldest_at, channel_id) as rank
        from active where not contained and most > 0
      ) shares
      union all
      select c.channel_id, true, 0,
        case when a.most = 0 or a.resting then 0
             else 1 - ${liveLeases(sql`c.channel_id`, now, leaseSeconds)}::int ${endingHere}
        end
      from (select w.channel_id from webhooks w where w.channel_id in (select channel_id from active where contained)
            for no key update of w skip locked) c
      join active a on a.channel_id = c.channel_id
    ),
    due as (
      -- Only the rows it takes: a row locked for the statement and not taken would be
      -- skipped by a claim running beside it, and go out a batch after the newer rows
      -- that claim took (measured once in CI: an event 64 places late, when this
      -- locked one row past each share to see whether the channel had more). The
      -- channels are walked in order (contained ones' probes first, then those waiting
      -- longest) and the walk stops at the batch: a row is locked as it is read, and a
      -- channel whose due rows another claim holds all gives its place to the next one.
      select d.id, d.channel_id
      from (select channel_id, room from room where room > 0 order by contained desc, ord) r
      cross join lateral (
        select id, channel_id from deliveries
        where channel_id = r.channel_id and status = 'PENDENTE' and next_attempt_at <= ${now} ${notRecorded}
        order by next_attempt_at
        limit r.room
        for update skip locked
      ) d
      limit ${limit}
    ),
    claimed as (
      update deliveries d
      set tentativas = least(d.tentativas + 1, ${MAX_ATTEMPTS}), next_attempt_at = ${leaseEnd}, lease_id = ${leaseId}
      from webhooks w
      where d.id = any (array(select id from due)) and w.channel_id = d.channel_id
      returning d.id, d.channel_id, d.tentativas, d.event_id, d.tipo, w.url,
        encode(w.secret_sealed, 'hex') as secret_sealed, encode(w.previous_secret_sealed, 'hex') as previous_secret_sealed,
        w.previous_valid_until
    ),
    taken as (
      select channel_id, count(*)::int as n from due group by channel_id
    ),
    -- Channels with more due than this claim took: no room at all (every channel in room
    -- had a due row when the statement began); less than its room while the walk stopped
    -- at the batch (it may not have been reached); or its whole room and a row past it.
    -- That row is read, not locked: it may be one a claim beside this one is taking (one
    -- claim more, at the end of a backlog).
    left_over as (
      select array_agg(r.channel_id) filter (where r.contained) as held,
             coalesce(bool_or(not r.contained), false) as more
      from room r left join taken t on t.channel_id = r.channel_id
      where r.room <= 0
        or (coalesce(t.n, 0) < r.room and (select count(*) from due) >= ${limit}::int)
        or (coalesce(t.n, 0) >= r.room and exists (
          select 1 from deliveries d
          where d.channel_id = r.channel_id and d.status = 'PENDENTE' and d.next_attempt_at <= ${now} ${notRecorded}
          order by d.next_attempt_at offset greatest(r.room, 0) limit 1
        ))
    )
    -- Each claimed row's event by its key, one probe each (the limit keeps the planner from
    -- turning the probes into a join): joined, a plan made while the events table was small
    -- hashed the whole of it in every claim, and a prepared statement keeps its plan.
    select left_over.held, left_over.more, c.*, e.payload,
      (extract(epoch from e.ocorrido_em) * 1000)::float8 as criado_em_ms, e.trace_context
    from left_over left join (
      claimed c cross join lateral (select payload, ocorrido_em, trace_context from events where id = c.event_id limit 1) e
    ) on true
  `.execute(db);
  return {
    held: rows[0]?.held ?? [],
    more: rows[0]?.more ?? false,
    rows: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id!,
        leaseId,
        channelId: r.channel_id,
        attempt: r.tentativas,
        eventId: r.event_id,
        tipo: r.tipo,
        payload: r.payload,
        url: r.url,
        secretSealed: r.secret_sealed,
        previousSecretSealed: r.previous_secret_sealed,
        previousValidUntil: r.previous_valid_until,
        eventAt: r.criado_em_ms,
        traceContext: r.trace_context,
      })),
  };
}

/**
 * For the metrics, read from the queue (the same on every process): channels contained
 * now, and due deliveries not attempted because of the fairness rules, by reason:
 * `contido` (their channel is contained: one probe at a time) and `limite` (their
 * channel already has `cap` or more deliveries claimed, so the workers take no more of
 * it for now: during a burst, the cap is what keeps the rest waiting).
 */
export async function heldBack(
  db: DB,
  now: Date,
  cap: number,
  leaseSeconds: number,
): Promise<{ contained: number; heldContained: number; heldByCap: number }> {
  const { rows } = await sql<{ contained: number; heldContained: number; heldByCap: number }>`
    with contained as (
      select h.channel_id from delivery_channels h join webhooks w on w.channel_id = h.channel_id
      where h.contained_since is not null
    ),
    at_cap as (
      -- Rows under a live lease: due within the next lease (see claimDue), per channel.
      select w.channel_id from webhooks w
      where ${liveLeases(sql`w.channel_id`, now, leaseSeconds)} >= ${cap}::int
    ),
    waiting as (
      select d.channel_id, count(*)::int as n from deliveries d
      where d.status = 'PENDENTE' and d.next_attempt_at <= ${now}
        and d.channel_id in (select channel_id from contained union select channel_id from at_cap)
      group by d.channel_id
    )
    select (select count(*)::int from contained) as contained,
      coalesce((select sum(n)::int from waiting where channel_id in (select channel_id from contained)), 0) as "heldContained",
      coalesce((select sum(n)::int from waiting where channel_id not in (select channel_id from contained)), 0) as "heldByCap"
  `.execute(db);
  return rows[0] ?? { contained: 0, heldContained: 0, heldByCap: 0 };
}

/**
 * How many of a channel's rows are under a live lease. A claim sets a row's
 * next_attempt_at to the end of its lease, so they are among its PENDENTE rows due within
 * the next lease by this clock (two leases: another worker's clock may run ahead): a
 * range of the queue index, whatever the backlog (due now or earlier) and the retries
 * scheduled later.
 */
const liveLeases = (channel: RawBuilder<unknown>, now: Date, leaseSeconds: number) => sql`(
  select count(*) from deliveries l
  where l.channel_id = ${channel} and l.status = 'PENDENTE' and l.lease_id is not null
    and l.next_attempt_at > ${now} and l.next_attempt_at <= ${addSeconds(now, 2 * leaseSeconds)}
)`;

export interface ResendClaim {
  event_id: string;
  tipo: string;
  payload: string;
  url: string;
  secret_sealed: Uint8Array;
  previous_secret_sealed: Uint8Array | null;
  previous_valid_until: Date | null;
}

/**
 * The manual resend's claim: one finished delivery (FALHOU or ENTREGUE) of this
 * channel back to PENDENTE at attempt 1, leased so that no worker takes it while the
 * caller sends it; recordResults then records that attempt like any other.
 */
export async function claimForResend(
  db: DB,
  delivery: { id: string; channelId: string; leaseId: string; leaseUntil: Date },
): Promise<ResendClaim | undefined> {
  const { rows } = await sql<ResendClaim>`
    update deliveries d
    set status = 'PENDENTE', tentativas = 1, next_attempt_at = ${delivery.leaseUntil},
        lease_id = ${delivery.leaseId}, entregue_em = null
    from events e, webhooks w
    where d.id = ${delivery.id} and d.channel_id = ${delivery.channelId} and d.status in ('FALHOU', 'ENTREGUE')
      and e.id = d.event_id and w.channel_id = d.channel_id
    returning d.event_id, d.tipo, e.payload, w.url, w.secret_sealed, w.previous_secret_sealed, w.previous_valid_until
  `.execute(db);
  return rows[0];
}

/**
 * The bulk recovery's step: up to `batch` of a channel's FALHOU deliveries, oldest
 * first, back to PENDENTE with their attempts reset, due at the time they occurred, so
 * the engine takes them in order of occurrence, under its usual fairness. One short
 * statement per batch; rows another caller is recovering are skipped, never taken twice.
 */
export async function requeueFailed(
  db: DB,
  channelId: string,
  range: { desde?: Date; ate?: Date },
  batch: number,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with picked as (
      select id from deliveries
      where channel_id = ${channelId} and status = 'FALHOU'
        ${range.desde ? sql`and criado_em >= ${range.desde}` : sql``}
        ${range.ate ? sql`and criado_em < ${range.ate}` : sql``}
      order by criado_em, id
      limit ${batch}
      for update skip locked
    ),
    requeued as (
      update deliveries d
      set status = 'PENDENTE', tentativas = 0, next_attempt_at = d.criado_em, lease_id = null, entregue_em = null
      from picked where d.id = picked.id
      returning 1
    )
    select count(*)::int as n from requeued
  `.execute(db);
  return rows[0]?.n ?? 0;
}

export interface AttemptResult {
  id: string;
  leaseId: string;
  channelId: string;
  status: 'ENTREGUE' | 'PENDENTE' | 'FALHOU';
  nextAttemptAt: Date | null;
  httpStatus: number | null;
  error: string | null;
  latencyMs: number;
  at: Date;
  /** The start of the endpoint's answer (outbound.ts, RESPONSE_BODY_KEPT), kept with the attempt. */
  responseBody: string | null;
  responseTruncated: boolean;
}

/** What an attempt leads to: delivered, the next retry of the schedule, or failed for good. */
export function outcome(
  claimed: Pick<ClaimedDelivery, 'id' | 'leaseId' | 'attempt' | 'channelId'>,
  result: { ok: boolean; status?: number; latencyMs: number; error?: string; body?: string; bodyTruncated?: boolean },
  at: Date,
  retryDelaysSeconds: readonly number[],
): AttemptResult {
  const base = {
    id: claimed.id,
    leaseId: claimed.leaseId,
    channelId: claimed.channelId,
    httpStatus: result.status ?? null,
    latencyMs: result.latencyMs,
    at,
    responseBody: result.body ?? null,
    responseTruncated: result.bodyTruncated ?? false,
  };
  if (result.ok) return { ...base, status: 'ENTREGUE', nextAttemptAt: null, error: null };
  const error = (result.error ?? 'falha').slice(0, 500);
  if (claimed.attempt >= MAX_ATTEMPTS) return { ...base, status: 'FALHOU', nextAttemptAt: null, error };
  const delay = retryDelaysSeconds[claimed.attempt - 1] ?? retryDelaysSeconds[retryDelaysSeconds.length - 1]!;
  return { ...base, status: 'PENDENTE', nextAttemptAt: addSeconds(at, delay), error };
}

/**
 * Records many results in one statement. A row whose lease changed (its lease
 * expired and another worker took it) is left alone: the newer attempt owns it, and
 * so is the late result's attempt row (only results that land are in the history).
 */
export async function recordResults(db: DB, results: AttemptResult[]): Promise<number> {
  if (results.length === 0) return 0;
  const { rows } = await sql<{ n: number }>`with ${resultsRecorded(results)} select count(*)::int as n from recorded`.execute(db);
  return rows[0]?.n ?? 0;
}

/**
 * The CTEs that write attempt results (alone, or within a claim): `results` (the
 * input), `recorded` (the deliveries updated) and `kept` (one delivery_attempts row per
 * result that landed, numbered with the delivery's attempt count).
 */
function resultsRecorded(results: AttemptResult[]) {
  const column = <T>(pick: (r: AttemptResult) => T) => results.map(pick);
  return sql`
    results as (
      select * from unnest(
        ${column((r) => r.id)}::uuid[], ${column((r) => r.leaseId)}::uuid[], ${column((r) => r.status)}::text[],
        ${column((r) => r.nextAttemptAt?.toISOString() ?? null)}::timestamptz[], ${column((r) => r.httpStatus)}::int[],
        ${column((r) => r.error)}::text[], ${column((r) => r.latencyMs)}::int[], ${column((r) => r.at.toISOString())}::timestamptz[],
        ${column((r) => r.responseBody)}::text[], ${column((r) => r.responseTruncated)}::bool[]
      ) as v(id, lease_id, status, next_attempt_at, http_status, error, latency_ms, at, response_body, response_truncated)
    ),
    recorded as (
    update deliveries d
    set status = v.status,
        next_attempt_at = v.next_attempt_at,
        lease_id = null,
        last_http_status = v.http_status,
        last_error = v.error,
        last_latency_ms = v.latency_ms,
        last_attempt_at = v.at,
        entregue_em = case when v.status = 'ENTREGUE' then v.at else d.entregue_em end
    from results v
    where d.id = any (array(select id from results)) and d.id = v.id and d.lease_id = v.lease_id
    returning d.id, d.channel_id, d.tentativas, v.at, v.http_status, v.latency_ms, v.error, v.response_body, v.response_truncated
    ),
    kept as (
      insert into delivery_attempts
        (delivery_id, channel_id, attempt, attempted_at, http_status, latency_ms, error, response_body, response_truncated)
      select id, channel_id, tentativas, at, http_status, latency_ms, error, response_body, response_truncated from recorded
    )
  `;
}

/**
 * Gives back claims that were never attempted (a stopping worker's local buffer):
 * due again at once, attempt number as before the claim (the claim's least(n + 1, 7)
 * gives the same number again). Rows whose lease changed are left alone.
 */
export async function releaseClaims(db: DB, claims: Array<Pick<ClaimedDelivery, 'id' | 'leaseId'>>, now: Date): Promise<number> {
  if (claims.length === 0) return 0;
  const result = await sql`
    with v as (select * from unnest(${claims.map((c) => c.id)}::uuid[], ${claims.map((c) => c.leaseId)}::uuid[]) as v(id, lease_id))
    update deliveries d
    set next_attempt_at = ${now}, lease_id = null, tentativas = greatest(d.tentativas - 1, 0)
    from v
    where d.id = any (array(select id from v)) and d.id = v.id and d.lease_id = v.lease_id and d.status = 'PENDENTE'
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * When the next pending delivery falls due (to sleep exactly until then), leaving
 * out the channels a claim found held back (the worker re-checks those on a timer of
 * its own). One index probe per channel with a webhook.
 */
export async function nextDueAt(db: DB, except: readonly string[] = []): Promise<Date | undefined> {
  const { rows } = await sql<{ at: Date | null }>`
    select min(n.at) as at
    from webhooks w cross join lateral (
      select next_attempt_at as at from deliveries
      where channel_id = w.channel_id and status = 'PENDENTE'
      order by next_attempt_at limit 1
    ) n
    where not (w.channel_id = any (${except}::uuid[]))
  `.execute(db);
  return rows[0]?.at ?? undefined;
}
