// The webhook's SQL: at most one row per channel, its secrets sealed.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { WebhooksTable } from '../db/tables.ts';

export type WebhookRow = Selectable<WebhooksTable>;

/**
 * Creates the channel's webhook or changes its url and eventos (the secret stays).
 * One statement decides create vs update, so two concurrent first PUTs cannot both
 * believe they created (and show) a secret: xmax = 0 only for the insert.
 */
export async function upsertWebhook(db: DB, webhook: Insertable<WebhooksTable>): Promise<{ created: boolean; row: WebhookRow }> {
  const { created, ...row } = await db
    .insertInto('webhooks')
    .values(webhook)
    .onConflict((oc) =>
      oc.column('channel_id').doUpdateSet({
        url: (eb) => eb.ref('excluded.url'),
        eventos: (eb) => eb.ref('excluded.eventos'),
        atualizado_em: (eb) => eb.ref('excluded.atualizado_em'),
      }),
    )
    .returningAll()
    .returning(sql<boolean>`xmax = 0`.as('created'))
    .executeTakeFirstOrThrow();
  return { created, row };
}

export function findWebhookRow(db: DB, channelId: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('channel_id', '=', channelId).executeTakeFirst();
}

/** Removes the webhook and its pending deliveries together; false when there was none. */
export async function deleteWebhookRow(db: DB, channelId: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const deleted = await tx.deleteFrom('webhooks').where('channel_id', '=', channelId).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) return false;
    await tx.deleteFrom('deliveries').where('channel_id', '=', channelId).where('status', '=', 'PENDENTE').execute();
    return true;
  });
}

/** The current secret becomes the previous one, valid until `previousValidUntil`. */
export function replaceSecret(
  db: DB,
  channelId: string,
  change: { secretSealed: Buffer; previousValidUntil: Date; now: Date },
): Promise<WebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set((eb) => ({
      previous_secret_sealed: eb.ref('secret_sealed'),
      previous_valid_until: change.previousValidUntil,
      secret_sealed: change.secretSealed,
      atualizado_em: change.now,
    }))
    .where('channel_id', '=', channelId)
    .returningAll()
    .executeTakeFirst();
}

/** The channel's sandbox retry interval (null: the standard schedule); false when it has no webhook. */
export async function setRetryInterval(db: DB, channelId: string, seconds: number | null): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ intervalo_retentativa_segundos: seconds })
    .where('channel_id', '=', channelId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The channel whose sandbox inbox has this token hash (to accept only a channel's own inbox URL). */
export async function channelOfInbox(db: DB, tokenHash: Buffer): Promise<string | undefined> {
  const row = await db.selectFrom('inboxes').select('channel_id').where('token_hash', '=', tokenHash).executeTakeFirst();
  return row?.channel_id;
}

export interface HealthRow {
  channel_id: string;
  failures: number | null;
  contained_since: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  last_failure_reason: string | null;
  pending: number;
  failed: number;
}

/**
 * How the endpoint of each given channel has been answering (kept by the delivery
 * workers, delivery/channel-health.ts) and its PENDENTE and FALHOU deliveries, counted
 * on their partial indexes.
 */
export async function endpointHealth(db: DB, channelIds: readonly string[]): Promise<HealthRow[]> {
  if (channelIds.length === 0) return [];
  const { rows } = await sql<HealthRow>`
    select c.id as channel_id, h.failures, h.contained_since, h.last_success_at, h.last_failure_at, h.last_failure_reason,
      (select count(*) from deliveries d where d.channel_id = c.id and d.status = 'PENDENTE')::int as pending,
      (select count(*) from deliveries d where d.channel_id = c.id and d.status = 'FALHOU')::int as failed
    from unnest(${channelIds as string[]}::uuid[]) as c(id)
    left join delivery_channels h on h.channel_id = c.id
  `.execute(db);
  return rows;
}

/** Every registered webhook with its channel's name, by channel name. */
export function webhooksWithChannel(db: DB): Promise<Array<{ channel_id: string; name: string; url: string }>> {
  return db
    .selectFrom('webhooks as w')
    .innerJoin('channels as c', 'c.id', 'w.channel_id')
    .select(['w.channel_id', 'c.name', 'w.url'])
    .orderBy('c.name')
    .orderBy('w.channel_id')
    .execute();
}
