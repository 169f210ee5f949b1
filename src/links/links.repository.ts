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
  return db.insertInto('links').values(row).execute();
}

export function findLinkView(db: DB, channelId: string, id: string): Promise<LinkView | undefined> {
  return db
    .selectFrom('links as l')
    .leftJoin('proposals as p', 'p.link_id', 'l.id')
    .select([
      'l.id',
      'l.status',
      'l.ambiente',
      'l.cpf_masked',
      'l.referencia_externa',
      'l.expira_em',
      'l.criado_em',
      'l.aberto_em',
      'p.numero as proposta_numero',
      'p.status as proposta_status',
      'p.criada_em as proposta_criada_em',
    ])
    .where('l.id', '=', id)
    .where('l.channel_id', '=', channelId)
    .executeTakeFirst();
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
 * Takes the key for this request: inserts it, or takes over a row older than the
 * retention window. Returns false when a live row (another request's) holds it.
 */
export async function claimIdempotencyKey(
  db: DB,
  row: Insertable<IdempotencyKeysTable> & { cutoff: Date },
): Promise<boolean> {
  const { cutoff, ...values } = row;
  const result = await db
    .insertInto('idempotency_keys')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['channel_id', 'key'])
        .doUpdateSet({
          fingerprint: (eb) => eb.ref('excluded.fingerprint'),
          link_id: (eb) => eb.ref('excluded.link_id'),
          response_sealed: (eb) => eb.ref('excluded.response_sealed'),
          created_at: (eb) => eb.ref('excluded.created_at'),
        })
        .where('idempotency_keys.created_at', '<=', cutoff),
    )
    .returning(sql<number>`1`.as('claimed'))
    .executeTakeFirst();
  return result !== undefined;
}
