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

/** The channel whose sandbox inbox has this token hash (to accept only a channel's own inbox URL). */
export async function channelOfInbox(db: DB, tokenHash: Buffer): Promise<string | undefined> {
  const row = await db.selectFrom('inboxes').select('channel_id').where('token_hash', '=', tokenHash).executeTakeFirst();
  return row?.channel_id;
}
