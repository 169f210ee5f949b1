// Fresh planner statistics for the claim's two columns.
import { sql } from 'kysely';
import type { DB } from '../../../db/database.ts';

/**
 * Autovacuum re-analyzes a table only after 10 % of it changed: a burst on a table with
 * a long history leaves the statistics saying "almost nothing pending", and claims pay
 * for it (see claimDue, `ordered`). Samples at most 30,000 rows.
 */
export async function refreshQueueStatistics(db: DB): Promise<void> {
  await sql`analyze deliveries (status, next_attempt_at)`.execute(db);
}
