// Receiving webhooks: signature verification over the raw body, and a ready
// listener for Node's http module (and Express, which calls it the same way).
//
// X-Service-Signature: `t=<unix>,v1=<hex>[,v1=<hex>]`. Each v1 is HMAC-SHA256,
// lowercase hex, of `<t>.<raw body>` keyed with the whole secret text (`whsec_…`,
// prefix included). During a secret rotation there is one v1 per valid secret.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebhookSignatureError } from './errors.ts';
import type { ConsignaEvent } from './types.ts';

export const SIGNATURE_HEADER = 'x-service-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyOptions {
  /** Largest accepted difference between `t` and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The receiver's "now": a Date or epoch milliseconds (default: the system clock). */
  now?: Date | number;
}

type RawBody = string | Uint8Array;
type HeaderValue = string | string[] | null | undefined;

/**
 * Verifies a delivery and returns its event. Pass the body exactly as received (bytes
 * or text, before any JSON parsing), the `X-Service-Signature` header and the
 * webhook's secrets (both while a rotation lasts). Throws WebhookSignatureError with
 * a `reason`: `missing_header`, `malformed_header`, `no_matching_signature` or
 * `timestamp_outside_tolerance`.
 */
export function verifyWebhook<E extends ConsignaEvent = ConsignaEvent>(
  rawBody: RawBody,
  header: HeaderValue,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): E {
  const body =
    typeof rawBody === 'string'
      ? Buffer.from(rawBody, 'utf8')
      : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const list = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((secret) => secret !== '');
  if (list.length === 0) throw new TypeError('verifyWebhook: informe ao menos um segredo (whsec_…)');
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined || value === null || value.trim() === '') {
    throw new WebhookSignatureError('missing_header', 'Cabeçalho X-Service-Signature ausente.');
  }
  const parsed = parseSignatureHeader(value);
  if (!parsed) {
    throw new WebhookSignatureError('malformed_header', 'Cabeçalho X-Service-Signature malformado: esperado t=<unix>,v1=<hex>.');
  }

  // Every pair is compared, matched or not: the time taken does not say which one matched.
  let matched = false;
  const prefix = Buffer.from(`${parsed.timestamp}.`, 'utf8');
  for (const secret of list) {
    const expected = createHmac('sha256', secret).update(prefix).update(body).digest();
    for (const candidate of parsed.signatures) if (timingSafeEqual(expected, candidate)) matched = true;
  }
  if (!matched) {
    throw new WebhookSignatureError(
      'no_matching_signature',
      'Nenhuma assinatura v1 confere com os segredos informados (segredo errado ou corpo alterado).',
    );
  }

  const nowMs = options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  const skew = Math.round(nowMs / 1000) - parsed.timestamp;
  if (Math.abs(skew) > tolerance) {
    throw new WebhookSignatureError(
      'timestamp_outside_tolerance',
      `Timestamp da assinatura fora da tolerância de ${tolerance} s (${skew > 0 ? `${skew} s no passado` : `${-skew} s no futuro`}).`,
    );
  }
  return JSON.parse(body.toString('utf8')) as E;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** `t` once, numeric; at least one 64-hex `v1`; other schemes (`v0=…`) ignored. */
function parseSignatureHeader(header: string): { timestamp: number; signatures: Buffer[] } | undefined {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) return undefined;
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!HEX_SHA256.test(value)) return undefined;
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

// ---- Node http / Express ----

export interface ReadRawBodyOptions {
  /** Largest body accepted, in bytes (default 1 MiB). */
  limitBytes?: number;
}

/** Thrown by readRawBody; `status` is the answer to give (400 or 413). */
export class RawBodyError extends Error {
  override readonly name: string = 'RawBodyError';
  readonly status: 400 | 413;
  constructor(status: 400 | 413, message: string) {
    super(message);
    this.status = status;
  }
}

type RequestWithBody = IncomingMessage & { body?: unknown; rawBody?: unknown };

/**
 * The request body exactly as received. Uses what a framework already captured as
 * bytes or text (`express.raw()`, `express.text()`, a `rawBody` property); refuses a
 * body some middleware already turned into an object, since its bytes are lost.
 */
export async function readRawBody(req: RequestWithBody, options: ReadRawBodyOptions = {}): Promise<Buffer> {
  const limit = options.limitBytes ?? 1024 * 1024;
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
  if (typeof req.rawBody === 'string') return Buffer.from(req.rawBody, 'utf8');
  if (Buffer.isBuffer(req.body)) return req.body;
  if (typeof req.body === 'string') return Buffer.from(req.body, 'utf8');
  if (req.body !== undefined || req.readableEnded) {
    throw new RawBodyError(
      400,
      'O corpo já foi lido por outro middleware (por exemplo express.json()): use express.raw({ type: "application/json" }) nesta rota.',
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > limit) {
      req.resume();
      throw new RawBodyError(413, `Corpo acima de ${limit} bytes.`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export interface DeliveryInfo {
  /** `X-Service-Event-Id` (equal to the event `id`). */
  eventId: string | undefined;
  /** `X-Service-Delivery-Attempt`, 1 to 7. */
  attempt: number | undefined;
  rawBody: Buffer;
}

export interface WebhookHandlerOptions {
  /** Current secret, plus the previous one during a rotation; or a function read on every request. */
  secrets: string | readonly string[] | (() => string | readonly string[] | Promise<string | readonly string[]>);
  /** Called once per verified delivery; answer comes after it resolves. Deduplicate by `event.id`. */
  onEvent: (event: ConsignaEvent, delivery: DeliveryInfo) => void | Promise<void>;
  /** Called when onEvent (or a secrets function) throws: the answer is then 500 and the service tries again later. */
  onError?: (error: unknown, req: IncomingMessage) => void;
  toleranceSeconds?: number;
  limitBytes?: number;
}

/**
 * A `(req, res)` listener for `http.createServer` or an Express route: 400 for a
 * missing or malformed signature header (or an unreadable body), 401 for a signature
 * that does not match or a timestamp outside the tolerance, 200 after onEvent, 500
 * if onEvent throws. Answer within 10 seconds: queue slow work instead of doing it here.
 */
export function createWebhookHandler(
  options: WebhookHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  // Never rejects: node:http ignores a listener's promise, so an error left to escape
  // would be an unhandled rejection, which ends the process.
  return async (req, res) => {
    try {
      await handle(options, req, res);
    } catch (error) {
      options.onError?.(error, req);
      answer(res, 500, { erro: 'Falha ao processar o evento.' });
    }
  };
}

async function handle(options: WebhookHandlerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return answer(res, 405, { erro: 'Use POST.' }, { allow: 'POST' });
  let rawBody: Buffer;
  try {
    rawBody = await readRawBody(req, { limitBytes: options.limitBytes });
  } catch (error) {
    if (error instanceof RawBodyError) return answer(res, error.status, { erro: error.message });
    // The sender went away mid-body: nobody is left to answer.
    return answer(res, 400, { erro: 'Corpo incompleto.' });
  }
  let event: ConsignaEvent;
  try {
    const secrets = typeof options.secrets === 'function' ? await options.secrets() : options.secrets;
    event = verifyWebhook(rawBody, req.headers[SIGNATURE_HEADER], secrets, { toleranceSeconds: options.toleranceSeconds });
  } catch (error) {
    if (error instanceof WebhookSignatureError) return answer(res, error.status, { erro: error.message, motivo: error.reason });
    if (error instanceof SyntaxError) return answer(res, 400, { erro: 'Corpo não é JSON.' });
    throw error;
  }
  const attempt = Number(header(req, 'x-service-delivery-attempt'));
  await options.onEvent(event, {
    eventId: header(req, 'x-service-event-id'),
    attempt: Number.isInteger(attempt) && attempt > 0 ? attempt : undefined,
    rawBody,
  });
  answer(res, 200, { recebido: true });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function answer(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
}
