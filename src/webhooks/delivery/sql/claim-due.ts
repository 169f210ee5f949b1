// The claim: takes due deliveries fairly across channels under a lease, in one
// statement, recording the attempts that ended since the last claim on the way.
import { sql } from 'kysely';
import type { DB } from '../../../db/database.ts';
import { addSeconds } from '../../../clock.ts';
import { uuidv7 } from '../../../crypto/random.ts';
import { MAX_ATTEMPTS } from '../retry-policy.ts';
import type { AttemptResult, ClaimedDelivery } from '../types.ts';
import { liveLeases } from './live-leases.ts';
import { resultsRecorded } from './record-results.ts';

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
 *   under a live lease (live-leases.ts: a range of the queue index), plus the results
 *   this claim records. Its other due rows are not claimed: they keep their attempt
 *   count and their place. That count is only right if no other claim of the channel
 *   runs beside it (it would not see that claim's lease before its commit): such a claim
 *   locks the channel's webhook row, and a claim that finds it locked skips the
 *   channel this time. FOR NO KEY UPDATE, so that event inserts (FOR KEY SHARE of
 *   the same row, see recordEvent) never wait for a claim. And none within
 *   `probeIntervalMs` of its last failure (dispatch-policy.ts, PROBE_INTERVAL_MS).
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
 * O(backlog). The worker refreshes the statistics instead (refreshQueueStatistics) and
 * asks for `ordered` only when it may not: a transaction that turns bitmap scans and
 * sorts off, three more round trips per claim. (Statements are prepared per connection,
 * see src/db/database.ts: once PostgreSQL settles on a generic plan for the claim,
 * these settings no longer change it; that generic plan walks the index.)
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
    intervalo_retentativa_segundos: number | null;
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
      -- generic plan), that became a sequential scan of every delivery, in every claim.
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
      -- that claim took. The channels are walked in order (contained ones' probes first,
      -- then those waiting longest) and the walk stops at the batch: a row is locked as
      -- it is read, and a channel whose due rows another claim holds all gives its place
      -- to the next one.
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
        w.previous_valid_until, w.intervalo_retentativa_segundos
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
        retryIntervalSeconds: r.intervalo_retentativa_segundos,
      })),
  };
}
