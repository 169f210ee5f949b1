import { sql, type Insertable, type Selectable } from 'kysely';
import type { DB, Tx } from '../db/database.ts';
import { batchedPerDatabase } from '../db/batch.ts';
import type { IdempotencyKeysTable, LinkStatus, LinksTable, ProposalStatus } from '../db/tables.ts';

export type LinkRow = Selectable<LinksTable>;
export type NewLink = Insertable<LinksTable>;

/** A link with its proposal, as GET /v1/links/{id} shows it. */
export interface LinkView {
  id: string;
  status: LinkStatus;
  ambiente: string;
  cpf_masked: string;
  referencia_externa: string | null;
  expira_em: Date;
  criado_em: Date;
  aberto_em: Date | null;
  proposta_numero: number | null;
  proposta_status: ProposalStatus | null;
  proposta_criada_em: Date | null;
  personal_data_erased_at: Date | null;
  return_url: string | null;
  consent_version: string | null;
  consent_at: Date | null;
}

type LinkViewRow = LinkView & { lookup: number };

type LinkLookup = { channelId: string; id: string };

const loadLinkViews = batchedPerDatabase(async (db: DB, keys: readonly LinkLookup[]) => {
  const { rows } = await sql<LinkViewRow>`
    select q.lookup, l.id, l.status, l.ambiente, l.cpf_masked, l.referencia_externa, l.expira_em, l.criado_em,
           l.aberto_em, p.numero as proposta_numero, p.status as proposta_status, p.criada_em as proposta_criada_em,
           l.personal_data_erased_at, l.return_url, j.consent_version, j.consent_at
    from unnest(${keys.map((key) => key.id)}::uuid[], ${keys.map((key) => key.channelId)}::uuid[])
           with ordinality as q(id, channel_id, lookup)
    join links l on l.id = q.id and l.channel_id = q.channel_id
    left join proposals p on p.link_id = l.id
    left join journeys j on j.link_id = l.id
  `.execute(db);
  const found: (LinkView | undefined)[] = Array.from({ length: keys.length });
  for (const { lookup, ...view } of rows) found[Number(lookup) - 1] = view;
  return found;
});

/**
 * The hottest read of the API. Lookups of one event-loop turn go to the database as
 * one query (src/db/batch.ts); the channel is part of every lookup's condition, so a
 * batch never lends one channel's link to another. Plain SQL: the query builder's
 * compile step cost ~30 µs per call here.
 */
/** A channel's own link; undefined for another channel's (the caller answers 404 alike). */
export function findLinkOfChannel(db: DB | Tx, channelId: string, id: string): Promise<LinkRow | undefined> {
  return db.selectFrom('links').selectAll().where('id', '=', id).where('channel_id', '=', channelId).executeTakeFirst();
}

export function findLinkView(db: DB, channelId: string, id: string): Promise<LinkView | undefined> {
  return loadLinkViews(db, { channelId, id });
}

export function findIdempotencyKey(db: DB, channelId: string, key: string, cutoff: Date) {
  return db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'response_sealed'])
    .where('channel_id', '=', channelId)
    .where('key', '=', key)
    .where('created_at', '>', cutoff)
    .executeTakeFirst();
}

type KeyClaim = Omit<Insertable<IdempotencyKeysTable>, 'link_id'> & { cutoff: Date };
type LinkWithKey = { link: Insertable<LinksTable>; key: KeyClaim | undefined };

const insertBatched = batchedPerDatabase(insertLinksWithKeys);

/**
 * Inserts the link and takes its idempotency key in one statement (atomic without an
 * explicit transaction). The key is claimed first: a new row, or one older than the
 * retention window taken over. When a live row (another request's) holds the key,
 * nothing is inserted and false comes back. The primary key (channel, key) is what
 * serializes concurrent creations with one key: the second statement waits for the
 * first to commit and then finds the key taken. (The foreign key from the key to
 * the link is checked at the end of the statement, when both rows exist.)
 *
 * Without a key (no Idempotency-Key header) the link is inserted as it is: every such
 * call creates a link, and no key row is kept that nobody could replay.
 *
 * Creations of one event-loop turn share the statement (src/db/batch.ts): one round
 * trip and one commit for all of them. Within a batch, a key repeated in one channel
 * goes in once; its other requests get false and, after the batch has committed,
 * find the key taken like any later request.
 */
export function insertLinkWithKey(db: DB, link: Insertable<LinksTable>, key: KeyClaim | undefined): Promise<boolean> {
  return insertBatched(db, { link, key });
}

async function insertLinksWithKeys(db: DB, entries: readonly LinkWithKey[]): Promise<boolean[]> {
  const seen = new Set<string>();
  // Sorted, so that two processes taking overlapping keys lock them in one order
  // (no deadlock between batches).
  const batch = entries
    .filter(({ key }) => {
      if (!key) return true;
      const id = `${key.channel_id}\n${key.key}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => compare(a.key?.channel_id as string, b.key?.channel_id as string) || compare(a.key?.key, b.key?.key));
  const column = <T>(pick: (entry: LinkWithKey) => T): T[] => batch.map(pick);
  const { rows } = await sql<{ id: string }>`
    with input as (
      select * from unnest(
        ${column((e) => e.link.id)}::uuid[], ${column((e) => e.link.channel_id)}::uuid[],
        ${column((e) => e.link.ambiente)}::text[], ${column((e) => e.link.token_hash)}::bytea[],
        ${column((e) => e.link.cpf_sealed)}::bytea[], ${column((e) => e.link.cpf_hash)}::bytea[],
        ${column((e) => e.link.cpf_masked)}::text[], ${column((e) => e.link.celular_sealed ?? null)}::bytea[],
        ${column((e) => e.link.referencia_externa ?? null)}::text[], ${column((e) => e.link.return_url ?? null)}::text[],
        ${column((e) => e.link.status)}::text[], ${column((e) => e.link.trace_context ?? null)}::text[],
        ${column((e) => iso(e.link.expira_em))}::timestamptz[], ${column((e) => iso(e.link.criado_em))}::timestamptz[],
        ${column((e) => iso(e.link.updated_at))}::timestamptz[], ${column((e) => e.key?.key ?? null)}::text[],
        ${column((e) => e.key?.fingerprint ?? null)}::bytea[], ${column((e) => e.key?.response_sealed ?? null)}::bytea[],
        ${column((e) => (e.key ? iso(e.key.created_at) : null))}::timestamptz[],
        ${column((e) => (e.key ? iso(e.key.cutoff) : null))}::timestamptz[]
      ) as i(id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, celular_sealed,
             referencia_externa, return_url, status, trace_context, expira_em, criado_em, updated_at, key, fingerprint, response_sealed,
             created_at, cutoff)
    ),
    claimed as (
      insert into idempotency_keys as k (channel_id, key, fingerprint, link_id, response_sealed, created_at)
      select channel_id, key, fingerprint, id, response_sealed, created_at from input where key is not null
      on conflict (channel_id, key) do update set
        fingerprint = excluded.fingerprint, link_id = excluded.link_id,
        response_sealed = excluded.response_sealed, created_at = excluded.created_at
      where k.created_at <= (select i.cutoff from input i where i.channel_id = k.channel_id and i.key = k.key)
      returning link_id
    )
    insert into links (id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, celular_sealed,
                       referencia_externa, return_url, status, trace_context, expira_em, criado_em, aberto_em, updated_at)
    select id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, celular_sealed,
           referencia_externa, return_url, status, trace_context, expira_em, criado_em, null, updated_at
    from input where key is null or id in (select link_id from claimed)
    returning id
  `.execute(db);
  const inserted = new Set(rows.map((row) => row.id));
  return entries.map((entry) => inserted.has(entry.link.id as string));
}

// Timestamps go in as ISO text: node-postgres formats a Date in an array element in
// local time, piece by piece (6 % of the bytes allocated under POST /v1/links).
const iso = (value: Date | string): string => (typeof value === 'string' ? value : value.toISOString());

const compare = (a: string | undefined = '', b: string | undefined = ''): number => (a < b ? -1 : a > b ? 1 : 0);
