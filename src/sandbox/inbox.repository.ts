// The inbox's SQL: one inbox per channel, found by the hash of its token, and its
// newest received events.
import { sql, type Insertable, type Selectable } from 'kysely';
import { notify, type DB } from '../db/database.ts';
import type { InboxEventsTable, InboxesTable } from '../db/tables.ts';

export type InboxRow = Selectable<InboxesTable>;
/** A received event without its raw bytes (what the list shows). */
export type InboxEventText = Omit<Selectable<InboxEventsTable>, 'corpo_bruto'>;
/**
 * The exact bytes of a body, read as base64 (`corpo_bruto` is kept only when the bytes
 * are not exactly the UTF-8 of `corpo`: null otherwise, and for rows older than it).
 * Base64 is what the stream sends, and the database makes it far faster than bytea's
 * own text form is parsed.
 */
export type InboxEventBytes = Pick<Selectable<InboxEventsTable>, 'corpo'> & { corpo_bruto_base64: string | null };
/** One stored event, whole. */
export type InboxEventRow = InboxEventText & InboxEventBytes;
/** What the viewer shows of one event: the record and the start of its body, never the whole body. */
export type InboxEventPreviewRow = Omit<InboxEventText, 'corpo'> & {
  corpo_inicio: string;
  /** True when `corpo_inicio` is the whole text. */
  corpo_inteiro: boolean;
  /** Bytes that arrived. */
  corpo_bytes: number;
};

const RECORD_COLUMNS = [
  'id',
  'inbox_id',
  'recebido_em',
  'tipo',
  'evento_id',
  'tentativa',
  'assinatura_valida',
  'motivo',
  'respondeu_status',
  'headers',
] as const;

const BYTES_BASE64 = sql<string | null>`encode(corpo_bruto, 'base64')`.as('corpo_bruto_base64');

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

export function newestInboxEvents(db: DB, inboxId: string, limit: number): Promise<InboxEventText[]> {
  return db
    .selectFrom('inbox_events')
    .select([...RECORD_COLUMNS, 'corpo'])
    .where('inbox_id', '=', inboxId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Newest first, before `beforeId` when given: the ids of a page of the inbox's events. */
export async function inboxEventIdsPage(db: DB, inboxId: string, page: { limit: number; beforeId?: number }): Promise<number[]> {
  let query = db.selectFrom('inbox_events').select('id').where('inbox_id', '=', inboxId);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  const rows = await query.orderBy('id', 'desc').limit(page.limit).execute();
  return rows.map((row) => row.id);
}

/**
 * These events' records, with the first `previewChars` characters of each body. The
 * database cuts the body, so the cost depends on the count, not on what the bodies hold.
 */
export function inboxEventPreviews(
  db: DB,
  inboxId: string,
  ids: number[],
  previewChars: number,
): Promise<InboxEventPreviewRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('inbox_events')
    .select([
      ...RECORD_COLUMNS,
      sql<string>`substr(corpo, 1, ${previewChars})`.as('corpo_inicio'),
      // Lengths in bytes: counting characters would read the whole body.
      sql<boolean>`octet_length(corpo) = octet_length(substr(corpo, 1, ${previewChars}))`.as('corpo_inteiro'),
      sql<number>`coalesce(octet_length(corpo_bruto), octet_length(corpo))`.as('corpo_bytes'),
    ])
    .where('inbox_id', '=', inboxId)
    .where('id', 'in', ids)
    .orderBy('id', 'desc')
    .execute();
}

/** The exact bytes one stored event arrived with (its text for rows kept before the bytes were). */
export function inboxEventBody(db: DB, inboxId: string, id: number): Promise<InboxEventBytes | undefined> {
  return db
    .selectFrom('inbox_events')
    .select(['corpo', BYTES_BASE64])
    .where('inbox_id', '=', inboxId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteInboxEvents(db: DB, inboxId: string): Promise<void> {
  await db.deleteFrom('inbox_events').where('inbox_id', '=', inboxId).execute();
}

/** Told with the inbox id on every stored event, to the processes streaming that inbox. */
export const INBOX_NOTIFY_CHANNEL = 'consigna_inbox';

/** Oldest first: the ids of the events of an inbox stored after `afterId`. */
export async function inboxEventIdsAfter(db: DB, inboxId: string, afterId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('inbox_events')
    .select('id')
    .where('inbox_id', '=', inboxId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** One stored event, whole; undefined once the inbox no longer keeps it. */
export function inboxEventById(db: DB, inboxId: string, id: number): Promise<InboxEventRow | undefined> {
  return db
    .selectFrom('inbox_events')
    .select([...RECORD_COLUMNS, 'corpo', BYTES_BASE64])
    .where('inbox_id', '=', inboxId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The newest event id ever issued, in any inbox: no stream position can be past it. */
export async function lastIssuedInboxEventId(db: DB): Promise<number> {
  const { rows } = await sql<{ last: number }>`
    select coalesce(pg_sequence_last_value(pg_get_serial_sequence('inbox_events', 'id')), 0)::integer as last
  `.execute(db);
  return rows[0]?.last ?? 0;
}

export async function lastInboxEventId(db: DB, inboxId: string): Promise<number> {
  const row = await db
    .selectFrom('inbox_events')
    .select((eb) => eb.fn.max('id').as('last'))
    .where('inbox_id', '=', inboxId)
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/**
 * Stores one received event and keeps only the newest `keep` of its inbox. `bytes`, the
 * body as it arrived, only when it is not exactly the UTF-8 of `corpo`.
 */
export async function storeInboxEvent(
  db: DB,
  event: Omit<Insertable<InboxEventsTable>, 'corpo_bruto'> & { inbox_id: string },
  bytes: Buffer | undefined,
  keep: number,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    // Serializes the receipts of one inbox, so the cap holds exactly.
    await tx.selectFrom('inboxes').select('id').where('id', '=', event.inbox_id).forUpdate().execute();
    // As base64 text: the embedded database decodes it several times faster than it parses a bytea parameter.
    await tx
      .insertInto('inbox_events')
      .values({ ...event, corpo_bruto: bytes ? sql<Uint8Array>`decode(${bytes.toString('base64')}, 'base64')` : null })
      .execute();
    await sql`
      delete from inbox_events
      where inbox_id = ${event.inbox_id}
        and id < (select min(id) from (select id from inbox_events where inbox_id = ${event.inbox_id} order by id desc limit ${keep}) newest)
    `.execute(tx);
    await notify(tx, INBOX_NOTIFY_CHANNEL, event.inbox_id);
  });
}
