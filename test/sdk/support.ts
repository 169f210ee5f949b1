// Helpers for the SDK tests: a fetch that records what the SDK sends, an HTTP proxy
// that can lose an answer or hold it past the client's timeout (a real network
// failure between the SDK and a real service), and a sandbox bank whose outage
// asks for a short Retry-After so that honouring it takes one second, not thirty.
import http from 'node:http';
import type net from 'node:net';
import { BankUnavailableError, type BankGateway } from '../../src/bank/bank-gateway.ts';
import type { TestService } from '../helpers/service.ts';
import type { Context } from '../../src/context.ts';

export interface SentRequest {
  method: string;
  path: string;
  headers: Headers;
  at: number;
}

/** A fetch for `new Consigna({ fetch })` that records every request it is given. */
export function recordingFetch(): {
  fetch: typeof fetch;
  sent: SentRequest[];
  tokenRequests(): number;
  to(path: string): SentRequest[];
} {
  const sent: SentRequest[] = [];
  const wrapped: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    sent.push({ method: init?.method ?? 'GET', path: url.pathname, headers: new Headers(init?.headers), at: Date.now() });
    return fetch(input, init);
  };
  return {
    fetch: wrapped,
    sent,
    tokenRequests: () => sent.filter((r) => r.path === '/v1/oauth/token').length,
    to: (path) => sent.filter((r) => r.path === path),
  };
}

export interface ProxiedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Upstream answer, as the service sent it (also when the proxy then lost it). */
  status?: number;
  responseBody?: string;
  fate: 'answered' | 'dropped' | 'delayed';
}

export interface Proxy {
  url: string;
  requests: ProxiedRequest[];
  /** The next request matching gets the service's answer thrown away: the connection is destroyed instead. */
  dropNextAnswer(match: (method: string, url: string) => boolean): void;
  /** The next request matching gets its answer only after `ms`. */
  delayNextAnswer(match: (method: string, url: string) => boolean, ms: number): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

export async function startProxy(target: string): Promise<Proxy> {
  const requests: ProxiedRequest[] = [];
  let drop: ((method: string, url: string) => boolean) | undefined;
  let delay: { match: (method: string, url: string) => boolean; ms: number } | undefined;
  const sockets = new Set<net.Socket>();

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const record: ProxiedRequest = { method: req.method!, url: req.url!, headers: req.headers, fate: 'answered' };
    requests.push(record);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const upstream = await fetch(target + req.url, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
      redirect: 'manual',
    });
    const text = await upstream.text();
    record.status = upstream.status;
    record.responseBody = text;
    if (drop?.(req.method!, req.url!)) {
      drop = undefined;
      record.fate = 'dropped';
      req.socket.destroy();
      return;
    }
    if (delay?.match(req.method!, req.url!)) {
      const ms = delay.ms;
      delay = undefined;
      record.fate = 'delayed';
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (req.socket.destroyed) return;
    }
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) out[name] = value;
    });
    res.writeHead(upstream.status, out).end(text);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    dropNextAnswer(match) {
      drop = match;
    },
    delayNextAnswer(match, ms) {
      delay = { match, ms };
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The sandbox bank, except that its outage (CPF 00000000434) asks for `Retry-After: retryAfterSeconds`. */
export function bankWithShortOutage(retryAfterSeconds: number): (ctx: Context) => BankGateway {
  return ({ bank }) => ({
    ...bank,
    async checkAvailability(cpf) {
      try {
        await bank.checkAvailability(cpf);
      } catch (error) {
        if (error instanceof BankUnavailableError) throw new BankUnavailableError(retryAfterSeconds);
        throw error;
      }
    },
  });
}

/** Links of one channel, counted in the database. */
export async function countLinks(service: TestService, channelId: string): Promise<number> {
  const row = await service.ctx.database.db
    .selectFrom('links')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('channel_id', '=', channelId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
