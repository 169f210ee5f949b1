import { sql, type Selectable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { ChannelsTable } from '../db/tables.ts';
import { batchedPerDatabase } from '../db/batch.ts';

export type ChannelRow = Selectable<ChannelsTable>;

export function insertChannel(db: DB, row: ChannelRow): Promise<unknown> {
  return db.insertInto('channels').values(row).execute();
}

export function findChannelById(db: DB, id: string): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listChannels(db: DB): Promise<ChannelRow[]> {
  return db.selectFrom('channels').selectAll().orderBy('created_at').execute();
}

export function countChannels(db: DB): Promise<number> {
  return db
    .selectFrom('channels')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
}

export async function updateChannel(
  db: DB,
  id: string,
  changes: Partial<Pick<ChannelRow, 'active' | 'secret_hash' | 'updated_at'>>,
): Promise<boolean> {
  const result = await db.updateTable('channels').set(changes).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The database's clock: the requests of one event-loop turn share one read (ping). */
export const databaseTime = batchedPerDatabase(async (db: DB, keys: readonly null[]) => {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  return keys.map(() => rows[0]!.now);
});
