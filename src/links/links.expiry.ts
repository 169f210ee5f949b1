// Links expire by time. Reads report EXPIRADO as soon as expiraEm passes
// (effectiveStatus in link-states.ts); the sweeper persists it so that the stored status catches up.
import type { Context } from '../context.ts';
import { addSeconds } from '../clock.ts';
import { LIVE_STATUSES } from './link-states.ts';

/** Idempotency keys are kept 24 hours (docs/rules.md §3). */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 3600;

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

export async function pruneIdempotencyKeys(deps: Deps): Promise<number> {
  const result = await deps.database.db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<=', addSeconds(deps.clock.now(), -IDEMPOTENCY_RETENTION_SECONDS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
