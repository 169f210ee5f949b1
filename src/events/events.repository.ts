// Reading a channel's events (the outbox writes them: outbox.ts). Order: the order they
// were recorded in (events.xid, the writing transaction), newest first, id breaking ties.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { EventPosition } from './event-cursor.ts';

export interface EventFilter {
  tipo?: string;
  linkId?: string;
  /** Inclusive. */
  desde?: Date;
  /** Exclusive. */
  ate?: Date;
  entregue?: boolean;
}

export interface EventRow extends EventPosition {
  payload: string;
}

/**
 * One page, newest first, after `before` (exclusive). Only events whose transaction is
 * older than every transaction still running are listed: one that commits later is
 * always newer than anything a page has shown (migration 0010).
 */
export async function eventPage(
  db: DB,
  channelId: string,
  filter: EventFilter,
  before: EventPosition | undefined,
  limit: number,
): Promise<EventRow[]> {
  const recorded = sql`e.xid`;
  // The delivery of an event is found through deliveries_channel: it was created at
  // the event's time, for the event's channel (deliveries has no index by event).
  const delivered = sql`exists (
    select 1 from deliveries d
    where d.channel_id = e.channel_id and d.criado_em = e.ocorrido_em and d.event_id = e.id and d.status = 'ENTREGUE')`;
  const { rows } = await sql<EventRow>`
    select e.id, e.payload, ${recorded}::text as xid
    from events e
    where e.channel_id = ${channelId}
      and ${recorded} < pg_snapshot_xmin(pg_current_snapshot())
      ${before ? sql`and (${recorded}, e.id) < (${before.xid}::xid8, ${before.id}::uuid)` : sql``}
      ${filter.tipo !== undefined ? sql`and e.tipo = ${filter.tipo}` : sql``}
      ${filter.linkId !== undefined ? sql`and e.link_id = ${filter.linkId}` : sql``}
      ${filter.desde !== undefined ? sql`and e.ocorrido_em >= ${filter.desde}` : sql``}
      ${filter.ate !== undefined ? sql`and e.ocorrido_em < ${filter.ate}` : sql``}
      ${filter.entregue === true ? sql`and ${delivered}` : filter.entregue === false ? sql`and not ${delivered}` : sql``}
    order by ${recorded} desc, e.id desc
    limit ${limit}
  `.execute(db);
  return rows;
}

/** The stored body of one of the channel's events, exactly as it was signed. */
export async function eventPayload(db: DB, channelId: string, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('events')
    .select('payload')
    .where('id', '=', id)
    .where('channel_id', '=', channelId)
    .executeTakeFirst();
  return row?.payload;
}
