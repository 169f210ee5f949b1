// Hostile bytes on the wire, against a real `consigna serve` process: for every
// operation of the served OpenAPI document and every hosted page, raw HTTP/1.1
// requests with malformed and duplicated headers, control characters, ill-formed
// UTF-8 (lone surrogates), deep nesting, and bodies cut short. Holds: no 5xx, no
// process exit, no error logged, and every answer bounded in size.
// CI runs a fixed seed and a bounded number of cases; a longer run:
//   FUZZ_RUNS=3000 FUZZ_SEED=$RANDOM npx vitest run test/fuzz
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, serveWithChannel, type ServedChannel } from '../helpers/processes.ts';
import { rememberSecret } from '../helpers/secrets.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40) * 8;
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
// The largest legitimate answer: the inbox list or viewer, 50 events of at most 64 KB.
const MAX_RESPONSE_BYTES = 50 * 64 * 1024 * 2;

interface Target {
  method: string;
  /** Path with `{name}` placeholders. */
  path: string;
}

const HOSTED: Target[] = [
  { method: 'GET', path: '/c/{link}' },
  ...['comecar', 'celular', 'codigo', 'reenviar', 'consulta', 'oferta', 'dados', 'voltar', 'proposta', 'inexistente'].map(
    (action) => ({ method: 'POST', path: `/c/{link}/${action}` }),
  ),
  { method: 'GET', path: '/sandbox/receptor/{token}' },
  { method: 'POST', path: '/sandbox/receptor/{token}/modo' },
  { method: 'POST', path: '/sandbox/receptor/{token}/limpar' },
  { method: 'GET', path: '/sandbox/assinatura/{numero}' },
  { method: 'GET', path: '/docs' },
  { method: 'GET', path: '/docs/referencia' },
  { method: 'GET', path: '/assets/{asset}' },
  { method: 'GET', path: '/openapi.yaml' },
  { method: 'GET', path: '/metrics' },
];

// Path segments: the known value, or something hostile, percent-encoded or raw.
const hostileSegment = fc.constantFrom(
  '%00',
  'x%00y',
  '%ED%A0%80', // a lone surrogate, as its CESU-8 bytes
  '%C0%AF', // an overlong '/'
  '%FF',
  '%E2%80%AE', // right-to-left override
  '%',
  '%%32%65',
  '..%2F..%2Fetc%2Fpasswd',
  'a'.repeat(300),
  '%5B'.repeat(2000),
  '',
);

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Bodies as raw bytes, with the content type they claim. */
const body = fc.oneof(
  fc.constant({ type: 'application/json', bytes: Buffer.from(deep(4500)) }),
  fc.constant({ type: 'application/json', bytes: Buffer.from(`{"cpf":"12345678909","referenciaExterna":${deep(3000)}}`) }),
  fc.constant({
    type: 'application/json',
    bytes: Buffer.from('{"referenciaExterna":"\\ud800","url":"x\\u0000","status":"\\u202e"}'),
  }),
  fc.constant({ type: 'application/json', bytes: Buffer.from('{"cpf":"1234\u0000"}') }),
  fc.constant({
    type: 'application/json',
    bytes: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0xff, 0x22, 0x7d]),
  }),
  fc.constant({
    type: 'application/x-www-form-urlencoded',
    bytes: Buffer.from('grant_type=client_credentials&client_id=x%00&client_secret=%ED%A0%80&celular=%00&nome=%E2%80%AE'),
  }),
  fc.constant({ type: 'application/x-www-form-urlencoded', bytes: Buffer.from('responderStatus=%00&email=a%E2%80%AE%40b.com') }),
  fc.record({
    type: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'),
    bytes: fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)),
  }),
  fc.constant(undefined),
);

/** Header lines, some hostile, some repeated; the values are raw bytes (latin1). */
const headerValue = fc.oneof(
  fc.constantFrom(
    'x',
    'null',
    'http://127.0.0.1:1.evil.example',
    'http://[::1',
    '\x7f',
    '\xff\xfe',
    'a'.repeat(8000),
    'Bearer cat_' + 'x'.repeat(48),
    'Basic eDoAeQ==', // "x:\0y"
    'Basic !!!',
    '1, 2',
  ),
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, '')),
);
const headerName = fc.constantFrom(
  'Origin',
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Forwarded-For',
  'Host',
  'Cookie',
  'If-None-Match',
  'Transfer-Encoding',
  'X-Service-Signature',
);

describe('hostile bytes on the wire (real process)', () => {
  let served: ServedChannel;
  let targets: Target[];
  const known: Record<string, string> = { numero: '1', asset: 'journey.css' };

  beforeAll(async () => {
    served = await serveWithChannel({
      CONSIGNA_RATE_LIMIT_API: '0/60',
      CONSIGNA_RATE_LIMIT_INBOX: '0/60',
      CONSIGNA_RATE_LIMIT_JOURNEY: '0/60',
      CONSIGNA_RATE_LIMIT_UNKNOWN_TOKEN: '0/60',
    });
    const { serve, bearer } = served;
    const json = { authorization: bearer, 'content-type': 'application/json' };
    const inbox = (await (
      await fetch(`${serve.url}/v1/sandbox/receptor`, { method: 'PUT', headers: json, body: '{}' })
    ).json()) as {
      url: string;
    };
    known.token = inbox.url.split('/').pop()!;
    rememberSecret(known.token);
    await fetch(`${serve.url}/v1/webhooks`, { method: 'PUT', headers: json, body: JSON.stringify({ url: inbox.url }) });
    const link = (await (
      await fetch(`${serve.url}/v1/links`, { method: 'POST', headers: json, body: '{"cpf":"12345678909"}' })
    ).json()) as { id: string; url: string };
    known.id = link.id;
    known.link = link.url.split('/').pop()!;
    rememberSecret(known.link);
    const spec = (await (await fetch(`${serve.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    targets = [
      ...Object.entries(spec.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((m) => ({ method: m.toUpperCase(), path })),
      ),
      ...HOSTED,
    ];
  });
  afterAll(async () => {
    await served?.close();
    await killAll();
  });

  it('answers every request below 500 and bounded, and the process lives on', async () => {
    const port = Number(new URL(served.serve.url).port);
    expect(targets.length).toBeGreaterThan(30);
    const request = fc.record({
      target: fc.constantFrom(...targets),
      segment: fc.option(hostileSegment, { freq: 2 }),
      method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'), { freq: 8 }),
      auth: fc.boolean(),
      headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }),
      body,
      cut: fc.constantFrom('whole', 'whole', 'whole', 'short', 'declared-too-long'),
    });
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ target, segment, method, auth, headers, body, cut }) => {
        const path = target.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          segment !== null ? segment : (known[name] ?? encodeURIComponent(known.id!)),
        );
        const lines = [`${method ?? target.method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close'];
        if (auth) lines.push(`Authorization: ${served.bearer}`);
        for (const [name, value] of headers) lines.push(`${name}: ${value}`);
        let payload = Buffer.alloc(0);
        if (body) {
          lines.push(`Content-Type: ${body.type}`);
          payload = body.bytes;
          const declared = cut === 'declared-too-long' ? payload.length + 100 : payload.length;
          lines.push(`Content-Length: ${declared}`);
          if (cut === 'short') payload = payload.subarray(0, Math.floor(payload.length / 2));
        }
        const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
        const wholeRequest = !body || cut === 'whole';
        const response = await exchange(port, Buffer.concat([head, payload]), { closeAfterWrite: !wholeRequest });
        const label = `${lines[0]} [${headers.map(([n]) => n).join(',')}] ${cut} → ${response.subarray(0, 200).toString('latin1')}`;
        expect(response.length, label).toBeLessThan(MAX_RESPONSE_BYTES);
        const status = /^HTTP\/1\.1 (\d{3})/.exec(response.toString('latin1', 0, 20))?.[1];
        if (wholeRequest) expect(status, label).toBeDefined();
        if (status !== undefined) {
          expect(Number(status), label).toBeLessThan(500);
          answered += 1;
        }
        expect(served.serve.alive(), served.serve.output().slice(-2000)).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    expect(answered).toBeGreaterThan(RUNS / 2);
    expect((await fetch(`${served.serve.url}/healthz`)).status).toBe(200);
    // LOG_LEVEL=warn: an error line would be an unexpected failure or a 5xx.
    expect(served.serve.output()).not.toMatch(/"level":"error"|unexpected error|request failed/);
  }, 600_000);
});

/** Writes the bytes on a new connection; resolves with all the server sent back. */
function exchange(port: number, bytes: Buffer, options: { closeAfterWrite: boolean }): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1');
    const finish = () => {
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(finish, 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    socket.write(bytes, () => {
      if (options.closeAfterWrite) setTimeout(finish, 20);
    });
  });
}
