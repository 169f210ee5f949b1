// The sweeper's last round, kept in `settings` for `consigna status`: when it ran, how long
// it took and what it did (counts only).
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

const KEY = 'sweeper.last_round';

export interface LastSweep {
  em: string;
  duracaoMs: number;
  feito: Record<string, number>;
}

export async function recordLastSweep(db: DB, sweep: LastSweep): Promise<void> {
  await sql`insert into settings (key, value) values (${KEY}, ${JSON.stringify(sweep)})
            on conflict (key) do update set value = excluded.value`.execute(db);
}

export async function readLastSweep(db: DB): Promise<LastSweep | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
  return row ? (JSON.parse(row.value) as LastSweep) : undefined;
}
