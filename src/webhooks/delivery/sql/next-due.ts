// When the next pending delivery falls due, for an idle worker to sleep until then.
import { sql } from 'kysely';
import type { DB } from '../../../db/database.ts';

/**
 * Leaves out the channels a claim found held back (the worker re-checks those on a
 * timer of its own). One index probe per channel with a webhook.
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
