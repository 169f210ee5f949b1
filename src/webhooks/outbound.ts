// The one HTTP client that talks to channels' webhook endpoints. The name is resolved
// here, every address is checked, and the socket is pinned to the checked addresses
// through a `lookup` that never asks DNS again: a name that re-resolves to 127.0.0.1
// between our check and the connect (DNS rebinding) cannot reach it.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import { Pool, type Dispatcher } from 'undici';
import { forbiddenAddressReason, isLoopbackAddress } from './address-policy.ts';

export interface OutboundResult {
  /** 2xx within the time limit. */
  ok: boolean;
  status?: number;
  latencyMs: number;
  /** Short pt-BR or technical text for `ultimoErro`; never carries a secret. */
  error?: string;
  /** The first RESPONSE_BODY_KEPT bytes of the answer's body as text, when it had one (kept with the attempt, never logged). */
  body?: string;
  /** The body was longer than what `body` holds. */
  bodyTruncated?: boolean;
}

/** What each attempt keeps of the endpoint's answer (docs/rules.md §5). */
export const RESPONSE_BODY_KEPT = 4096;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface OutboundOptions {
  /** Development and tests only: allows http and loopback addresses (docs/rules.md §5). */
  allowInsecure: boolean;
  /** Total budget for DNS + connect + headers + body. */
  timeoutMs: number;
  userAgent: string;
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Defaults to forbiddenAddressReason; tests swap it to let a chosen address through. */
  isForbidden?: (ip: string) => string | undefined;
  /** Extra trust for tests with a self-signed certificate; verification stays on. */
  tls?: Pick<SecureContextOptions, 'ca'>;
  /** Sockets kept per destination. */
  connectionsPerOrigin?: number;
}

export interface Outbound {
  post(url: URL, body: string, headers: Record<string, string>): Promise<OutboundResult>;
  close(): Promise<void>;
}

const MAX_RESPONSE_BYTES = 64 * 1024;
// Each pool holds only idle keep-alive sockets once its deliveries end; the cap
// bounds memory when many channels have many distinct endpoints.
const MAX_POOLS = 512;

const defaultResolve = async (hostname: string): Promise<ResolvedAddress[]> =>
  (await dnsLookup(hostname, { all: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

class OutboundFailure extends Error {}

export function createOutbound(opts: OutboundOptions): Outbound {
  const resolve = opts.resolve ?? defaultResolve;
  const isForbidden = opts.isForbidden ?? forbiddenAddressReason;
  const timeoutLabel = opts.timeoutMs % 1000 === 0 ? `${opts.timeoutMs / 1000} s` : `${opts.timeoutMs} ms`;
  // One pool per (origin, checked addresses): the Host header and TLS SNI come from the
  // origin, the TCP connection from the pinned list, and keep-alive sockets are reused
  // only for the very addresses that were checked.
  const pools = new Map<string, Pool>();

  // The most recent pool, and what asked for it: the same URL object (the deliverer keeps
  // them) to the same checked addresses gets it back without building its key.
  let recent: { url: URL; addresses: ResolvedAddress[]; key: string; pool: Pool } | undefined;
  function poolFor(url: URL, addresses: ResolvedAddress[]): Pool {
    if (recent && recent.url === url && recent.addresses === addresses && pools.get(recent.key) === recent.pool)
      return recent.pool;
    const key = `${url.origin} ${
      addresses.length === 1
        ? addresses[0]!.address
        : addresses
            .map((a) => a.address)
            .sort()
            .join(',')
    }`;
    let pool = pools.get(key);
    if (pool) {
      // Re-insert: Map order doubles as least-recently-used order.
      if (key !== recent?.key) pools.delete(key);
    } else {
      pool = new Pool(url.origin, {
        connections: opts.connectionsPerOrigin ?? 16,
        pipelining: 1,
        allowH2: false,
        connect: { ...opts.tls, timeout: opts.timeoutMs, lookup: pinnedLookup(addresses) },
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
      });
      const evicted = pools.size >= MAX_POOLS ? pools.entries().next().value : undefined;
      if (evicted) {
        pools.delete(evicted[0]);
        void evicted[1].close().catch(() => undefined);
      }
    }
    pools.set(key, pool);
    recent = { url, addresses, key, pool };
    return pool;
  }

  // IP literals need no resolver: checked once, then the same answer (no promise).
  const literals = new Map<string, ResolvedAddress[] | OutboundFailure | null>();
  function literalAddresses(hostname: string): ResolvedAddress[] | null {
    let known = literals.get(hostname);
    if (known === undefined) {
      const literal = hostname.replace(/^\[(.*)\]$/, '$1');
      const family = isIP(literal);
      known = family === 0 ? null : checked([{ address: literal, family: family as 4 | 6 }]);
      if (literals.size >= MAX_POOLS) literals.clear();
      literals.set(hostname, known);
    }
    if (known instanceof OutboundFailure) throw known;
    return known;
  }

  function checked(addresses: ResolvedAddress[]): ResolvedAddress[] | OutboundFailure {
    if (addresses.length === 0) return new OutboundFailure('nome não resolvido');
    for (const { address } of addresses) {
      const reason = isForbidden(address);
      // The development switch lets local receivers through, and nothing else (docs/rules.md §5).
      if (reason && !(opts.allowInsecure && isLoopbackAddress(address))) {
        return new OutboundFailure(`endereço recusado: ${address} (${reason})`);
      }
    }
    return addresses;
  }

  async function resolveChecked(hostname: string, exchange: Exchange): Promise<ResolvedAddress[]> {
    const addresses = checked(await abandonable(resolve(hostname), exchange));
    if (addresses instanceof OutboundFailure) throw addresses;
    return addresses;
  }

  async function post(url: URL, body: string, headers: Record<string, string>): Promise<OutboundResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // One timer for the whole budget (DNS, connect, waiting for a socket, headers,
    // body), cleared as soon as the answer is in. Whatever is under way when it
    // fires is abandoned: the name resolution, or the request.
    const exchange: Exchange = { timedOut: false, abort: undefined };
    const timer = setTimeout(() => {
      exchange.timedOut = true;
      exchange.abort?.(new OutboundFailure('tempo esgotado'));
    }, opts.timeoutMs);
    let status: number | undefined;
    try {
      if (url.protocol !== 'https:' && !(opts.allowInsecure && url.protocol === 'http:')) {
        throw new OutboundFailure(`protocolo não permitido: ${url.protocol.replace(':', '')}`);
      }
      const addresses = literalAddresses(url.hostname) ?? (await resolveChecked(url.hostname, exchange));
      // The deliverer's headers already say both: sent as they are, no copy per request.
      const sent =
        headers['content-type'] !== undefined && headers['user-agent'] === opts.userAgent
          ? headers
          : { 'content-type': 'application/json', ...headers, 'user-agent': opts.userAgent };
      const answer = await postOnce(poolFor(url, addresses), `${url.pathname}${url.search}`, body, sent, exchange);
      status = answer.status;
      const kept = answer.body ? { body: answer.body, bodyTruncated: answer.truncated } : {};
      if (status >= 200 && status < 300) return { ok: true, status, latencyMs: elapsed(), ...kept };
      const error = status >= 300 && status < 400 ? `redirecionamento não seguido (HTTP ${status})` : `HTTP ${status}`;
      return { ok: false, status, latencyMs: elapsed(), error, ...kept };
    } catch (error) {
      const text = exchange.timedOut
        ? `tempo esgotado (${timeoutLabel})`
        : describeError(error instanceof AnsweredThenFailed ? error.cause : error);
      const answered = error instanceof AnsweredThenFailed ? error.status : status;
      return { ok: false, ...(answered === undefined ? {} : { status: answered }), latencyMs: elapsed(), error: text };
    } finally {
      clearTimeout(timer);
    }
  }

  async function close(): Promise<void> {
    const all = [...pools.values()];
    pools.clear();
    await Promise.all(all.map((pool) => pool.close()));
  }

  return { post, close };
}

/** Hands net.connect the checked addresses, whatever name it asks for. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const list: LookupAddress[] = addresses.map((a) => ({ address: a.address, family: a.family }));
    if (options.all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}

/** What the time budget can interrupt: set by whichever step is under way. */
interface Exchange {
  timedOut: boolean;
  abort: ((reason: Error) => void) | undefined;
}

/** The status was received, then the body failed (reset, time budget): the attempt fails, with its status. */
class AnsweredThenFailed extends Error {
  readonly status: number;
  constructor(status: number, cause: unknown) {
    super('response body failed', { cause });
    this.status = status;
  }
}

interface Answer {
  status: number;
  /** The first RESPONSE_BODY_KEPT bytes, as text; undefined for an empty body. */
  body: string | undefined;
  truncated: boolean;
}

/**
 * One POST through the pool's low-level dispatch: the answer's status once its body
 * has been read (up to 64 KB, so the socket can be reused; past that the socket is
 * closed and the status stands), with the first RESPONSE_BODY_KEPT bytes of that body. No response stream, promise chain or AbortSignal
 * listener per delivery, as request() would build: the handler below is all of it.
 * A request still waiting for a socket when the budget runs out is answered at once
 * and aborted as soon as it would start.
 */
function postOnce(pool: Pool, path: string, body: string, headers: Record<string, string>, exchange: Exchange): Promise<Answer> {
  return new Promise<Answer>((resolvePromise, reject) => {
    let settled = false;
    let status: number | undefined;
    let received = 0;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let controller: Dispatcher.DispatchController | undefined;
    const settle = (error: unknown, value?: number) => {
      if (settled) return;
      settled = true;
      exchange.abort = undefined;
      if (error === undefined) {
        resolvePromise({ status: value!, body: keptBytes > 0 ? bodyText(kept) : undefined, truncated: received > keptBytes });
      } else reject(status === undefined ? error : new AnsweredThenFailed(status, error));
    };
    exchange.abort = (reason) => {
      if (controller) controller.abort(reason);
      else settle(reason);
    };
    pool.dispatch(
      { method: 'POST', path, headers, body },
      {
        onRequestStart(c) {
          controller = c;
          if (settled) c.abort(new OutboundFailure('tempo esgotado'));
        },
        onResponseStart(_c, statusCode) {
          if (statusCode >= 200) status = statusCode;
        },
        onResponseData(c, chunk) {
          received += chunk.length;
          if (status !== undefined && keptBytes < RESPONSE_BODY_KEPT) {
            const part = chunk.subarray(0, RESPONSE_BODY_KEPT - keptBytes);
            kept.push(Buffer.from(part)); // a copy: the chunk's memory is undici's to reuse
            keptBytes += part.length;
          }
          if (received > MAX_RESPONSE_BYTES && status !== undefined) {
            settle(undefined, status);
            c.abort(new OutboundFailure('resposta grande demais'));
          }
        },
        onResponseEnd() {
          if (status === undefined) settle(new OutboundFailure('resposta sem status'));
          else settle(undefined, status);
        },
        onResponseError(_c, error) {
          settle(error);
        },
      },
    );
  });
}

/**
 * The kept bytes as text for a text column: invalid UTF-8 (or a character cut at the
 * limit) becomes U+FFFD, and so does NUL, which PostgreSQL text cannot hold.
 */
function bodyText(parts: Buffer[]): string {
  return (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8').replaceAll('\0', '\uFFFD');
}

/** The promise, unless the budget runs out first (then its result is ignored). */
function abandonable<T>(promise: Promise<T>, exchange: Exchange): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    exchange.abort = reject;
    promise.then(resolvePromise, reject).finally(() => {
      exchange.abort = undefined;
    });
  });
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** Only codes and our own texts: an error message may echo a URL or a header. */
function describeError(error: unknown): string {
  if (error instanceof OutboundFailure) return error.message;
  const first = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
  const code = (first as { code?: unknown } | null)?.code;
  const c = typeof code === 'string' ? code : undefined;
  if (c && TLS_CODE.test(c)) return `erro TLS: ${c}`;
  switch (c) {
    case 'ECONNREFUSED':
      return 'conexão recusada';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return 'conexão encerrada pelo servidor';
    case 'ENOTFOUND':
      return 'nome não encontrado (DNS)';
    case 'EAI_AGAIN':
      return 'falha temporária de DNS';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'destino inalcançável';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return 'tempo esgotado';
    default:
      return `falha de rede: ${c ?? 'desconhecida'}`;
  }
}
