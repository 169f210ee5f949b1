// Reading a channel's deliveries (the engine's own statements are in delivery/attempts.ts).
import type { Selectable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { DeliveriesTable, DeliveryStatus } from '../db/tables.ts';

export type DeliveryRow = Selectable<DeliveriesTable>;

/** Newest first. */
export function listDeliveryRows(
  db: DB,
  channelId: string,
  filter: { status?: DeliveryStatus; limit: number },
): Promise<DeliveryRow[]> {
  let query = db
    .selectFrom('deliveries')
    .selectAll()
    .where('channel_id', '=', channelId)
    .orderBy('criado_em', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit);
  if (filter.status) query = query.where('status', '=', filter.status);
  return query.execute();
}

export function findDeliveryRow(db: DB, channelId: string, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('deliveries').selectAll().where('id', '=', id).where('channel_id', '=', channelId).executeTakeFirst();
}
