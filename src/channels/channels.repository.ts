import type { DB } from '../db/database.ts';
import type { ChannelsTable } from '../db/tables.ts';
import type { Selectable } from 'kysely';

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
