// `listen`: forwards the sandbox's webhooks to a URL on the developer's machine.
// The channel's test inbox is made the registered webhook; its Server-Sent Events
// stream (GET /v1/sandbox/receptor/{token}/eventos/fluxo) pushes each event as the
// inbox receives it, with the exact bytes and headers the service signed; each is
// POSTed to the local URL unchanged, so the developer's code verifies it with the
// channel's real webhook secret. A dropped stream reconnects with Last-Event-ID, and
// the inbox's 50 newest events are replayed from there: nothing it kept is missed.
import { inboxToken, type Consigna } from './client.ts';
import { ConsignaError } from './errors.ts';
import type { Inbox, InboxEvent } from './types.ts';

/** One event as the stream carries it: the inbox's record plus the exact bytes received. */
export type StreamedEvent = InboxEvent & { corpoBase64: string };

export interface ForwardResult {
  event: StreamedEvent;
  /** Status the local server answered; undefined when it could not be reached. */
  status?: number;
  latencyMs: number;
  /** Why the local server could not be reached (pt-BR). */
  error?: string;
}

export interface ListenOptions {
  consigna: Consigna;
  /** The local URL each event is POSTed to, e.g. `http://localhost:4000/webhooks`. */
  forwardTo: string;
  /**
   * Asked before another URL registered as the channel's webhook is replaced by the
   * inbox. Without it, another URL is never replaced (an error is thrown instead).
   */
  confirmReplace?: (currentUrl: string) => Promise<boolean>;
  /** Each event after its forward. */
  onForward?: (result: ForwardResult) => void;
  /** Connection news, in pt-BR: connected, lost, reconnecting. */
  onStatus?: (message: string) => void;
  /**
   * A new webhook secret even when the inbox was already the webhook (the secret is
   * shown only when issued); the previous one stays valid for 24 h.
   */
  rotateSecret?: boolean;
  /** Timeout of each forward, in ms (default 10 000). */
  forwardTimeoutMs?: number;
  /**
   * The stream counts as lost after this long with no byte from the service (default
   * 45 000 ms: three of its 15 s pings). A connection that dies silently (a laptop's
   * network changed, a NAT forgot it) sends no FIN: without this it would wait forever.
   */
  idleTimeoutMs?: number;
  /** Stops listening. */
  signal?: AbortSignal;
  /** fetch for the stream and the forwards (default: the global fetch). */
  fetch?: typeof fetch;
}

export interface Listening {
  inbox: Inbox;
  /** The webhook secret, when this call issued one: it registered the webhook, or rotated the secret. */
  newSecret?: string;
  /** Settles when listening stops (the signal aborted). */
  done: Promise<void>;
}

/** Headers never forwarded: they describe the hop to the inbox, not the signed message. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'expect',
  'te',
  'upgrade',
  'accept-encoding',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
]);

/** The inbox registered as the webhook, then the stream followed until `signal` aborts. */
export async function listen(options: ListenOptions): Promise<Listening> {
  const { consigna } = options;
  const inbox = await consigna.ensureInbox();
  let newSecret = await ensureInboxIsWebhook(options, inbox);
  if (!newSecret && options.rotateSecret) newSecret = (await consigna.rotateWebhookSecret()).segredo;
  const done = follow(options, inbox);
  return { inbox, ...(newSecret ? { newSecret } : {}), done };
}

async function ensureInboxIsWebhook(options: ListenOptions, inbox: Inbox): Promise<string | undefined> {
  const current = await options.consigna.getWebhook().catch((error: unknown) => {
    if (error instanceof ConsignaError && error.status === 404) return undefined;
    throw error;
  });
  // The channel's inbox on a past address of the service (PORT or PUBLIC_BASE_URL changed
  // since it was registered) is still its inbox: the service knows it by its token.
  if (current && inboxPathToken(current.url) === inboxToken(inbox)) return undefined;
  if (current) {
    const replace = options.confirmReplace ? await options.confirmReplace(current.url) : false;
    if (!replace) {
      throw new Error(`O webhook do canal aponta para ${current.url}; nada foi alterado. Confirme a troca para usar o listen.`);
    }
  }
  const registered = await options.consigna.putWebhook({ url: inbox.url });
  return registered.segredo;
}

/** The token when `url` is an inbox URL (the inbox path and one token), on any host. */
function inboxPathToken(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const segments = new URL(url).pathname.split('/').filter((segment) => segment !== '');
  const [v1, sandbox, receptor, token] = segments;
  return segments.length === 4 && `${v1}/${sandbox}/${receptor}` === 'v1/sandbox/receptor' && token?.startsWith('sbx_')
    ? token
    : undefined;
}

async function follow(options: ListenOptions, inbox: Inbox): Promise<void> {
  const fetchImpl = options.fetch ?? fetch;
  const streamUrl = `${inbox.url}/eventos/fluxo`;
  const status = options.onStatus ?? (() => {});
  let lastId: string | undefined;
  let retryMs = 2000;
  let lost = false;
  const idleMs = options.idleTimeoutMs ?? 45_000;
  while (!options.signal?.aborted) {
    const connection = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, connection.signal]) : connection.signal;
    let idle: NodeJS.Timeout | undefined;
    const stillAlive = () => {
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(new Error(`nada recebido do serviço em ${Math.round(idleMs / 1000)} s`)), idleMs);
    };
    try {
      stillAlive();
      const response = await fetchImpl(streamUrl, {
        headers: { accept: 'text/event-stream', ...(lastId !== undefined ? { 'last-event-id': lastId } : {}) },
        signal,
      });
      if (!response.ok || !response.body) throw new Error(`o serviço respondeu ${response.status}`);
      status(lost ? 'reconectado: recebendo eventos de novo' : `recebendo eventos; encaminhando para ${options.forwardTo}`);
      lost = false;
      for await (const message of serverSentEvents(watched(response.body, stillAlive))) {
        if (message.retry !== undefined) retryMs = message.retry;
        if (message.id !== undefined) lastId = message.id;
        if (message.event === 'evento') {
          const result = await forward(options, JSON.parse(message.data) as StreamedEvent);
          options.onForward?.(result);
        }
      }
      throw new Error('o serviço encerrou a conexão');
    } catch (error) {
      if (options.signal?.aborted) return;
      const reason = connection.signal.aborted ? (connection.signal.reason as Error) : error;
      if (!lost) status(`conexão com o serviço perdida (${describe(reason)}); reconectando…`);
      lost = true;
      connection.abort();
      await sleep(retryMs, options.signal);
    } finally {
      clearTimeout(idle);
    }
  }
}

/** POSTs the event's exact bytes with the headers it was signed with. */
export async function forward(options: Pick<ListenOptions, 'forwardTo' | 'forwardTimeoutMs' | 'fetch'>, event: StreamedEvent) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers)) if (!HOP_HEADERS.has(name)) headers[name] = value;
  const started = performance.now();
  try {
    const response = await (options.fetch ?? fetch)(options.forwardTo, {
      method: 'POST',
      headers,
      body: Buffer.from(event.corpoBase64, 'base64'),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.forwardTimeoutMs ?? 10_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { event, status: response.status, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { event, latencyMs: Math.round(performance.now() - started), error: describe(error) };
  }
}

/** Attempts of one delivery (the guide's "Limites"): after the last, the delivery is FALHOU. */
const MAX_DELIVERY_ATTEMPTS = 7;

const isSuccess = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

/**
 * What Consigna recorded for this attempt, in pt-BR: the status the inbox answered
 * (`respondeuStatus`, the status it is configured to answer) and what follows from it.
 * That answer, not the local server's, decides whether Consigna tries again: the local
 * server only gets a copy. Undefined for what was posted to the inbox by hand (no
 * X-Service-Delivery-Attempt): no delivery of Consigna's.
 */
export function recordedAnswer(event: Pick<StreamedEvent, 'tipo' | 'tentativa' | 'respondeuStatus'>): string | undefined {
  if (event.tentativa === undefined) return undefined;
  const status = event.respondeuStatus;
  if (isSuccess(status)) return `Consigna registrou ${status}: entregue`;
  if (event.tipo === 'webhook.teste') return `Consigna registrou ${status}: falha (evento de teste: sem nova tentativa)`;
  return Number(event.tentativa) >= MAX_DELIVERY_ATTEMPTS
    ? `Consigna registrou ${status}: falha na última tentativa, entrega FALHOU`
    : `Consigna registrou ${status}: falha, haverá nova tentativa`;
}

/**
 * One line per event: time, type, attempt, the local answer and its latency, what
 * Consigna recorded for the attempt (the inbox's answer, which decides the retries),
 * a note when the two disagree, and a warning when the inbox could not verify the
 * signature. The event is forwarded all the same (the developer may be testing exactly
 * that), but the line must not read as a genuine delivery: the local code would reject
 * it, or worse, accept it.
 */
export function forwardLine(result: ForwardResult, at = new Date()): string {
  const { event, status, latencyMs, error } = result;
  const time = at.toTimeString().slice(0, 8);
  const answer = status !== undefined ? `${status}` : `falhou: ${error} (o servidor local está no ar?)`;
  const parts = [
    `${time}  ${event.tipo ?? '(sem tipo)'}  tentativa ${event.tentativa ?? '?'}  local → ${answer}  ${latencyMs} ms`,
  ];
  const recorded = recordedAnswer(event);
  if (recorded) {
    parts.push(`  |  ${recorded}`);
    if (isSuccess(status) !== isSuccess(event.respondeuStatus)) {
      parts.push(`  (vale a resposta do receptor de testes, configurado para ${event.respondeuStatus}, não a do seu servidor)`);
    }
  } else {
    parts.push(`  |  receptor respondeu ${event.respondeuStatus} (postado direto no receptor, não é uma entrega)`);
  }
  const warning = signatureWarning(event);
  if (warning) parts.push(`  ${warning}`);
  return parts.join('');
}

/** What the inbox said of the signature when it is not valid (pt-BR), or undefined when it is. */
export function signatureWarning(event: Pick<StreamedEvent, 'assinaturaValida' | 'motivo'>): string | undefined {
  if (event.assinaturaValida === true) return undefined;
  const verdict =
    event.assinaturaValida === false
      ? `assinatura INVÁLIDA: ${event.motivo ?? 'não confere com o segredo do webhook'}`
      : `assinatura NÃO VERIFICADA: ${event.motivo ?? 'motivo não informado'}`;
  return `⚠ ${verdict} (encaminhado mesmo assim; seu servidor deve recusá-lo)`;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
  if (cause === 'ECONNREFUSED') return 'conexão recusada';
  if (cause === 'ENOTFOUND') return 'nome não encontrado';
  if (cause === 'ECONNRESET' || cause === 'UND_ERR_SOCKET') return 'conexão interrompida';
  if ((error as Error)?.name === 'TimeoutError') return 'tempo esgotado';
  return (error as Error)?.message ?? String(error);
}

interface Message {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

/** The body's chunks, calling `onChunk` as each arrives (the idle watchdog). */
async function* watched(body: ReadableStream<Uint8Array>, onChunk: () => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    onChunk();
    yield chunk;
  }
}

/** The messages of a text/event-stream body (WHATWG HTML, "Server-sent events"). */
export async function* serverSentEvents(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<Message> {
  const decoder = new TextDecoder();
  let buffer = '';
  let message: Message = { event: 'message', data: '' };
  let hasData = false;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A lone CR at the end may be the first half of a CRLF still to come.
      if (buffer[newline] === '\r' && newline === buffer.length - 1) break;
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (hasData || message.id !== undefined || message.retry !== undefined) yield message;
        message = { event: 'message', data: '' };
        hasData = false;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') message.event = value;
      else if (field === 'data') {
        message.data = hasData ? `${message.data}\n${value}` : value;
        hasData = true;
      } else if (field === 'id' && !value.includes('\0')) message.id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) message.retry = Number(value);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
