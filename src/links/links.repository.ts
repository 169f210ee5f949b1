import { sql, type Insertable, type Selectable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { IdempotencyKeysTable, LinksTable } from '../db/tables.ts';

export type LinkRow = Selectable<LinksTable>;

/** A link with its proposal, as GET /v1/links/{id} shows it. */
export interface LinkView {
  id: string;
  status: string;
  ambiente: string;
  cpf_masked: string;
  referencia_externa: string | null;
  expira_em: Date;
  criado_em: Date;
  aberto_em: Date | null;
  proposta_numero: number | null;
  proposta_status: string | null;
  proposta_criada_em: Date | null;
}

export function insertLink(db: DB, row: Insertable<LinksTable>): Promise<unknown> {
  // Plain SQL on the creation path: the query builder's compile step cost ~30 µs here.
  return sql`
    insert into links (id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, celular_sealed,
                       referencia_externa, status, expira_em, criado_em, aberto_em, updated_at)
    values (${row.id}, ${row.channel_id}, ${row.ambiente}, ${row.token_hash}, ${row.cpf_sealed}, ${row.cpf_hash},
            ${row.cpf_masked}, ${row.celular_sealed ?? null}, ${row.referencia_externa ?? null}, ${row.status},
            ${row.expira_em}, ${row.criado_em}, ${row.aberto_em ?? null}, ${row.updated_at})
  `.execute(db);
}

export async function findLinkView(db: DB, channelId: string, id: string): Promise<LinkView | undefined> {
  // Plain SQL: this is the hottest read of the API, and the query builder's compile
  // step cost ~30 µs per call here (bench: GET /v1/links/{id}).
  const { rows } = await sql<LinkView>`
    select l.id, l.status, l.ambiente, l.cpf_masked, l.referencia_externa, l.expira_em, l.criado_em, l.aberto_em,
           p.numero as proposta_numero, p.status as proposta_status, p.criada_em as proposta_criada_em
    from links l left join proposals p on p.link_id = l.id
    where l.id = ${id} and l.channel_id = ${channelId}
  `.execute(db);
  return rows[0];
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

/**
 * Inserts the link and takes its idempotency key in one statement (one round trip,
 * atomic without an explicit transaction). The key is claimed first: a new row, or
 * one older than the retention window taken over. When a live row (another
 * request's) holds the key, nothing is inserted and false comes back. The primary
 * key (channel, key) is what serializes concurrent creations with one key: the
 * second statement waits for the first to commit and then finds the key taken.
 * (The foreign key from the key to the link is checked at the end of the statement,
 * when both rows exist.)
 */
export async function insertLinkWithKey(
  db: DB,
  link: Insertable<LinksTable>,
  key: Omit<Insertable<IdempotencyKeysTable>, 'link_id'> & { cutoff: Date },
): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    with claimed as (
      insert into idempotency_keys as k (channel_id, key, fingerprint, link_id, response_sealed, created_at)
      values (${key.channel_id}, ${key.key}, ${key.fingerprint}, ${link.id}, ${key.response_sealed}, ${key.created_at})
      on conflict (channel_id, key) do update set
        fingerprint = excluded.fingerprint, link_id = excluded.link_id,
        response_sealed = excluded.response_sealed, created_at = excluded.created_at
      where k.created_at <= ${key.cutoff}
      returning 1
    )
    insert into links (id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, celular_sealed,
                       referencia_externa, status, expira_em, criado_em, aberto_em, updated_at)
    select ${link.id}, ${link.channel_id}, ${link.ambiente}, ${link.token_hash}, ${link.cpf_sealed}, ${link.cpf_hash},
           ${link.cpf_masked}, ${link.celular_sealed ?? null}, ${link.referencia_externa ?? null}, ${link.status},
           ${link.expira_em}, ${link.criado_em}, ${link.aberto_em ?? null}, ${link.updated_at}
    where exists (select 1 from claimed)
    returning id
  `.execute(db);
  return rows.length > 0;
}
