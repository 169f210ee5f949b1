import { sql, type Selectable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { ChannelsTable } from '../db/tables.ts';
import { batchedPerDatabase } from '../db/batch.ts';

export type ChannelRow = Selectable<ChannelsTable>;

/** One statement: all the rows or none (8 parameters a row; a command creates at most 1,000). */
export async function insertChannels(db: DB, rows: ChannelRow[]): Promise<void> {
  await db.insertInto('channels').values(rows).execute();
}

export function findChannelById(db: DB, id: string): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listChannels(db: DB): Promise<ChannelRow[]> {
  // Channels created together share created_at; their ids (UUIDv7) keep the order they were made in.
  return db.selectFrom('channels').selectAll().orderBy('created_at').orderBy('id').execute();
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
