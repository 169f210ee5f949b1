// The sandbox test inbox (spec, Test inbox; decisions §6): a receiver a channel can
// register as its webhook to watch signed events arrive before writing any code.
import { sql, type Selectable } from 'kysely';
import type { InboxesTable } from '../db/tables.ts';
import type { Context } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { newInboxToken, uuidv7 } from '../crypto/random.ts';
import { verifySignature } from '../webhooks/signature.ts';
import { findWebhook, signingSecrets } from '../webhooks/webhooks.service.ts';
import type { InboxReceiver } from '../webhooks/delivery/deliverer.ts';
import { hashInboxToken } from '../webhooks/url-policy.ts';
import { MAX_JSON_DEPTH, parseBoundedJson } from '../text/json.ts';

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config'>;

export const ALLOWED_STATUSES = [200, 202, 204, 400, 401, 404, 500, 502, 503] as const;
export const MAX_EVENTS = 50;
export const MAX_BODY_BYTES = 64 * 1024;
const TOLERANCE_SECONDS = 300;

export interface Inbox {
  url: string;
  visualizacaoUrl: string;
  responderStatus: number;
}

export interface ReceivedEvent {
  id: number;
  recebidoEm: string;
  tipo?: string;
  eventoId?: string;
  tentativa?: string;
  assinaturaValida: boolean | null;
  motivo?: string;
  respondeuStatus: number;
  headers: Record<string, string>;
  corpo: unknown;
  /** Why a body that looks like JSON is shown as text (too deeply nested). */
  corpoAviso?: string;
}

export const TOO_DEEP_NOTICE = `JSON com mais de ${MAX_JSON_DEPTH} níveis de aninhamento: mostrado como texto, sem interpretar.`;

export { hashInboxToken };

export function checkStatus(value: unknown): number {
  if (typeof value !== 'number' || !(ALLOWED_STATUSES as readonly number[]).includes(value)) {
    throw badRequest('status_invalido', `responderStatus inválido: use um de ${ALLOWED_STATUSES.join(', ')}.`);
  }
  return value;
}

export const inboxUrlOf = (deps: Pick<Context, 'config'>, token: string): string =>
  `${deps.config.publicBaseUrl}/v1/sandbox/receptor/${token}`;

const inboxOf = (deps: Pick<Context, 'config'>, token: string, responderStatus: number): Inbox => ({
  url: inboxUrlOf(deps, token),
  visualizacaoUrl: `${deps.config.publicBaseUrl}/sandbox/receptor/${token}`,
  responderStatus,
});

/** Creates the channel's inbox or returns the existing one (always the same URL). */
export async function ensureInbox(deps: Deps, channelId: string, responderStatus?: unknown): Promise<Inbox> {
  const status = responderStatus === undefined ? undefined : checkStatus(responderStatus);
  const now = deps.clock.now();
  const token = newInboxToken();
  await deps.database.db
    .insertInto('inboxes')
    .values({
      id: uuidv7(now.getTime()),
      channel_id: channelId,
      token_hash: hashInboxToken(deps, token),
      token_sealed: deps.keys.seal(token),
      responder_status: status ?? 200,
      criado_em: now,
      atualizado_em: now,
    })
    .onConflict((oc) => oc.column('channel_id').doNothing())
    .execute();
  if (status !== undefined) {
    await deps.database.db
      .updateTable('inboxes')
      .set({ responder_status: status, atualizado_em: now })
      .where('channel_id', '=', channelId)
      .execute();
  }
  const row = await deps.database.db
    .selectFrom('inboxes')
    .select(['token_sealed', 'responder_status'])
    .where('channel_id', '=', channelId)
    .executeTakeFirstOrThrow();
  return inboxOf(deps, deps.keys.open(row.token_sealed), row.responder_status);
}

export type InboxRow = Selectable<InboxesTable>;

/** The inbox a path token names; undefined for a malformed or unknown token. */
export async function findInbox(deps: Deps, token: string): Promise<InboxRow | undefined> {
  if (!/^sbx_[A-Za-z0-9]{32}$/.test(token)) return undefined;
  return deps.database.db
    .selectFrom('inboxes')
    .selectAll()
    .where('token_hash', '=', hashInboxToken(deps, token))
    .executeTakeFirst();
}

export const inboxNotFound = () => notFound('Receptor de testes não encontrado.');

export async function setResponderStatus(deps: Deps, inbox: InboxRow, value: unknown): Promise<number> {
  const status = checkStatus(value);
  await deps.database.db
    .updateTable('inboxes')
    .set({ responder_status: status, atualizado_em: deps.clock.now() })
    .where('id', '=', inbox.id)
    .execute();
  return status;
}

export async function listReceived(deps: Deps, inbox: InboxRow): Promise<{ responderStatus: number; eventos: ReceivedEvent[] }> {
  const rows = await deps.database.db
    .selectFrom('inbox_events')
    .selectAll()
    .where('inbox_id', '=', inbox.id)
    .orderBy('id', 'desc')
    .limit(MAX_EVENTS)
    .execute();
  return {
    responderStatus: inbox.responder_status,
    eventos: rows.map((r) => ({
      id: r.id,
      recebidoEm: r.recebido_em.toISOString(),
      ...(r.tipo !== null ? { tipo: r.tipo } : {}),
      ...(r.evento_id !== null ? { eventoId: r.evento_id } : {}),
      ...(r.tentativa !== null ? { tentativa: r.tentativa } : {}),
      assinaturaValida: r.assinatura_valida,
      ...(r.motivo !== null ? { motivo: r.motivo } : {}),
      respondeuStatus: r.respondeu_status,
      headers: r.headers,
      ...bodyOf(r.corpo),
    })),
  };
}

/** The stored text as JSON when it is JSON within the depth bound; as text otherwise. */
function bodyOf(text: string): Pick<ReceivedEvent, 'corpo' | 'corpoAviso'> {
  const parsed = parseBoundedJson(text);
  if (parsed.kind === 'json') return { corpo: parsed.value };
  return parsed.reason === 'profundidade' ? { corpo: text, corpoAviso: TOO_DEEP_NOTICE } : { corpo: text };
}

/** Deletes the stored events of an inbox (by token) or of the channel's inbox. */
export async function clearReceived(deps: Deps, which: InboxRow | { channelId: string }): Promise<void> {
  const inbox =
    'channelId' in which
      ? await deps.database.db.selectFrom('inboxes').select('id').where('channel_id', '=', which.channelId).executeTakeFirst()
      : which;
  if (!inbox) throw inboxNotFound();
  await deps.database.db.deleteFrom('inbox_events').where('inbox_id', '=', inbox.id).execute();
}

/** Stores what arrived and returns the status to answer with. */
export async function receive(deps: Deps, inbox: InboxRow, headers: Record<string, string>, body: string): Promise<number> {
  const now = deps.clock.now();
  const check = await checkSignature(deps, inbox.channel_id, headers['x-service-signature'], body, now);
  await deps.database.db.transaction().execute(async (tx) => {
    // Serializes the receipts of one inbox, so the 50-event cap holds exactly.
    await tx.selectFrom('inboxes').select('id').where('id', '=', inbox.id).forUpdate().execute();
    await tx
      .insertInto('inbox_events')
      .values({
        inbox_id: inbox.id,
        recebido_em: now,
        tipo: headers['x-service-event-type']?.slice(0, 100) ?? null,
        evento_id: headers['x-service-event-id']?.slice(0, 100) ?? null,
        tentativa: headers['x-service-delivery-attempt']?.slice(0, 20) ?? null,
        assinatura_valida: check.valid,
        motivo: check.valid === null ? check.reason : null,
        respondeu_status: inbox.responder_status,
        headers: JSON.stringify(headers),
        // PostgreSQL text cannot hold NUL; the visible replacement keeps the rest intact.
        corpo: body.replaceAll('\0', '\uFFFD'),
      })
      .execute();
    await sql`
      delete from inbox_events
      where inbox_id = ${inbox.id}
        and id < (select min(id) from (select id from inbox_events where inbox_id = ${inbox.id} order by id desc limit ${MAX_EVENTS}) newest)
    `.execute(tx);
  });
  return inbox.responder_status;
}

async function checkSignature(deps: Deps, channelId: string, header: string | undefined, body: string, now: Date) {
  const webhook = await findWebhook(deps, channelId);
  if (!webhook) return { valid: null, reason: 'nenhum webhook registrado para o canal' } as const;
  return verifySignature(
    body,
    header,
    signingSecrets(deps.keys, webhook, now),
    Math.floor(now.getTime() / 1000),
    TOLERANCE_SECONDS,
  );
}

/** What the delivery engine calls for the inbox URL: no network hop. */
export function createInboxReceiver(deps: Deps): InboxReceiver {
  return {
    receive: async (token, headers, body) => {
      const inbox = await findInbox(deps, token);
      return inbox && receive(deps, inbox, headers, body);
    },
  };
}
