// Links expire by time. Reads report EXPIRADO as soon as expiraEm passes
// (effectiveStatus in link-states.ts); the sweeper persists it so that the stored status catches up.
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { addSeconds } from '../clock.ts';
import { LIVE_STATUSES } from './link-states.ts';

type Deps = Pick<Context, 'database' | 'clock'>;

export async function expireLinks(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const result = await deps.database.db
    .updateTable('links')
    .set({ status: 'EXPIRADO', updated_at: now })
    .where('status', 'in', LIVE_STATUSES)
    .where('expira_em', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Idempotency keys past their retention (24 hours by default, docs/rules.md §3), up to
 * `batch` of them, oldest first: one short statement (the sweeper repeats it).
 */
export async function pruneIdempotencyKeys(deps: Pick<Context, 'database' | 'clock' | 'config'>, batch: number): Promise<number> {
  const cutoff = addSeconds(deps.clock.now(), -deps.config.retention.idempotencyHours * 3600);
  const { rows } = await sql<{ n: number }>`
    with gone as (
      delete from idempotency_keys k
      using (select channel_id, key from idempotency_keys where created_at <= ${cutoff} order by created_at limit ${batch}) due
      where k.channel_id = due.channel_id and k.key = due.key
      returning 1
    )
    select count(*)::int as n from gone
  `.execute(deps.database.db);
  return rows[0]?.n ?? 0;
}
