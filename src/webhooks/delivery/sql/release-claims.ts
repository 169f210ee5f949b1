// Gives back claimed rows that were never attempted.
import { sql } from 'kysely';
import type { DB } from '../../../db/database.ts';
import type { ClaimedDelivery } from '../types.ts';

/**
 * Claims never attempted (a stopping worker's buffer, rows that waited too long for a
 * slot, a contained channel's extra rows): due again at once, attempt number as before
 * the claim (the claim's least(n + 1, 7) gives the same number again). Rows whose lease
 * changed are left alone.
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
