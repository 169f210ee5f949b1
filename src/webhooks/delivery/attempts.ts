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
import { sql } from 'kysely';
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
}

/**
 * Claims up to `limit` due deliveries: SKIP LOCKED lets many workers claim side by
 * side without waiting on each other. The claim moves next_attempt_at to the end of
 * the lease, so a worker that dies leaves rows that become due again by themselves.
 * The attempt number stops at MAX_ATTEMPTS: a takeover after a crash during the
 * seventh attempt repeats attempt 7 (the spec numbers attempts 1 to 7, and a crash
 * of ours must not cost the channel an attempt nor leave the delivery unsent).
 *
 * Only rows whose channel still has a webhook are picked: an orphan row (none should
 * exist, see recordEvent) could otherwise fill a batch it can never be sent from,
 * again on every claim, and make a full queue look drained.
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
export async function claimDue(
  db: DB,
  now: Date,
  limit: number,
  leaseSeconds: number,
  options: { ordered?: boolean; record?: AttemptResult[] } = {},
): Promise<ClaimedDelivery[]> {
  const record = options.record ?? [];
  if (options.ordered) {
    return db.transaction().execute(async (tx) => {
      await sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true)`.execute(tx);
      return claimStatement(tx, now, limit, leaseSeconds, record);
    });
  }
  return claimStatement(db, now, limit, leaseSeconds, record);
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
  record: AttemptResult[],
): Promise<ClaimedDelivery[]> {
  const leaseId = uuidv7(now.getTime());
  // A data-modifying CTE runs whether or not it is referenced. Its rows still hold
  // this worker's leases (next_attempt_at in the future) unless a lease ran out: they
  // are kept out of `due` all the same, since one statement must not update a row
  // twice. By lease (one per claimed batch, a handful), not by id: a check against
  // hundreds of ids on every row scanned costs more than the claim itself.
  const leases = [...new Set(record.map((r) => r.leaseId))];
  const recording = record.length > 0 ? sql`recorded as (${resultsUpdate(record)}), ` : sql``;
  const notRecorded = record.length > 0 ? sql`and (lease_id is null or not (lease_id = any (${leases}::uuid[])))` : sql``;
  const { rows } = await sql<{
    id: string;
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
  }>`
    with ${recording}due as (
      select id from deliveries
      where status = 'PENDENTE' and next_attempt_at <= ${now} ${notRecorded}
        and exists (select 1 from webhooks w where w.channel_id = deliveries.channel_id)
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update deliveries d
    set tentativas = least(d.tentativas + 1, ${MAX_ATTEMPTS}), next_attempt_at = ${addSeconds(now, leaseSeconds)}, lease_id = ${leaseId}
    from events e, webhooks w
    where d.id = any (array(select id from due)) and e.id = d.event_id and w.channel_id = d.channel_id
    returning d.id, d.channel_id, d.tentativas, d.event_id, d.tipo, e.payload, w.url,
      encode(w.secret_sealed, 'hex') as secret_sealed, encode(w.previous_secret_sealed, 'hex') as previous_secret_sealed,
      w.previous_valid_until, (extract(epoch from e.ocorrido_em) * 1000)::float8 as criado_em_ms
  `.execute(db);
  return rows.map((r) => ({
    id: r.id,
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
  }));
}

export interface AttemptResult {
  id: string;
  leaseId: string;
  status: 'ENTREGUE' | 'PENDENTE' | 'FALHOU';
  nextAttemptAt: Date | null;
  httpStatus: number | null;
  error: string | null;
  latencyMs: number;
  at: Date;
}

/** What an attempt leads to: delivered, the next retry of the schedule, or failed for good. */
export function outcome(
  claimed: Pick<ClaimedDelivery, 'id' | 'leaseId' | 'attempt'>,
  result: { ok: boolean; status?: number; latencyMs: number; error?: string },
  at: Date,
  retryDelaysSeconds: readonly number[],
): AttemptResult {
  const base = { id: claimed.id, leaseId: claimed.leaseId, httpStatus: result.status ?? null, latencyMs: result.latencyMs, at };
  if (result.ok) return { ...base, status: 'ENTREGUE', nextAttemptAt: null, error: null };
  const error = (result.error ?? 'falha').slice(0, 500);
  if (claimed.attempt >= MAX_ATTEMPTS) return { ...base, status: 'FALHOU', nextAttemptAt: null, error };
  const delay = retryDelaysSeconds[claimed.attempt - 1] ?? retryDelaysSeconds[retryDelaysSeconds.length - 1]!;
  return { ...base, status: 'PENDENTE', nextAttemptAt: addSeconds(at, delay), error };
}

/**
 * Records many results in one statement. A row whose lease changed (its lease
 * expired and another worker took it) is left alone: the newer attempt owns it.
 */
export async function recordResults(db: DB, results: AttemptResult[]): Promise<number> {
  if (results.length === 0) return 0;
  const result = await resultsUpdate(results).execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** The UPDATE that writes attempt results (alone, or as a CTE of a claim). */
function resultsUpdate(results: AttemptResult[]) {
  const column = <T>(pick: (r: AttemptResult) => T) => results.map(pick);
  return sql`
    with v as (
      select * from unnest(
        ${column((r) => r.id)}::uuid[], ${column((r) => r.leaseId)}::uuid[], ${column((r) => r.status)}::text[],
        ${column((r) => r.nextAttemptAt?.toISOString() ?? null)}::timestamptz[], ${column((r) => r.httpStatus)}::int[],
        ${column((r) => r.error)}::text[], ${column((r) => r.latencyMs)}::int[], ${column((r) => r.at.toISOString())}::timestamptz[]
      ) as v(id, lease_id, status, next_attempt_at, http_status, error, latency_ms, at)
    )
    update deliveries d
    set status = v.status,
        next_attempt_at = v.next_attempt_at,
        lease_id = null,
        last_http_status = v.http_status,
        last_error = v.error,
        last_latency_ms = v.latency_ms,
        last_attempt_at = v.at,
        entregue_em = case when v.status = 'ENTREGUE' then v.at else d.entregue_em end
    from v
    where d.id = any (array(select id from v)) and d.id = v.id and d.lease_id = v.lease_id
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

/** When the next pending delivery falls due (to sleep exactly until then). */
export async function nextDueAt(db: DB): Promise<Date | undefined> {
  const { rows } = await sql<{ at: Date | null }>`
    select min(next_attempt_at) as at from deliveries where status = 'PENDENTE'
  `.execute(db);
  return rows[0]?.at ?? undefined;
}
