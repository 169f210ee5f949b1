// The inbox's SQL: one inbox per channel, found by the hash of its token, and its
// newest received events.
import { sql, type Insertable, type Selectable } from 'kysely';
import { notify, type DB } from '../db/database.ts';
import type { InboxEventsTable, InboxesTable } from '../db/tables.ts';

export type InboxRow = Selectable<InboxesTable>;
export type InboxEventRow = Selectable<InboxEventsTable>;

/** Creates the channel's inbox unless it has one (one per channel). */
export async function insertInboxIfMissing(db: DB, inbox: Insertable<InboxesTable>): Promise<void> {
  await db
    .insertInto('inboxes')
    .values(inbox)
    .onConflict((oc) => oc.column('channel_id').doNothing())
    .execute();
}

export async function setInboxResponderStatus(
  db: DB,
  which: { channelId: string } | { id: string },
  status: number,
  now: Date,
): Promise<void> {
  const update = db.updateTable('inboxes').set({ responder_status: status, atualizado_em: now });
  await ('channelId' in which ? update.where('channel_id', '=', which.channelId) : update.where('id', '=', which.id)).execute();
}

export function findInboxOfChannel(db: DB, channelId: string): Promise<InboxRow | undefined> {
  return db.selectFrom('inboxes').selectAll().where('channel_id', '=', channelId).executeTakeFirst();
}

export function findInboxByTokenHash(db: DB, tokenHash: Buffer): Promise<InboxRow | undefined> {
  return db.selectFrom('inboxes').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function newestInboxEvents(db: DB, inboxId: string, limit: number): Promise<InboxEventRow[]> {
  return db.selectFrom('inbox_events').selectAll().where('inbox_id', '=', inboxId).orderBy('id', 'desc').limit(limit).execute();
}

export async function deleteInboxEvents(db: DB, inboxId: string): Promise<void> {
  await db.deleteFrom('inbox_events').where('inbox_id', '=', inboxId).execute();
}

/** Told with the inbox id on every stored event, to the processes streaming that inbox. */
export const INBOX_NOTIFY_CHANNEL = 'consigna_inbox';

/** Oldest first: the events of an inbox stored after `afterId`. */
export function inboxEventsAfter(db: DB, inboxId: string, afterId: number, limit: number): Promise<InboxEventRow[]> {
  return db
    .selectFrom('inbox_events')
    .selectAll()
    .where('inbox_id', '=', inboxId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function lastInboxEventId(db: DB, inboxId: string): Promise<number> {
  const row = await db
    .selectFrom('inbox_events')
    .select((eb) => eb.fn.max('id').as('last'))
    .where('inbox_id', '=', inboxId)
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/** Stores one received event and keeps only the newest `keep` of its inbox. */
export async function storeInboxEvent(
  db: DB,
  event: Insertable<InboxEventsTable> & { inbox_id: string },
  keep: number,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    // Serializes the receipts of one inbox, so the cap holds exactly.
    await tx.selectFrom('inboxes').select('id').where('id', '=', event.inbox_id).forUpdate().execute();
    await tx.insertInto('inbox_events').values(event).execute();
    await sql`
      delete from inbox_events
      where inbox_id = ${event.inbox_id}
        and id < (select min(id) from (select id from inbox_events where inbox_id = ${event.inbox_id} order by id desc limit ${keep}) newest)
    `.execute(tx);
    await notify(tx, INBOX_NOTIFY_CHANNEL, event.inbox_id);
  });
}
