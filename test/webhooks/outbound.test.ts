// Real sockets on 127.0.0.x: the client under test must be judged by what reaches
// (and what never reaches) a listener, not by mocks.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { forbiddenAddressReason } from '../../src/webhooks/address-policy.ts';
import {
  createOutbound,
  RESPONSE_BODY_KEPT,
  type Outbound,
  type OutboundOptions,
  type ResolvedAddress,
} from '../../src/webhooks/outbound.ts';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  localAddress: string | undefined;
  servername: string | false | null | undefined;
}

interface Receiver {
  port: number;
  requests: Seen[];
  connections: number;
  close(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const ok200: Handler = (_req, res) => res.end('ok');

async function listen(server: http.Server | net.Server, host: string, port: number, record: { connections: number }) {
  server.on(server instanceof https.Server ? 'secureConnection' : 'connection', () => record.connections++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}

async function startReceiver(
  handler: Handler,
  opts: { host?: string; port?: number; tls?: { key: string; cert: string } } = {},
): Promise<Receiver> {
  const requests: Seen[] = [];
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        localAddress: req.socket.localAddress,
        servername: (req.socket as TLSSocket).servername,
      });
      handler(req, res);
    });
  };
  const server = opts.tls ? https.createServer(opts.tls, onRequest) : http.createServer(onRequest);
  const receiver = {
    port: 0,
    requests,
    connections: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  receiver.port = await listen(server, opts.host ?? '127.0.0.1', opts.port ?? 0, receiver);
  return receiver;
}

/** A bare TCP listener: counts connections and never answers. */
async function startTrap(host: string, port = 0) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  const trap = {
    port: 0,
    connections: 0,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  trap.port = await listen(server, host, port, trap);
  return trap;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function receiver(handler: Handler = ok200, opts: Parameters<typeof startReceiver>[1] = {}) {
  const r = await startReceiver(handler, opts);
  cleanups.push(r.close);
  return r;
}
async function trap(host = '127.0.0.1', port = 0) {
  const t = await startTrap(host, port);
  cleanups.push(t.close);
  return t;
}
function outbound(opts: Partial<OutboundOptions> = {}): Outbound {
  const client = createOutbound({ allowInsecure: true, timeoutMs: 2000, userAgent: 'Consigna-Webhooks/teste', ...opts });
  cleanups.push(() => client.close());
  return client;
}
/** A resolver that answers from a script and counts its calls. */
function scriptedResolver(...answers: ResolvedAddress[][]) {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    return answers[Math.min(calls.length, answers.length) - 1]!;
  };
  return { calls, resolve };
}
const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });

const BODY = JSON.stringify({ id: 'e1', tipo: 'proposta.criada' });
const SIGNATURE = `t=1795360000,v1=${'ab'.repeat(32)}`;
const HEADERS = { 'x-service-signature': SIGNATURE, 'x-service-event-id': 'e1' };

describe('outbound over http (development switch on)', () => {
  it('posts the body and headers and reports a 2xx as ok', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end());
    const result = await outbound().post(new URL(`http://127.0.0.1:${r.port}/hook?x=1`), BODY, HEADERS);
    expect(result).toEqual({ ok: true, status: 204, latencyMs: expect.any(Number) });
    expect(r.requests).toHaveLength(1);
    const [seen] = r.requests;
    expect(seen).toMatchObject({ method: 'POST', url: '/hook?x=1', body: BODY });
    expect(seen!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Consigna-Webhooks/teste',
      'x-service-signature': SIGNATURE,
      'x-service-event-id': 'e1',
      host: `127.0.0.1:${r.port}`,
    });
  });

  it('reports a 500 as a failure with its status', async () => {
    const r = await receiver((_req, res) => res.writeHead(500).end('erro'));
    const result = await outbound().post(new URL(`http://127.0.0.1:${r.port}/`), BODY, HEADERS);
    // The start of the answer's body comes back with the attempt (kept in its history, never logged).
    expect(result).toEqual({
      ok: false,
      status: 500,
      latencyMs: expect.any(Number),
      error: 'HTTP 500',
      body: 'erro',
      bodyTruncated: false,
    });
  });

  it('keeps the first 4 KiB of a long answer, marked as cut, and reads the rest only up to its limit', async () => {
    const long = Buffer.concat([Buffer.from('início:'), Buffer.alloc(200_000, 'x')]);
    const r = await receiver((_req, res) => res.writeHead(422, { 'content-type': 'text/plain' }).end(long));
    const result = await outbound().post(new URL(`http://127.0.0.1:${r.port}/`), BODY, HEADERS);
    expect(result).toMatchObject({ ok: false, status: 422, error: 'HTTP 422', bodyTruncated: true });
    expect(Buffer.byteLength(result.body!)).toBe(RESPONSE_BODY_KEPT);
    expect(result.body!.startsWith('início:xxx')).toBe(true);
  });

  it('keeps no body when the answer has none', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end());
    const result = await outbound().post(new URL(`http://127.0.0.1:${r.port}/`), BODY, HEADERS);
    expect(result).toEqual({ ok: true, status: 204, latencyMs: expect.any(Number) });
  });

  it('gives up after the total timeout when the answer is slow', async () => {
    const r = await receiver((_req, res) => setTimeout(() => res.end('tarde'), 3000).unref());
    const result = await outbound({ timeoutMs: 300 }).post(new URL(`http://127.0.0.1:${r.port}/`), BODY, HEADERS);
    expect(result).toMatchObject({ ok: false, error: 'tempo esgotado (300 ms)' });
    expect(result.status).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThanOrEqual(250);
    expect(result.latencyMs).toBeLessThan(1500);
  });

  it('counts the response body inside the same timeout', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('parcial');
    });
    const result = await outbound({ timeoutMs: 300 }).post(new URL(`http://127.0.0.1:${r.port}/`), BODY, HEADERS);
    expect(result).toMatchObject({ ok: false, status: 200, error: 'tempo esgotado (300 ms)' });
  });

  it('names whole-second timeouts in seconds', async () => {
    const client = outbound({ timeoutMs: 1000, resolve: () => new Promise(() => undefined) });
    const result = await client.post(new URL('http://hooks.example.com/'), BODY, HEADERS);
    expect(result).toMatchObject({ ok: false, error: 'tempo esgotado (1 s)' });
  });

  it('puts DNS resolution inside the timeout too', async () => {
    const client = outbound({ timeoutMs: 300, resolve: () => new Promise(() => undefined) });
    const result = await client.post(new URL('http://hooks.example.com/'), BODY, HEADERS);
    expect(result).toMatchObject({ ok: false, error: 'tempo esgotado (300 ms)' });
  });

  it('never follows a redirect, and the target receives nothing', async () => {
    const target = await receiver();
    const r = await receiver((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${target.port}/outro` }).end());
    const result = await outbound().post(new URL(`http://127.0.0.1:${r.port}/`), BODY, HEADERS);
    expect(result).toEqual({
      ok: false,
      status: 302,
      latencyMs: expect.any(Number),
      error: 'redirecionamento não seguido (HTTP 302)',
    });
    expect(r.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
    expect(target.connections).toBe(0);
  });

  it('reports a closed port as a refused connection', async () => {
    const closed = await startTrap('127.0.0.1');
    await closed.close();
    const result = await outbound().post(new URL(`http://127.0.0.1:${closed.port}/`), BODY, HEADERS);
    expect(result).toEqual({ ok: false, latencyMs: expect.any(Number), error: 'conexão recusada' });
  });

  it('reuses keep-alive connections for consecutive deliveries', async () => {
    const r = await receiver();
    const client = outbound();
    for (let i = 0; i < 6; i++) {
      expect((await client.post(new URL(`http://127.0.0.1:${r.port}/`), BODY, HEADERS)).ok).toBe(true);
    }
    expect(r.requests).toHaveLength(6);
    // undici may open a second socket while the first is still settling after a
    // response; what matters is that sockets are reused, not one per delivery.
    expect(r.connections).toBeLessThanOrEqual(2);
  });

  it('discards a large response body without failing', async () => {
    const r = await receiver((_req, res) => res.end(Buffer.alloc(2 * 1024 * 1024, 'x')));
    const client = outbound();
    expect(await client.post(new URL(`http://127.0.0.1:${r.port}/`), BODY, HEADERS)).toMatchObject({ ok: true, status: 200 });
    expect(await client.post(new URL(`http://127.0.0.1:${r.port}/`), BODY, HEADERS)).toMatchObject({ ok: true, status: 200 });
  });

  it('reports DNS failures without a second try', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nada.example.com'), { code: 'ENOTFOUND' });
    const client = outbound({ resolve: async () => Promise.reject(notFound) });
    expect((await client.post(new URL('http://nada.example.com/'), BODY, HEADERS)).error).toBe('nome não encontrado (DNS)');
    const empty = outbound({ resolve: async () => [] });
    expect((await empty.post(new URL('http://nada.example.com/'), BODY, HEADERS)).error).toBe('nome não resolvido');
  });

  it('connects a resolved name to the resolved address, with the name in Host', async () => {
    const r = await receiver();
    const dns = scriptedResolver([v4('127.0.0.1')]);
    const result = await outbound({ resolve: dns.resolve }).post(new URL(`http://hooks.example.com:${r.port}/a`), BODY, HEADERS);
    expect(result.ok).toBe(true);
    expect(dns.calls).toEqual(['hooks.example.com']);
    expect(r.requests[0]!.headers.host).toBe(`hooks.example.com:${r.port}`);
  });

  it('lets loopback through and nothing else: private and link-local answers are refused without connecting', async () => {
    const t = await trap('127.0.0.1');
    const dns = scriptedResolver([v4('10.1.2.3')], [v4('169.254.169.254')]);
    const client = outbound({ resolve: dns.resolve });
    const url = new URL(`http://hooks.exemplo.com.br:${t.port}/`);
    expect((await client.post(url, BODY, HEADERS)).error).toBe('endereço recusado: 10.1.2.3 (rede privada)');
    expect((await client.post(url, BODY, HEADERS)).error).toBe('endereço recusado: 169.254.169.254 (link-local)');
    expect(t.connections).toBe(0);
  });

  it('never puts header values in an error text', async () => {
    const closed = await startTrap('127.0.0.1');
    await closed.close();
    const results = [
      await outbound().post(new URL(`http://127.0.0.1:${closed.port}/`), BODY, HEADERS),
      await outbound({ allowInsecure: false }).post(new URL('http://hooks.example.com/'), BODY, HEADERS),
    ];
    for (const result of results) expect(JSON.stringify(result)).not.toContain('ab'.repeat(32));
  });
});

describe('outbound address policy (development switch off)', () => {
  it('refuses http', async () => {
    const t = await trap();
    const result = await outbound({ allowInsecure: false }).post(new URL(`http://127.0.0.1:${t.port}/`), BODY, HEADERS);
    expect(result).toEqual({ ok: false, latencyMs: expect.any(Number), error: 'protocolo não permitido: http' });
    expect(t.connections).toBe(0);
  });

  it('refuses a public-looking name that resolves to loopback, without connecting', async () => {
    const t = await trap();
    const dns = scriptedResolver([v4('127.0.0.1')]);
    const result = await outbound({ allowInsecure: false, resolve: dns.resolve }).post(
      new URL(`https://hooks.example.com:${t.port}/`),
      BODY,
      HEADERS,
    );
    expect(result).toEqual({ ok: false, latencyMs: expect.any(Number), error: 'endereço recusado: 127.0.0.1 (loopback)' });
    expect(t.connections).toBe(0);
  });

  it('refuses when any resolved address is forbidden', async () => {
    const dns = scriptedResolver([v4('93.184.215.14'), v4('10.0.0.5')]);
    const result = await outbound({ allowInsecure: false, resolve: dns.resolve }).post(
      new URL('https://hooks.example.com/'),
      BODY,
      HEADERS,
    );
    expect(result.error).toBe('endereço recusado: 10.0.0.5 (rede privada)');
  });

  it('refuses an IPv4-mapped IPv6 answer', async () => {
    const dns = scriptedResolver([{ address: '::ffff:169.254.169.254', family: 6 }]);
    const result = await outbound({ allowInsecure: false, resolve: dns.resolve }).post(
      new URL('https://hooks.example.com/'),
      BODY,
      HEADERS,
    );
    expect(result.error).toBe('endereço recusado: ::ffff:169.254.169.254 (link-local (IPv4 mapeado))');
  });

  it('refuses an IP literal in the URL without asking the resolver', async () => {
    const t = await trap();
    const dns = scriptedResolver([v4('93.184.215.14')]);
    const result = await outbound({ allowInsecure: false, resolve: dns.resolve }).post(
      new URL(`https://127.0.0.1:${t.port}/`),
      BODY,
      HEADERS,
    );
    expect(result.error).toBe('endereço recusado: 127.0.0.1 (loopback)');
    expect(dns.calls).toEqual([]);
    expect(t.connections).toBe(0);
  });
});

describe('outbound over https, pinned to the checked address', () => {
  let dir: string;
  let tls: { key: string; cert: string };
  // 127.0.0.2 plays a public address: loopback on Linux, allowed only in these tests.
  const PLAYS_PUBLIC = '127.0.0.2';
  const isForbidden = (ip: string) => (ip === PLAYS_PUBLIC ? undefined : forbiddenAddressReason(ip));

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'consigna-outbound-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=hooks.example.com',
        '-addext',
        'subjectAltName=DNS:hooks.example.com',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const strictClient = (resolve: OutboundOptions['resolve'], extra: Partial<OutboundOptions> = {}) =>
    outbound({ allowInsecure: false, resolve, isForbidden, tls: { ca: tls.cert }, ...extra });

  it('delivers with SNI and Host naming the host while TCP goes to the checked address', async () => {
    const r = await receiver(ok200, { host: PLAYS_PUBLIC, tls });
    const dns = scriptedResolver([v4(PLAYS_PUBLIC)]);
    const result = await strictClient(dns.resolve).post(new URL(`https://hooks.example.com:${r.port}/hook`), BODY, HEADERS);
    expect(result).toMatchObject({ ok: true, status: 200, latencyMs: expect.any(Number) });
    expect(dns.calls).toEqual(['hooks.example.com']);
    expect(r.requests[0]).toMatchObject({
      localAddress: PLAYS_PUBLIC,
      servername: 'hooks.example.com',
      headers: expect.objectContaining({ host: `hooks.example.com:${r.port}` }),
    });
  });

  it('cannot be rebound: a later answer of 127.0.0.1 is refused and 127.0.0.1 sees nothing', async () => {
    const r = await receiver(ok200, { host: PLAYS_PUBLIC, tls });
    const loopback = await trap('127.0.0.1', r.port);
    const dns = scriptedResolver([v4(PLAYS_PUBLIC)], [v4('127.0.0.1')]);
    const client = strictClient(dns.resolve);
    const url = new URL(`https://hooks.example.com:${r.port}/hook`);

    expect((await client.post(url, BODY, HEADERS)).ok).toBe(true);
    expect(dns.calls).toHaveLength(1); // the socket did not look the name up again
    expect(r.requests).toHaveLength(1);

    const second = await client.post(url, BODY, HEADERS);
    expect(second.error).toBe('endereço recusado: 127.0.0.1 (loopback)');
    expect(dns.calls).toHaveLength(2); // resolved afresh on every delivery
    expect(r.requests).toHaveLength(1);
    expect(loopback.connections).toBe(0);
  });

  it('keeps using the checked address while the name keeps resolving to it', async () => {
    const r = await receiver(ok200, { host: PLAYS_PUBLIC, tls });
    const loopback = await trap('127.0.0.1', r.port);
    const dns = scriptedResolver([v4(PLAYS_PUBLIC)]);
    const client = strictClient(dns.resolve);
    for (let i = 0; i < 6; i++)
      expect((await client.post(new URL(`https://hooks.example.com:${r.port}/`), BODY, HEADERS)).ok).toBe(true);
    expect(dns.calls).toHaveLength(6);
    expect(r.connections).toBeLessThanOrEqual(2);
    expect(loopback.connections).toBe(0);
  });

  it('verifies the certificate: untrusted issuer', async () => {
    const r = await receiver(ok200, { host: PLAYS_PUBLIC, tls });
    const dns = scriptedResolver([v4(PLAYS_PUBLIC)]);
    const client = strictClient(dns.resolve, { tls: {} });
    const result = await client.post(new URL(`https://hooks.example.com:${r.port}/`), BODY, HEADERS);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^erro TLS: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)$/);
    expect(r.requests).toHaveLength(0);
  });

  it('verifies the certificate: name mismatch', async () => {
    const r = await receiver(ok200, { host: PLAYS_PUBLIC, tls });
    const dns = scriptedResolver([v4(PLAYS_PUBLIC)]);
    const result = await strictClient(dns.resolve).post(new URL(`https://outro.example.org:${r.port}/`), BODY, HEADERS);
    expect(result).toEqual({ ok: false, latencyMs: expect.any(Number), error: 'erro TLS: ERR_TLS_CERT_ALTNAME_INVALID' });
    expect(r.requests).toHaveLength(0);
  });
});
