// Writes attempt results: alone (recordResults), or inside the next claim
// (resultsRecorded, see claim-due.ts), one round trip and one commit for both.
//
// The batch's rows are reached by `d.id = any (array(select id from …))`, here and in
// the claim and the release: a plain join to the batch (CTE or unnest) let the planner
// read and hash the whole table whenever it judged a few hundred index probes dearer
// than a scan, with custom and generic plans alike. An array built by a subquery is
// estimated at ten elements, so the primary key is always the cheaper path
// (test/webhooks/claim-plan.test.ts holds the statements to zero sequential scans).
import { sql } from 'kysely';
import type { DB } from '../../../db/database.ts';
import type { AttemptResult } from '../types.ts';

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
 * result that landed, numbered with the delivery's attempt count, and placed in its whole
 * history by the attempts of its earlier series and their count).
 */
export function resultsRecorded(results: AttemptResult[]) {
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
    returning d.id, d.channel_id, d.tentativas, d.earlier_attempts, d.resends, v.at, v.http_status, v.latency_ms, v.error,
      v.response_body, v.response_truncated
    ),
    kept as (
      insert into delivery_attempts
        (delivery_id, channel_id, attempt, earlier_attempts, resend, attempted_at, http_status, latency_ms, error, response_body,
         response_truncated)
      select id, channel_id, tentativas, earlier_attempts, resends, at, http_status, latency_ms, error, response_body,
        response_truncated
      from recorded
    )
  `;
}
