// The one HTTP client that talks to channels' webhook endpoints. The name is resolved
// here, every address is checked, and the socket is pinned to the checked addresses
// through a `lookup` that never asks DNS again: a name that re-resolves to 127.0.0.1
// between our check and the connect (DNS rebinding) cannot reach it.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import { Pool } from 'undici';
import { forbiddenAddressReason } from './address-policy.ts';

export interface OutboundResult {
  /** 2xx within the time limit. */
  ok: boolean;
  status?: number;
  latencyMs: number;
  /** Short pt-BR or technical text for `ultimoErro`; never carries a secret. */
  error?: string;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface OutboundOptions {
  /** Development and tests only: skips the address check and allows http. */
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

  function poolFor(origin: string, addresses: ResolvedAddress[]): Pool {
    const key = `${origin} ${addresses.map((a) => a.address).sort().join(',')}`;
    let pool = pools.get(key);
    if (pool) {
      pools.delete(key); // re-insert: Map order doubles as least-recently-used order
    } else {
      pool = new Pool(origin, {
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
    return pool;
  }

  async function addressesOf(hostname: string, signal: AbortSignal): Promise<ResolvedAddress[]> {
    const literal = hostname.replace(/^\[(.*)\]$/, '$1');
    const family = isIP(literal);
    const addresses = family !== 0 ? [{ address: literal, family: family as 4 | 6 }] : await abortable(resolve(hostname), signal);
    if (addresses.length === 0) throw new OutboundFailure('nome não resolvido');
    if (!opts.allowInsecure) {
      for (const { address } of addresses) {
        const reason = isForbidden(address);
        if (reason) throw new OutboundFailure(`endereço recusado: ${address} (${reason})`);
      }
    }
    return addresses;
  }

  async function post(url: URL, body: string, headers: Record<string, string>): Promise<OutboundResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(opts.timeoutMs);
    let status: number | undefined;
    try {
      if (url.protocol !== 'https:' && !(opts.allowInsecure && url.protocol === 'http:')) {
        throw new OutboundFailure(`protocolo não permitido: ${url.protocol.replace(':', '')}`);
      }
      const addresses = await addressesOf(url.hostname, signal);
      const response = await poolFor(url.origin, addresses).request({
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        headers: { 'content-type': 'application/json', ...headers, 'user-agent': opts.userAgent },
        body,
        signal,
      });
      status = response.statusCode;
      await drain(response.body);
      if (status >= 200 && status < 300) return { ok: true, status, latencyMs: elapsed() };
      const error = status >= 300 && status < 400 ? `redirecionamento não seguido (HTTP ${status})` : `HTTP ${status}`;
      return { ok: false, status, latencyMs: elapsed(), error };
    } catch (error) {
      const text = signal.aborted ? `tempo esgotado (${timeoutLabel})` : describeError(error);
      return { ok: false, ...(status === undefined ? {} : { status }), latencyMs: elapsed(), error: text };
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

/** Reads up to 64 KB so the socket can be reused, then gives up on the rest. */
async function drain(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<void> {
  let received = 0;
  for await (const chunk of body) {
    received += chunk.length;
    if (received > MAX_RESPONSE_BYTES) {
      body.destroy();
      return;
    }
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolvePromise, reject).finally(() => signal.removeEventListener('abort', onAbort));
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
