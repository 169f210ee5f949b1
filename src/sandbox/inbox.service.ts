// The sandbox test inbox (docs/rules.md §6): a receiver a channel can
// register as its webhook to watch signed events arrive before writing any code.
import type { Context } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { newInboxToken, uuidv7 } from '../crypto/random.ts';
import { signingSecrets, verifySignature } from '../webhooks/signature.ts';
import { findWebhook } from '../webhooks/webhooks.service.ts';
import type { InboxReceiver } from '../webhooks/delivery/deliverer.ts';
import { hashInboxToken, isIssuedInboxToken } from '../webhooks/inbox-address.ts';
import {
  deleteInboxEvents,
  findInboxByTokenHash,
  findInboxOfChannel,
  inboxEventBody,
  inboxEventIdsPage,
  inboxEventPreviews,
  insertInboxIfMissing,
  newestInboxEvents,
  setInboxResponderStatus,
  storeInboxEvent,
  type InboxEventBytes,
  type InboxEventPreviewRow,
  type InboxEventText,
  type InboxRow,
} from './inbox.repository.ts';
import { MAX_JSON_DEPTH, parseBoundedJson } from '../text/json.ts';
import { cut, previewJson } from '../text/json-preview.ts';

export type { InboxRow };

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
  const db = deps.database.db;
  await insertInboxIfMissing(db, {
    id: uuidv7(now.getTime()),
    channel_id: channelId,
    token_hash: hashInboxToken(deps, token),
    token_sealed: deps.keys.seal(token),
    responder_status: status ?? 200,
    criado_em: now,
    atualizado_em: now,
  });
  if (status !== undefined) await setInboxResponderStatus(db, { channelId }, status, now);
  const row = await findInboxOfChannel(db, channelId);
  if (!row) throw new Error('inbox vanished right after it was ensured');
  return inboxOf(deps, deps.keys.open(row.token_sealed), row.responder_status);
}

/** The channel's inbox, without creating it (a page's GET changes nothing). */
export async function inboxOfChannel(deps: Deps, channelId: string): Promise<Inbox | undefined> {
  const row = await findInboxOfChannel(deps.database.db, channelId);
  return row ? inboxOf(deps, deps.keys.open(row.token_sealed), row.responder_status) : undefined;
}

/** The inbox a path token names; undefined for a malformed or unknown token. */
export async function findInbox(deps: Deps, token: string): Promise<InboxRow | undefined> {
  if (!isIssuedInboxToken(token)) return undefined;
  return findInboxByTokenHash(deps.database.db, hashInboxToken(deps, token));
}

export const inboxNotFound = () => notFound('Receptor de testes não encontrado.');

export async function setResponderStatus(deps: Deps, inbox: InboxRow, value: unknown): Promise<number> {
  const status = checkStatus(value);
  await setInboxResponderStatus(deps.database.db, { id: inbox.id }, status, deps.clock.now());
  return status;
}

export async function listReceived(deps: Deps, inbox: InboxRow): Promise<{ responderStatus: number; eventos: ReceivedEvent[] }> {
  const rows = await newestInboxEvents(deps.database.db, inbox.id, MAX_EVENTS);
  return {
    responderStatus: inbox.responder_status,
    eventos: rows.map(toReceivedEvent),
  };
}

/** Events per page of the viewer. */
export const VIEWER_PAGE_SIZE = 10;
/** Characters of a body the viewer shows, formatted; the whole body is one link away. */
export const PREVIEW_CHARS = 2000;

/** One event as the viewer shows it: the record, and a bounded preview of its body. */
export interface EventPreview extends Omit<ReceivedEvent, 'corpo' | 'corpoAviso'> {
  previa: string;
  /** False when the preview is only the start of the body. */
  completa: boolean;
  previaAviso?: string;
  /** Size of the body as it arrived. */
  bytes: number;
}

export interface PreviewPage {
  responderStatus: number;
  /** The page's events, newest first. */
  ids: number[];
  /** The `antes` of the next (older) page, when there is one. */
  maisAntigos?: number;
}

/** A page of the viewer, newest first: its events' ids (their previews are `previewsOf`). */
export async function viewerPageOf(deps: Deps, inbox: InboxRow, beforeId?: number): Promise<PreviewPage> {
  const ids = await inboxEventIdsPage(deps.database.db, inbox.id, {
    limit: VIEWER_PAGE_SIZE + 1,
    ...(beforeId !== undefined ? { beforeId } : {}),
  });
  const shown = ids.slice(0, VIEWER_PAGE_SIZE);
  return {
    responderStatus: inbox.responder_status,
    ids: shown,
    ...(ids.length > VIEWER_PAGE_SIZE ? { maisAntigos: shown.at(-1)! } : {}),
  };
}

/** These events as the viewer shows them (those the inbox no longer keeps are left out). */
export async function previewsOf(deps: Deps, inbox: InboxRow, ids: number[]): Promise<EventPreview[]> {
  return (await inboxEventPreviews(deps.database.db, inbox.id, ids, PREVIEW_CHARS)).map(toPreview);
}

function toPreview(r: InboxEventPreviewRow): EventPreview {
  const whole = r.corpo_inteiro;
  const record = recordOf(r);
  const start = r.corpo_inicio;
  const json = /^\s*[[{]/.test(start) ? previewJson(start, PREVIEW_CHARS, whole) : undefined;
  if (json?.kind === 'json') {
    return { ...record, previa: json.text, completa: whole && json.complete, bytes: r.corpo_bytes };
  }
  const text = cut(start, PREVIEW_CHARS);
  return {
    ...record,
    previa: text,
    completa: whole && text.length === start.length,
    ...(json?.kind === 'texto' && json.reason === 'profundidade' ? { previaAviso: TOO_DEEP_NOTICE } : {}),
    bytes: r.corpo_bytes,
  };
}

/** The exact bytes of one kept event, or undefined when the inbox no longer keeps it. */
export async function receivedBody(deps: Deps, inbox: InboxRow, id: number): Promise<Buffer | undefined> {
  const row = await inboxEventBody(deps.database.db, inbox.id, id);
  return row && rawBodyOf(row);
}

function recordOf(r: Omit<InboxEventText, 'corpo'>): Omit<ReceivedEvent, 'corpo' | 'corpoAviso'> {
  return {
    id: r.id,
    recebidoEm: r.recebido_em.toISOString(),
    ...(r.tipo !== null ? { tipo: r.tipo } : {}),
    ...(r.evento_id !== null ? { eventoId: r.evento_id } : {}),
    ...(r.tentativa !== null ? { tentativa: r.tentativa } : {}),
    assinaturaValida: r.assinatura_valida,
    ...(r.motivo !== null ? { motivo: r.motivo } : {}),
    respondeuStatus: r.respondeu_status,
    headers: r.headers,
  };
}

export function toReceivedEvent(r: InboxEventText): ReceivedEvent {
  return { ...recordOf(r), ...bodyOf(r.corpo) };
}

/** The bytes that arrived, in base64 (the text shown, when they are exactly its UTF-8). */
export const rawBase64Of = (r: InboxEventBytes): string =>
  r.corpo_bruto_base64 !== null ? r.corpo_bruto_base64.replaceAll('\n', '') : Buffer.from(r.corpo, 'utf8').toString('base64');

/** The bytes that arrived. */
export const rawBodyOf = (r: InboxEventBytes): Buffer =>
  r.corpo_bruto_base64 !== null ? Buffer.from(r.corpo_bruto_base64, 'base64') : Buffer.from(r.corpo, 'utf8');

/** The stored text as JSON when it is JSON within the depth bound; as text otherwise. */
function bodyOf(text: string): Pick<ReceivedEvent, 'corpo' | 'corpoAviso'> {
  const parsed = parseBoundedJson(text);
  if (parsed.kind === 'json') return { corpo: parsed.value };
  return parsed.reason === 'profundidade' ? { corpo: text, corpoAviso: TOO_DEEP_NOTICE } : { corpo: text };
}

/** Deletes the stored events of an inbox (by token) or of the channel's inbox. */
export async function clearReceived(deps: Deps, which: InboxRow | { channelId: string }): Promise<void> {
  const inbox = 'channelId' in which ? await findInboxOfChannel(deps.database.db, which.channelId) : which;
  if (!inbox) throw inboxNotFound();
  await deleteInboxEvents(deps.database.db, inbox.id);
}

/** Stores what arrived (the bytes as received, or the text the engine sent in-process) and returns the status to answer with. */
export async function receive(
  deps: Deps,
  inbox: InboxRow,
  headers: Record<string, string>,
  received: string | Buffer,
): Promise<number> {
  const now = deps.clock.now();
  const raw = typeof received === 'string' ? Buffer.from(received, 'utf8') : received;
  const body = typeof received === 'string' ? received : received.toString('utf8');
  const check = await checkSignature(deps, inbox.channel_id, headers['x-service-signature'], body, now);
  // PostgreSQL text cannot hold NUL; the visible replacement keeps the rest intact.
  const text = body.replaceAll('\0', '\uFFFD');
  // The bytes are kept apart only when the text is not them (invalid UTF-8, a NUL).
  const exact = !body.includes('\0') && Buffer.from(body, 'utf8').equals(raw);
  await storeInboxEvent(
    deps.database.db,
    {
      inbox_id: inbox.id,
      recebido_em: now,
      tipo: headers['x-service-event-type']?.slice(0, 100) ?? null,
      evento_id: headers['x-service-event-id']?.slice(0, 100) ?? null,
      tentativa: headers['x-service-delivery-attempt']?.slice(0, 20) ?? null,
      assinatura_valida: check.valid,
      motivo: check.valid === null ? check.reason : null,
      respondeu_status: inbox.responder_status,
      headers: JSON.stringify(headers),
      corpo: text,
    },
    exact ? undefined : raw,
    MAX_EVENTS,
  );
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
