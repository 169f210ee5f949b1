// The channel's one webhook: registration, reading, removal and secret rotation
// (docs/rules.md §5). Secrets are sealed at rest and shown only once.
import type { Context } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { addSeconds } from '../clock.ts';
import { newWebhookSecret } from '../crypto/random.ts';
import { PROPOSAL_EVENT_TYPES } from '../events/event-body.ts';
import { validateWebhookUrl } from './url-policy.ts';
import {
  deleteWebhookRow,
  findWebhookRow,
  replaceSecret,
  upsertWebhook,
  endpointHealth,
  webhooksWithChannel,
  type HealthRow,
  type WebhookRow,
} from './webhooks.repository.ts';
import { inboxNamedBy, type NamedInbox } from './own-inbox.ts';

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config'>;
export type { WebhookRow };

export const noWebhook = () => notFound('Nenhum webhook registrado para este canal.');

export const PREVIOUS_SECRET_SECONDS = 24 * 3600;

/** How the channel's endpoint has been answering the delivery engine. */
export interface EndpointHealth {
  falhasSeguidas: number;
  contido: boolean;
  contidoDesde?: string;
  ultimoSucessoEm?: string;
  ultimaFalhaEm?: string;
  ultimaFalhaMotivo?: string;
  pendentes: number;
  falhas: number;
}

export function toEndpointHealth(row: HealthRow): EndpointHealth {
  return {
    falhasSeguidas: row.failures ?? 0,
    contido: row.contained_since !== null,
    ...(row.contained_since ? { contidoDesde: row.contained_since.toISOString() } : {}),
    ...(row.last_success_at ? { ultimoSucessoEm: row.last_success_at.toISOString() } : {}),
    ...(row.last_failure_at ? { ultimaFalhaEm: row.last_failure_at.toISOString() } : {}),
    ...(row.last_failure_reason ? { ultimaFalhaMotivo: row.last_failure_reason } : {}),
    pendentes: row.pending,
    falhas: row.failed,
  };
}

export async function webhookHealth(deps: Pick<Context, 'database'>, channelId: string): Promise<EndpointHealth> {
  const [row] = await endpointHealth(deps.database.db, [channelId]);
  return toEndpointHealth(row!);
}

export interface ChannelHealth {
  canalId: string;
  nome: string;
  /** The webhook's host only: the path may carry a channel's own token. */
  host: string;
  saude: EndpointHealth;
}

/** Every channel with a webhook, for operators (`consigna channels health`). */
export async function channelsHealth(deps: Pick<Context, 'database'>): Promise<ChannelHealth[]> {
  const hooks = await webhooksWithChannel(deps.database.db);
  const health = new Map(
    (
      await endpointHealth(
        deps.database.db,
        hooks.map((h) => h.channel_id),
      )
    ).map((r) => [r.channel_id, r]),
  );
  return hooks.map((h) => ({
    canalId: h.channel_id,
    nome: h.name,
    host: URL.canParse(h.url) ? new URL(h.url).host : '?',
    saude: toEndpointHealth(health.get(h.channel_id)!),
  }));
}

export interface WebhookResource {
  ambiente: string;
  url: string;
  eventos: string[];
  ativo: boolean;
  criadoEm: string;
  atualizadoEm: string;
  segredo?: string;
  segredoAnteriorValidoAte?: string;
  /** Only on GET /v1/webhooks. */
  saude?: EndpointHealth;
}

export function toWebhookResource(deps: Pick<Context, 'config' | 'clock'>, row: WebhookRow, segredo?: string): WebhookResource {
  const previousValid = row.previous_valid_until && row.previous_valid_until > deps.clock.now();
  return {
    ambiente: deps.config.ambiente,
    url: row.url,
    eventos: row.eventos,
    // The service never disables a webhook by itself (docs/rules.md §5).
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

/** Where a developer whose URL is on their own machine can turn (docs/rules.md §5). */
export const LOCAL_RECEIVER_HINT =
  'Para receber no seu computador, use `npx @consigna/sdk listen --forward-to http://localhost:PORTA/caminho` ' +
  '(encaminha os eventos do receptor de testes) ou, num serviço local de desenvolvimento, CONSIGNA_ALLOW_INSECURE_WEBHOOKS=true.';

/** http, loopback, a private or link-local address, or a name only a local network knows. */
function looksLocal(raw: unknown): boolean {
  if (typeof raw !== 'string' || !URL.canParse(raw)) return false;
  const { protocol, hostname } = new URL(raw);
  const host = hostname.replace(/^\[|\]$/g, '');
  return (
    protocol === 'http:' ||
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    !host.includes('.') ||
    /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|0\.)/.test(host) ||
    host === '::1' ||
    (host.includes(':') && /^f[cd]/i.test(host)) ||
    /^fe80:/i.test(host)
  );
}

/**
 * A test-inbox URL is accepted only for the channel's own inbox: another channel's would
 * put this channel's events in that channel's inbox and viewer. Our inbox URL with an
 * unknown token is refused too; a URL elsewhere that names another channel's inbox token
 * in its path (another name for this service, a proxy) is refused as well.
 */
function refuseOtherInbox(channelId: string, named: NamedInbox | undefined): void {
  if (!named || named.owner === channelId || (!named.onOurHost && named.owner === undefined)) return;
  throw badRequest(
    'url_invalida',
    'Esta URL de caixa de teste não é a deste canal: use a url devolvida por PUT /v1/sandbox/receptor.',
  );
}

export async function registerWebhook(
  deps: Deps,
  channelId: string,
  input: { url: unknown; eventos?: unknown },
): Promise<{ created: boolean; webhook: WebhookResource }> {
  // The channel's own inbox URL on any address (one issued before PORT or
  // PUBLIC_BASE_URL changed) is its inbox, delivered in-process: no network rule applies.
  const named = await inboxNamedBy(deps, input.url);
  const check = validateWebhookUrl(input.url, {
    allowInsecure: deps.config.allowInsecureWebhooks,
    inboxBaseUrl: deps.config.publicBaseUrl,
    ownInbox: named?.isInboxUrl === true && named.owner === channelId,
  });
  if (!check.ok) {
    const hint = deps.config.ambiente === 'SANDBOX' && looksLocal(input.url) ? ` ${LOCAL_RECEIVER_HINT}` : '';
    throw badRequest('url_invalida', check.message + hint);
  }
  refuseOtherInbox(channelId, named);
  const eventos = validateEventos(input.eventos);
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  const { created, row } = await upsertWebhook(deps.database.db, {
    channel_id: channelId,
    url: input.url as string,
    eventos,
    secret_sealed: deps.keys.seal(secret),
    previous_secret_sealed: null,
    previous_valid_until: null,
    criado_em: now,
    atualizado_em: now,
  });
  return { created, webhook: toWebhookResource(deps, row, created ? secret : undefined) };
}

export async function findWebhook(deps: Pick<Context, 'database'>, channelId: string): Promise<WebhookRow | undefined> {
  return findWebhookRow(deps.database.db, channelId);
}

export async function requireWebhook(deps: Pick<Context, 'database'>, channelId: string): Promise<WebhookRow> {
  const row = await findWebhook(deps, channelId);
  if (!row) throw noWebhook();
  return row;
}

/** Removes the webhook and its pending deliveries; delivered and failed history stays. */
export async function deleteWebhook(deps: Pick<Context, 'database'>, channelId: string): Promise<void> {
  if (!(await deleteWebhookRow(deps.database.db, channelId))) throw noWebhook();
}

/** New secret now; the previous one keeps working for 24 hours (only the newest previous). */
export async function rotateSecret(deps: Deps, channelId: string): Promise<WebhookResource> {
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  const row = await replaceSecret(deps.database.db, channelId, {
    secretSealed: deps.keys.seal(secret),
    previousValidUntil: addSeconds(now, PREVIOUS_SECRET_SECONDS),
    now,
  });
  if (!row) throw noWebhook();
  return toWebhookResource(deps, row, secret);
}
