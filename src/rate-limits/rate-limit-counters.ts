// The rate limits' shared rows (table rate_limit_counters): every process adds what it
// counted to its key's row and reads the total back (src/http/rate-limit.ts decides).
import { sql } from 'kysely';
import type { DB, Tx } from '../db/database.ts';

/**
 * Adds each key's count to its row for its window (a new window starts the row again)
 * and returns every key's total.
 */
export async function addCounts(
  db: DB,
  batch: { keys: string[]; windows: string[]; counts: number[] },
): Promise<Array<{ key: string; count: number }>> {
  const { rows } = await sql<{ key: string; count: number }>`
    insert into rate_limit_counters as r (key, window_start, count)
    select * from unnest(${batch.keys}::text[], ${batch.windows}::timestamptz[], ${batch.counts}::int[])
    on conflict (key) do update set
      count = case when r.window_start = excluded.window_start then r.count + excluded.count else excluded.count end,
      window_start = excluded.window_start
    returning key, count
  `.execute(db);
  return rows;
}

/** Drops the counters of windows that ended long ago (every window is far shorter than a day). */
export async function pruneRateLimitCounters(db: DB | Tx, now: Date): Promise<void> {
  await db
    .deleteFrom('rate_limit_counters')
    .where('window_start', '<', new Date(now.getTime() - 86_400_000))
    .execute();
}
