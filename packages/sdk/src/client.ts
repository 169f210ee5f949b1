// The Consigna API client: one access token shared by every call until shortly
// before it expires, typed methods for every endpoint, and bounded retries that
// reuse the same Idempotency-Key so that a retried link creation never creates a
// second link.
import { randomUUID } from 'node:crypto';
import { ConsignaConnectionError, ConsignaError, ConsignaOAuthError } from './errors.ts';
import type {
  CreateLinkInput,
  CreatedLink,
  DeliveryList,
  Delivery,
  DeliveryWithAttempts,
  EnsureInboxInput,
  Inbox,
  InboxEvents,
  InboxResponderStatus,
  Link,
  LinkList,
  ListLinksQuery,
  Funnel,
  FunnelQuery,
  Brand,
  PutBrandInput,
  CreatePortalSessionInput,
  PortalSession,
  RevokedPortalSessions,
  EventList,
  ListDeliveriesQuery,
  ListEventsQuery,
  Ping,
  PutWebhookInput,
  RecoverDeliveriesInput,
  RecoveryResult,
  RetrySchedule,
  SimulatedStatus,
  SimulationResult,
  StoredEvent,
  TestEventResult,
  TokenResponse,
  Webhook,
  WebhookWithSecret,
} from './types.ts';

export interface ConsignaOptions {
  /** Origin of the service, e.g. `https://sandbox.consigna.example` or `http://localhost:3000`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Retries after a 503, a network error or a timeout (default 2, so at most 3 requests). 0 turns retries off. */
  maxRetries?: number;
  /**
   * Longest wait before a retry, in ms (default 30 000). A `Retry-After` above it is not
   * waited for: the error is thrown at once with `retryAfter` set, for you to schedule.
   */
  maxRetryDelayMs?: number;
  /** First backoff step when the answer has no `Retry-After`, in ms (default 500; doubles each retry). */
  retryBaseDelayMs?: number;
  /** Timeout of each request, in ms (default 30 000). */
  timeoutMs?: number;
  /** Renew the token this many seconds before it expires (default 60; at most half its lifetime). */
  tokenRefreshMarginSeconds?: number;
  /** A fetch implementation (default: the global fetch). Useful for proxies, logging or tests. */
  fetch?: typeof fetch;
  /** Called before each retry (logging, metrics). */
  onRetry?: (info: RetryInfo) => void;
  userAgent?: string;
}

export interface RetryInfo {
  method: string;
  path: string;
  /** Number of the request about to be made (2 for the first retry). */
  attempt: number;
  delayMs: number;
  /** HTTP status that caused the retry; undefined after a network error or timeout. */
  status: number | undefined;
  error: unknown;
  idempotencyKey: string | undefined;
}

export interface CallOptions {
  /** Cancels the call (and its retries). */
  signal?: AbortSignal;
  /** Overrides `timeoutMs` for this call. */
  timeoutMs?: number;
}

export interface CreateLinkOptions extends CallOptions {
  /**
   * 8 to 100 characters: letters, digits and `_ . : -`. Use your own order id so that
   * a repeat after a crash returns the same link. Default: a new UUID per call, reused
   * by this call's retries.
   */
  idempotencyKey?: string;
}

/**
 * How a request may be repeated:
 * - `always`: idempotent (GET, PUT of the inbox, keyed link creation): after a 502/503/504, a network error or a timeout.
 * - `unavailable`: only after a 503 (the service did nothing). A lost answer is never
 *   repeated, because the repeat would not be the same: a second PUT /v1/webhooks would
 *   not show the secret again, a second rotation would drop the secret your receiver still uses.
 */
type RetryPolicy = 'always' | 'unavailable';

interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  /** Sends the access token (default true). */
  auth?: boolean;
  retry: RetryPolicy;
  idempotencyKey?: string | undefined;
  call?: CallOptions | undefined;
  /** The answer is the body's bytes, not JSON. */
  bytes?: boolean;
}

interface CachedToken {
  value: string;
  /** Epoch ms after which it is renewed. */
  renewAt: number;
}

const USER_AGENT = 'consigna-sdk-node/0.1.0';

export class Consigna {
  readonly baseUrl: string;
  readonly #clientId: string;
  readonly #clientSecret: string;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;
  readonly #maxRetryDelayMs: number;
  readonly #retryBaseDelayMs: number;
  readonly #timeoutMs: number;
  readonly #refreshMarginSeconds: number;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;
  readonly #userAgent: string;
  #token: CachedToken | undefined;
  #pendingToken: Promise<CachedToken> | undefined;

  constructor(options: ConsignaOptions) {
    if (!options?.baseUrl) throw new TypeError('Consigna: baseUrl é obrigatório');
    if (!options.clientId || !options.clientSecret) throw new TypeError('Consigna: clientId e clientSecret são obrigatórios');
    this.baseUrl = new URL(options.baseUrl).origin + new URL(options.baseUrl).pathname.replace(/\/+$/, '');
    this.#clientId = options.clientId;
    this.#clientSecret = options.clientSecret;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#maxRetries = Math.max(0, options.maxRetries ?? 2);
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.#retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#refreshMarginSeconds = options.tokenRefreshMarginSeconds ?? 60;
    this.#onRetry = options.onRetry;
    this.#userAgent = options.userAgent ?? USER_AGENT;
  }

  // ---- Authentication ----

  /**
   * The current access token, requested only when there is none or it is about to
   * expire. Concurrent calls share one token request.
   */
  async getAccessToken(options?: CallOptions): Promise<string> {
    if (this.#token && Date.now() < this.#token.renewAt) return this.#token.value;
    this.#pendingToken ??= this.#requestToken(options).finally(() => {
      this.#pendingToken = undefined;
    });
    return (await this.#pendingToken).value;
  }

  /** Forgets the cached token: the next call requests a new one. */
  clearToken(): void {
    this.#token = undefined;
  }

  async #requestToken(options: CallOptions | undefined): Promise<CachedToken> {
    const requestedAt = Date.now();
    const response = await this.#send<TokenResponse>({
      method: 'POST',
      path: '/v1/oauth/token',
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
      auth: false,
      retry: 'always',
      call: options,
    });
    const lifetime = response.expires_in;
    const margin = Math.min(this.#refreshMarginSeconds, lifetime / 2);
    const token = { value: response.access_token, renewAt: requestedAt + (lifetime - margin) * 1000 };
    this.#token = token;
    return token;
  }

  // ---- Channel ----

  /** `GET /v1/ping`: the token is valid and the channel active. */
  ping(options?: CallOptions): Promise<Ping> {
    return this.#send({ method: 'GET', path: '/v1/ping', retry: 'always', call: options });
  }

  // ---- Links ----

  /**
   * `POST /v1/links`. Retried with the same Idempotency-Key after a 503 (for example
   * `banco_indisponivel`), a network error or a timeout: never two links for one call.
   */
  createLink(input: CreateLinkInput, options?: CreateLinkOptions): Promise<CreatedLink> {
    return this.#send({
      method: 'POST',
      path: '/v1/links',
      body: input,
      retry: 'always',
      idempotencyKey: options?.idempotencyKey ?? randomUUID(),
      call: options,
    });
  }

  /** `GET /v1/links/{id}`: link and proposal, never with `url`. */
  getLink(id: string, options?: CallOptions): Promise<Link> {
    return this.#send({ method: 'GET', path: `/v1/links/${encodeURIComponent(id)}`, retry: 'always', call: options });
  }

  /** Sandbox only: `POST /v1/links/{id}/proposta/simular`, as if the bank reported `status`. */
  simulateProposal(linkId: string, status: SimulatedStatus, options?: CallOptions): Promise<SimulationResult> {
    // Repeating it is harmless: the same status again answers `alterado: false`.
    return this.#send({
      method: 'POST',
      path: `/v1/links/${encodeURIComponent(linkId)}/proposta/simular`,
      body: { status },
      retry: 'always',
      call: options,
    });
  }

  /**
   * Sandbox only: `POST /v1/links/{id}/jornada/simular`, the customer's journey up to the
   * proposal without a browser (the CPF scenarios play out as on the hosted pages).
   * Answers with the link as it then stands. Once the proposal exists, a new call is
   * refused with `jornada_concluida` (409): it never makes a second proposal.
   */
  simulateJourney(linkId: string, options?: CallOptions): Promise<Link> {
    return this.#send({
      method: 'POST',
      path: `/v1/links/${encodeURIComponent(linkId)}/jornada/simular`,
      retry: 'always',
      call: options,
    });
  }

  /**
   * Sandbox only: `POST /v1/links/{id}/expiracao/simular`, the link expires now, as when
   * `expiraEm` passes (no event). Only a link in CRIADO, ABERTO or EM_ANDAMENTO expires:
   * otherwise 409 `link_expirado`, `link_finalizado` or `jornada_concluida`.
   */
  simulateExpiry(linkId: string, options?: CallOptions): Promise<Link> {
    // A lost answer is not repeated: the repeat would answer 409 link_expirado.
    return this.#send({
      method: 'POST',
      path: `/v1/links/${encodeURIComponent(linkId)}/expiracao/simular`,
      retry: 'unavailable',
      call: options,
    });
  }

  /**
   * `GET /v1/links`: the channel's links, newest first, as `getLink` returns them (never
   * with `url`). Pass `proximoCursor` back as `cursor` for the next (older) page; a page
   * may hold fewer than `limite` links and still have one.
   */
  listLinks(query: ListLinksQuery = {}, options?: CallOptions): Promise<LinkList> {
    return this.#send({ method: 'GET', path: '/v1/links', query, retry: 'always', call: options });
  }

  /** Every link matching `query`, newest first, page by page (`limite` per request). */
  async *links(query: Omit<ListLinksQuery, 'cursor'> = {}, options?: CallOptions): AsyncGenerator<Link> {
    let cursor: string | undefined;
    do {
      const page = await this.listLinks({ ...query, ...(cursor ? { cursor } : {}) }, options);
      yield* page.links;
      cursor = page.proximoCursor;
    } while (cursor);
  }

  /**
   * `GET /v1/relatorios/funil`: how far the links created from day `de` to day `ate`
   * (`AAAA-MM-DD`, São Paulo days, both included) got, by day or by `referenciaExterna`.
   */
  getFunnel(query: FunnelQuery, options?: CallOptions): Promise<Funnel> {
    return this.#send({ method: 'GET', path: '/v1/relatorios/funil', query, retry: 'always', call: options });
  }

  // ---- Events ----

  /**
   * `GET /v1/eventos`: the channel's proposal events, newest first (the bodies the
   * webhooks carry). Pass `proximoCursor` back as `cursor` for the next (older) page.
   */
  listEvents(query: ListEventsQuery = {}, options?: CallOptions): Promise<EventList> {
    return this.#send({ method: 'GET', path: '/v1/eventos', query, retry: 'always', call: options });
  }

  /** `GET /v1/eventos/{id}`: one event's body (as signed). */
  getEvent(id: string, options?: CallOptions): Promise<StoredEvent> {
    return this.#send({ method: 'GET', path: `/v1/eventos/${encodeURIComponent(id)}`, retry: 'always', call: options });
  }

  /** Every event matching `query`, newest first, page by page (`limite` per request). */
  async *events(query: Omit<ListEventsQuery, 'cursor'> = {}, options?: CallOptions): AsyncGenerator<StoredEvent> {
    let cursor: string | undefined;
    do {
      const page = await this.listEvents({ ...query, ...(cursor ? { cursor } : {}) }, options);
      yield* page.eventos as StoredEvent[];
      cursor = page.proximoCursor;
    } while (cursor);
  }

  // ---- Brand ----

  /** `PUT /v1/marca`: the name, logo (base64 of a PNG, JPEG or WebP) and colour the customer sees on every page. */
  putBrand(input: PutBrandInput, options?: CallOptions): Promise<Brand> {
    return this.#send({ method: 'PUT', path: '/v1/marca', body: input, retry: 'unavailable', call: options });
  }

  /** `GET /v1/marca`. */
  getBrand(options?: CallOptions): Promise<Brand> {
    return this.#send({ method: 'GET', path: '/v1/marca', retry: 'always', call: options });
  }

  /** `DELETE /v1/marca`: the pages go back to the channel's name and the default colours. */
  async deleteBrand(options?: CallOptions): Promise<void> {
    await this.#send({ method: 'DELETE', path: '/v1/marca', retry: 'unavailable', call: options });
  }

  // ---- Portal ----

  /**
   * `POST /v1/portal/sessoes`: a single-use link (10 minutes) into the channel's portal,
   * for someone of your team. `url` is a secret: hand it only to whoever uses it.
   */
  createPortalSession(input: CreatePortalSessionInput = {}, options?: CallOptions): Promise<PortalSession> {
    return this.#send({ method: 'POST', path: '/v1/portal/sessoes', body: input, retry: 'unavailable', call: options });
  }

  /** `DELETE /v1/portal/sessoes`: ends every portal session of the channel; unused links stop working. */
  revokePortalSessions(options?: CallOptions): Promise<RevokedPortalSessions> {
    return this.#send({ method: 'DELETE', path: '/v1/portal/sessoes', retry: 'unavailable', call: options });
  }

  // ---- Webhook ----

  /** `PUT /v1/webhooks`: on creation the answer carries `segredo`, shown only this once. */
  putWebhook(input: PutWebhookInput, options?: CallOptions): Promise<Webhook> {
    return this.#send({ method: 'PUT', path: '/v1/webhooks', body: input, retry: 'unavailable', call: options });
  }

  /** `GET /v1/webhooks` (never with the secret). */
  getWebhook(options?: CallOptions): Promise<Webhook> {
    return this.#send({ method: 'GET', path: '/v1/webhooks', retry: 'always', call: options });
  }

  /** `DELETE /v1/webhooks`: removes the webhook and its pending deliveries. */
  async deleteWebhook(options?: CallOptions): Promise<void> {
    await this.#send({ method: 'DELETE', path: '/v1/webhooks', retry: 'unavailable', call: options });
  }

  /** `POST /v1/webhooks/segredo`: a new secret (shown once); the previous one stays valid for 24 h. */
  rotateWebhookSecret(options?: CallOptions): Promise<WebhookWithSecret> {
    return this.#send({ method: 'POST', path: '/v1/webhooks/segredo', retry: 'unavailable', call: options });
  }

  /** `POST /v1/webhooks/teste`: sends a signed `webhook.teste` now and reports how your endpoint answered. */
  sendTestEvent(options?: CallOptions): Promise<TestEventResult> {
    return this.#send({ method: 'POST', path: '/v1/webhooks/teste', retry: 'unavailable', call: options });
  }

  /** `GET /v1/webhooks/entregas`: latest deliveries first. */
  listDeliveries(query: ListDeliveriesQuery = {}, options?: CallOptions): Promise<DeliveryList> {
    return this.#send({ method: 'GET', path: '/v1/webhooks/entregas', query, retry: 'always', call: options });
  }

  /** Every delivery matching `query`, newest first, page by page (`limite` per request). */
  async *deliveries(query: Omit<ListDeliveriesQuery, 'cursor'> = {}, options?: CallOptions): AsyncGenerator<Delivery> {
    let cursor: string | undefined;
    do {
      const page = await this.listDeliveries({ ...query, ...(cursor ? { cursor } : {}) }, options);
      yield* page.entregas;
      cursor = page.proximoCursor;
    } while (cursor);
  }

  /**
   * `GET /v1/webhooks/entregas/{id}`: the delivery with every attempt (its number in its series and in the whole
   * history, its series, status, latency, error, start of the response body).
   */
  getDelivery(deliveryId: string, options?: CallOptions): Promise<DeliveryWithAttempts> {
    return this.#send({
      method: 'GET',
      path: `/v1/webhooks/entregas/${encodeURIComponent(deliveryId)}`,
      retry: 'always',
      call: options,
    });
  }

  /**
   * `POST /v1/webhooks/entregas/{id}/reenviar` (deliveries `FALHOU` or `ENTREGUE`): a new series, so `tentativas`
   * restarts while `tentativasTotais` keeps counting.
   */
  resendDelivery(deliveryId: string, options?: CallOptions): Promise<Delivery> {
    return this.#send({
      method: 'POST',
      path: `/v1/webhooks/entregas/${encodeURIComponent(deliveryId)}/reenviar`,
      retry: 'unavailable',
      call: options,
    });
  }

  /**
   * `POST /v1/webhooks/entregas/reenviar`: every `FALHOU` delivery (or those of events
   * between `desde` and `ate`) back to the queue, oldest first; answers how many.
   * Repeating it requeues nothing already pending.
   */
  recoverDeliveries(input: RecoverDeliveriesInput = { status: 'FALHOU' }, options?: CallOptions): Promise<RecoveryResult> {
    return this.#send({ method: 'POST', path: '/v1/webhooks/entregas/reenviar', body: input, retry: 'always', call: options });
  }

  /**
   * Sandbox only: `POST /v1/webhooks/retentativas/simular`, every retry of the channel's
   * deliveries waits `intervaloSegundos` (1 to 60) instead of the standard schedule, so a
   * delivery reaches `FALHOU` within a minute; `null` restores the standard schedule.
   * Answers the delays in force.
   */
  simulateRetries(intervaloSegundos: number | null, options?: CallOptions): Promise<RetrySchedule> {
    return this.#send({
      method: 'POST',
      path: '/v1/webhooks/retentativas/simular',
      body: { intervaloSegundos },
      retry: 'always',
      call: options,
    });
  }

  // ---- Sandbox test inbox ----

  /** `PUT /v1/sandbox/receptor`: creates the channel's inbox or returns it (always the same URL). */
  ensureInbox(input: EnsureInboxInput = {}, options?: CallOptions): Promise<Inbox> {
    return this.#send({ method: 'PUT', path: '/v1/sandbox/receptor', body: input, retry: 'always', call: options });
  }

  /**
   * `PUT /v1/sandbox/receptor/{token}/modo`: the status the inbox answers with (to provoke
   * retries). `inbox` is the inbox, its `url`, its `visualizacaoUrl` or the `sbx_` token.
   */
  async setInboxStatus(
    inbox: Inbox | string,
    responderStatus: InboxResponderStatus,
    options?: CallOptions,
  ): Promise<InboxResponderStatus> {
    const result = await this.#send<{ responderStatus: InboxResponderStatus }>({
      method: 'PUT',
      path: `/v1/sandbox/receptor/${encodeURIComponent(inboxToken(inbox))}/modo`,
      body: { responderStatus },
      auth: false,
      retry: 'always',
      call: options,
    });
    return result.responderStatus;
  }

  /** `GET /v1/sandbox/receptor/{token}/eventos`: what the inbox received, newest first (50 at most). */
  listInboxEvents(inbox: Inbox | string, options?: CallOptions): Promise<InboxEvents> {
    return this.#send({
      method: 'GET',
      path: `/v1/sandbox/receptor/${encodeURIComponent(inboxToken(inbox))}/eventos`,
      auth: false,
      retry: 'always',
      call: options,
    });
  }

  /**
   * `GET /v1/sandbox/receptor/{token}/eventos/{id}/corpo`: the exact bytes one received
   * event arrived with (the viewer shows only a preview of each body).
   */
  getInboxEventBody(inbox: Inbox | string, id: number, options?: CallOptions): Promise<Uint8Array> {
    return this.#send({
      method: 'GET',
      path: `/v1/sandbox/receptor/${encodeURIComponent(inboxToken(inbox))}/eventos/${id}/corpo`,
      auth: false,
      retry: 'always',
      call: options,
      bytes: true,
    });
  }

  /** `DELETE /v1/sandbox/receptor/eventos`: deletes what the channel's inbox received. */
  async clearInbox(options?: CallOptions): Promise<void> {
    await this.#send({ method: 'DELETE', path: '/v1/sandbox/receptor/eventos', retry: 'always', call: options });
  }

  // ---- Transport ----

  async #send<T>(spec: RequestSpec): Promise<T> {
    const isToken = spec.path === '/v1/oauth/token';
    let renewedToken = false;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#userAgent };
      let usedCachedToken = false;
      if (isToken) {
        headers.authorization = `Basic ${Buffer.from(`${this.#clientId}:${this.#clientSecret}`).toString('base64')}`;
      } else if (spec.auth !== false) {
        usedCachedToken = this.#token !== undefined && Date.now() < this.#token.renewAt;
        headers.authorization = `Bearer ${await this.getAccessToken(spec.call)}`;
      }
      if (spec.idempotencyKey) headers['idempotency-key'] = spec.idempotencyKey;
      let body: string | undefined;
      if (spec.body instanceof URLSearchParams) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = spec.body.toString();
      } else if (spec.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(spec.body);
      }

      let response: Response;
      try {
        response = await this.#fetch(this.#url(spec), { method: spec.method, headers, body, signal: this.#signal(spec.call) });
      } catch (error) {
        if (spec.call?.signal?.aborted) throw error;
        const delayMs = this.#backoff(attempt);
        if (spec.retry === 'always' && attempt <= this.#maxRetries) {
          await this.#beforeRetry(spec, attempt, delayMs, undefined, error);
          continue;
        }
        throw new ConsignaConnectionError(`${spec.method} ${spec.path}: sem resposta do serviço (${describe(error)})`, {
          cause: error,
          idempotencyKey: spec.idempotencyKey,
          attempts: attempt,
        });
      }

      if (response.ok) {
        if (response.status === 204) return undefined as T;
        if (spec.bytes) return new Uint8Array(await response.arrayBuffer()) as T;
        const text = await response.text();
        return (text ? JSON.parse(text) : undefined) as T;
      }

      const error = await toError(response, isToken, spec.idempotencyKey, attempt);

      // A token that expired or was revoked before our clock says so: renew once.
      if (response.status === 401 && usedCachedToken && !renewedToken && !isToken) {
        renewedToken = true;
        this.#token = undefined;
        attempt -= 1;
        continue;
      }

      if (attempt <= this.#maxRetries && retryable(response.status, error.code, spec.retry)) {
        const delayMs = error.retryAfter !== undefined ? error.retryAfter * 1000 : this.#backoff(attempt);
        if (delayMs <= this.#maxRetryDelayMs) {
          await this.#beforeRetry(spec, attempt, delayMs, response.status, error);
          continue;
        }
      }
      throw error;
    }
  }

  async #beforeRetry(
    spec: RequestSpec,
    attempt: number,
    delayMs: number,
    status: number | undefined,
    error: unknown,
  ): Promise<void> {
    this.#onRetry?.({
      method: spec.method,
      path: spec.path,
      attempt: attempt + 1,
      delayMs,
      status,
      error,
      idempotencyKey: spec.idempotencyKey,
    });
    await sleep(delayMs, spec.call?.signal);
  }

  #backoff(attempt: number): number {
    const step = Math.min(this.#maxRetryDelayMs, this.#retryBaseDelayMs * 2 ** (attempt - 1));
    return Math.round(step / 2 + (Math.random() * step) / 2);
  }

  #url(spec: RequestSpec): string {
    const url = new URL(this.baseUrl + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    return url.toString();
  }

  #signal(call: CallOptions | undefined): AbortSignal {
    const timeout = AbortSignal.timeout(call?.timeoutMs ?? this.#timeoutMs);
    return call?.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  }
}

/** The `sbx_` token of an inbox, from the inbox itself, one of its URLs or the token. */
export function inboxToken(inbox: Inbox | string): string {
  const value = typeof inbox === 'string' ? inbox : inbox.url;
  const token = value.split(/[/?#]/).find((segment) => segment.startsWith('sbx_'));
  if (!token) throw new TypeError('receptor de testes: informe o receptor, sua url, sua visualizacaoUrl ou o token sbx_…');
  return token;
}

function retryable(status: number, code: string, policy: RetryPolicy): boolean {
  if (status === 503) return true;
  if (policy !== 'always') return false;
  // The first call with this key is still running: the repeat gets its result.
  if (status === 409 && code === 'idempotency_key_em_uso') return true;
  return status === 502 || status === 504;
}

async function toError(
  response: Response,
  oauth: boolean,
  idempotencyKey: string | undefined,
  attempts: number,
): Promise<ConsignaError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): kept as text.
  }
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const requestId = str(fields.requestId) ?? response.headers.get('x-request-id') ?? undefined;
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  if (oauth && typeof fields.error === 'string') {
    const errorDescription = str(fields.error_description) ?? '';
    return new ConsignaOAuthError({
      status: response.status,
      code: fields.error,
      message: errorDescription || fields.error,
      errorDescription,
      requestId,
      retryAfter,
      attempts,
      body,
    });
  }
  return new ConsignaError({
    status: response.status,
    code: str(fields.code) ?? `http_${response.status}`,
    message: str(fields.message) ?? `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
    requestId,
    retryAfter,
    idempotencyKey,
    attempts,
    body,
  });
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date. */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${(error.cause as NodeJS.ErrnoException).code ?? error.cause.message}` : '';
    return `${error.name === 'TimeoutError' ? 'tempo esgotado' : error.message}${cause}`;
  }
  return String(error);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
