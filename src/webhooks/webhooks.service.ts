// The channel's one webhook: registration, reading, removal and secret rotation
// (spec, Webhook; decisions §5). Secrets are sealed at rest and shown only once.
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { addSeconds } from '../clock.ts';
import { newWebhookSecret } from '../crypto/random.ts';
import { PROPOSAL_EVENT_TYPES } from '../events/event-body.ts';
import type { WebhooksTable } from '../db/tables.ts';
import type { Selectable } from 'kysely';
import { hashInboxToken, inboxTokenOf, validateWebhookUrl } from './url-policy.ts';

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config'>;
export type WebhookRow = Selectable<WebhooksTable>;

export const PREVIOUS_SECRET_SECONDS = 24 * 3600;

export interface WebhookResource {
  ambiente: string;
  url: string;
  eventos: string[];
  ativo: boolean;
  criadoEm: string;
  atualizadoEm: string;
  segredo?: string;
  segredoAnteriorValidoAte?: string;
}

export function toWebhookResource(deps: Pick<Context, 'config' | 'clock'>, row: WebhookRow, segredo?: string): WebhookResource {
  const previousValid = row.previous_valid_until && row.previous_valid_until > deps.clock.now();
  return {
    ambiente: deps.config.ambiente,
    url: row.url,
    eventos: row.eventos,
    // The service never disables a webhook by itself (decisions §5).
    ativo: true,
    criadoEm: row.criado_em.toISOString(),
    atualizadoEm: row.atualizado_em.toISOString(),
    ...(segredo ? { segredo } : {}),
    ...(previousValid ? { segredoAnteriorValidoAte: row.previous_valid_until!.toISOString() } : {}),
  };
}

export function validateEventos(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const invalid = (message: string) => badRequest('eventos_invalidos', message);
  if (!Array.isArray(value)) throw invalid('eventos deve ser uma lista de tipos de evento.');
  const allowed = PROPOSAL_EVENT_TYPES as readonly string[];
  for (const item of value) {
    if (typeof item !== 'string' || !allowed.includes(item)) {
      throw invalid(
        `Tipo de evento inválido: ${typeof item === 'string' ? item.slice(0, 60) : String(item)}. Aceitos: ${allowed.join(', ')}.`,
      );
    }
  }
  if (new Set(value).size !== value.length) throw invalid('eventos não pode repetir tipos.');
  return value as string[];
}

export async function registerWebhook(
  deps: Deps,
  channelId: string,
  input: { url: unknown; eventos?: unknown },
): Promise<{ created: boolean; webhook: WebhookResource }> {
  const check = validateWebhookUrl(input.url, {
    allowInsecure: deps.config.allowInsecureWebhooks,
    inboxBaseUrl: deps.config.publicBaseUrl,
  });
  if (!check.ok) throw badRequest('url_invalida', check.message);
  const inboxToken = inboxTokenOf(input.url as string, deps.config.publicBaseUrl);
  if (inboxToken !== undefined) {
    // A test-inbox URL is accepted only for the channel's own inbox: another
    // channel's would put this channel's events in that channel's inbox and viewer.
    const inbox = await deps.database.db
      .selectFrom('inboxes')
      .select('channel_id')
      .where('token_hash', '=', hashInboxToken(deps, inboxToken))
      .executeTakeFirst();
    if (inbox?.channel_id !== channelId) {
      throw badRequest(
        'url_invalida',
        'Esta URL de caixa de teste não é a deste canal: use a url devolvida por PUT /v1/sandbox/receptor.',
      );
    }
  }
  const eventos = validateEventos(input.eventos);
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  // One statement decides create vs update, so two concurrent first PUTs cannot
  // both believe they created (and show) a secret: xmax = 0 only for the insert.
  const row = await deps.database.db
    .insertInto('webhooks')
    .values({
      channel_id: channelId,
      url: input.url as string,
      eventos,
      secret_sealed: deps.keys.seal(secret),
      previous_secret_sealed: null,
      previous_valid_until: null,
      criado_em: now,
      atualizado_em: now,
    })
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
  const { created, ...stored } = row;
  return { created, webhook: toWebhookResource(deps, stored, created ? secret : undefined) };
}

export async function findWebhook(deps: Pick<Context, 'database'>, channelId: string): Promise<WebhookRow | undefined> {
  return deps.database.db.selectFrom('webhooks').selectAll().where('channel_id', '=', channelId).executeTakeFirst();
}

export async function requireWebhook(deps: Pick<Context, 'database'>, channelId: string): Promise<WebhookRow> {
  const row = await findWebhook(deps, channelId);
  if (!row) throw notFound('Nenhum webhook registrado para este canal.');
  return row;
}

/** Removes the webhook and its pending deliveries; delivered and failed history stays. */
export async function deleteWebhook(deps: Pick<Context, 'database'>, channelId: string): Promise<void> {
  await deps.database.db.transaction().execute(async (tx) => {
    const deleted = await tx.deleteFrom('webhooks').where('channel_id', '=', channelId).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) throw notFound('Nenhum webhook registrado para este canal.');
    await tx.deleteFrom('deliveries').where('channel_id', '=', channelId).where('status', '=', 'PENDENTE').execute();
  });
}

/** New secret now; the previous one keeps working for 24 hours (only the newest previous). */
export async function rotateSecret(deps: Deps, channelId: string): Promise<WebhookResource> {
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  const row = await deps.database.db
    .updateTable('webhooks')
    .set((eb) => ({
      previous_secret_sealed: eb.ref('secret_sealed'),
      previous_valid_until: addSeconds(now, PREVIOUS_SECRET_SECONDS),
      secret_sealed: deps.keys.seal(secret),
      atualizado_em: now,
    }))
    .where('channel_id', '=', channelId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Nenhum webhook registrado para este canal.');
  return toWebhookResource(deps, row, secret);
}

/**
 * The secrets that sign right now: the current one, and the previous during its
 * window. Sealed as bytes (Keys), or in any form an opener of its own takes (the
 * delivery worker's cache takes them as hex text).
 */
export function signingSecrets<S = Uint8Array>(
  keys: { open(sealed: S): string },
  row: { secret_sealed: S; previous_secret_sealed: S | null; previous_valid_until: Date | null },
  now: Date,
): string[] {
  const secrets = [keys.open(row.secret_sealed)];
  if (row.previous_secret_sealed && row.previous_valid_until && row.previous_valid_until > now) {
    secrets.push(keys.open(row.previous_secret_sealed));
  }
  return secrets;
}
