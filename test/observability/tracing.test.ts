// OpenTelemetry traces end to end (src/observability/tracing.ts): real `consigna`
// processes export over OTLP (http/protobuf, the default) to a real local collector, a real receiver gets
// the webhooks. On PostgreSQL the api and the worker are separate processes, so the
// trace has to travel with the event row from one to the other; on the embedded
// database one `serve` runs both. Then everything exported is searched for every secret
// and personal datum the journey handled, the way setup.ts searches the logs.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/db.ts';
import { killAll, startConsigna, type ConsignaProcess } from '../helpers/processes.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { waitFor } from '../helpers/wait.ts';
import { linkToken, VALID_CPFS } from '../helpers/links.ts';
import { decodeTraceRequest } from '../helpers/otlp.ts';
import { SIMULATED_CUSTOMER, SIMULATED_PHONE } from '../../src/journey/simulation.service.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/consigna.js');
const CPF = '12345678909';
// A second link's, whose request body reaches the service in a later packet than its headers.
const LATE_CPF = VALID_CPFS.find((cpf) => cpf !== CPF)!;

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  links?: Array<{ traceId: string; spanId: string }>;
  status?: { code?: number };
}
interface ExportedSpan extends OtlpSpan {
  attrs: Record<string, string | number | boolean | undefined>;
  resource: Record<string, string | number | boolean | undefined>;
}

const valueOf = (v: AnyValue) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
const record = (kvs: KeyValue[] = []) => Object.fromEntries(kvs.map((kv) => [kv.key, valueOf(kv.value)]));

/** A minimal OTLP/HTTP collector: keeps every export request, raw and parsed. */
async function startCollector() {
  const raw: string[] = [];
  const spans: ExportedSpan[] = [];
  const contentTypes = new Set<string>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = String(request.headers['content-type']);
      contentTypes.add(contentType);
      if (request.url === '/v1/traces') {
        // OTLP/protobuf (the service's default), or OTLP/JSON.
        const parsed = (
          contentType === 'application/x-protobuf' ? decodeTraceRequest(body) : JSON.parse(body.toString('utf8'))
        ) as {
          resourceSpans: Array<{ resource: { attributes: KeyValue[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
        };
        // Searched for secrets: the bytes as sent (strings are UTF-8 in both encodings), and decoded.
        raw.push(body.toString('utf8'), JSON.stringify(parsed));
        for (const rs of parsed.resourceSpans) {
          const resource = record(rs.resource.attributes);
          for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, attrs: record(s.attributes), resource });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    raw,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('traces: link → journey → proposal → each delivery attempt, one trace', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let receiver: Receiver;
  let database: TestDatabase;
  let dataDir: string;
  const processes: ConsignaProcess[] = [];
  const secrets: string[] = [];
  let linkId = '';
  // x-request-id of the POST /v1/links that created linkId, and of the one whose body came late.
  let creationRequest = '';
  let lateBodyRequest = '';

  beforeAll(async () => {
    collector = await startCollector();
    receiver = await startReceiver();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'consigna-traces-'));
    const env: Record<string, string> = {
      CONSIGNA_MASTER_KEY: 'cd'.repeat(32),
      CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'consigna-teste',
      ...(database.url ? { DATABASE_URL: database.url } : { CONSIGNA_DATA_DIR: dataDir }),
    };
    const created = await promisify(execFile)(process.execPath, [BIN, 'channels', 'create', '--name', 'Canal', '--json'], {
      env: { ...process.env, ...env },
    });
    const { clientId, clientSecret } = JSON.parse(created.stdout) as { clientId: string; clientSecret: string };
    rememberSecret(clientSecret);
    secrets.push(clientSecret);

    // On PostgreSQL, the api and the worker in processes of their own.
    const api = await startConsigna(usingPostgres() ? 'api' : 'serve', env);
    processes.push(api);
    if (usingPostgres()) processes.push(await startConsigna('worker', env));

    const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
      const answer = await fetch(`${api.url}${url}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return {
        status: answer.status,
        body: (await answer.json()) as Record<string, unknown>,
        requestId: answer.headers.get('x-request-id') ?? '',
      };
    };
    const tokenAnswer = await fetch(`${api.url}/v1/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    });
    const token = ((await tokenAnswer.json()) as { access_token: string }).access_token;
    rememberSecret(token);
    secrets.push(token);
    const auth = { authorization: `Bearer ${token}` };

    const webhook = await call('PUT', '/v1/webhooks', { url: receiver.url }, auth);
    expect(webhook.status).toBe(201);
    secrets.push(webhook.body.segredo as string);
    rememberSecret(webhook.body.segredo as string);

    const link = await call('POST', '/v1/links', { cpf: CPF, referenciaExterna: 'pedido-1' }, auth);
    expect(link.status).toBe(201);
    linkId = link.body.id as string;
    creationRequest = link.requestId;
    const url = link.body.url as string;
    secrets.push(url, linkToken(url));
    rememberSecret(url, linkToken(url));

    // A body that arrives after its headers, in a later event of the socket than the one
    // that started the request's span: the handler must still run in that span.
    const late = await postInTwoParts(
      `${api.url}/v1/links`,
      auth,
      JSON.stringify({ cpf: LATE_CPF, referenciaExterna: 'pedido-2' }),
    );
    expect(late.status).toBe(201);
    lateBodyRequest = late.requestId;
    secrets.push(late.url, linkToken(late.url));
    rememberSecret(late.url, linkToken(late.url));

    // A client that sends half a body and hangs up: its request's span still ends, "aborted".
    await postAndHangUp(api.url, '/v1/links', auth);

    // The customer opens the page (a real HTTP request carrying the link's token), then
    // the sandbox runs the rest of the journey through the same steps, then the proposal moves.
    expect((await fetch(`${api.url}/c/${linkToken(url)}`)).status).toBe(200);
    expect((await call('POST', `/v1/links/${linkId}/jornada/simular`, undefined, auth)).status).toBe(200);
    const moved = await call('POST', `/v1/links/${linkId}/proposta/simular`, { status: 'FORMALIZADA' }, auth);
    expect(moved.status).toBe(200);

    await waitFor(() => receiver.requests.some((r) => r.headers['x-service-event-type'] === 'proposta.formalizada'), {
      timeoutMs: 20_000,
      what: 'proposta.formalizada at the receiver',
    });
    // SIGTERM flushes what is queued; then the collector holds the whole trace.
    for (const p of processes) expect(await p.kill('SIGTERM')).toBe(0);
    await waitFor(() => collector.spans.some((s) => s.name === 'webhook proposta.formalizada'), {
      timeoutMs: 10_000,
      what: 'the delivery span at the collector',
    });
  }, 90_000);

  afterAll(async () => {
    await killAll();
    await receiver?.close();
    await collector?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const only = (name: string) => {
    const found = collector.spans.filter((s) => s.name === name);
    expect(found, `spans named ${name}`).not.toHaveLength(0);
    return found;
  };

  it('exports over OTLP/HTTP with the service name and role of each process', () => {
    expect([...collector.contentTypes]).toEqual(['application/x-protobuf']);
    expect(new Set(collector.spans.map((s) => s.resource['service.name']))).toEqual(new Set(['consigna-teste']));
    const roles = new Set(collector.spans.map((s) => s.resource['consigna.roles']));
    // (The api and worker commands also run the sweeper.)
    expect(roles).toEqual(usingPostgres() ? new Set(['api,sweeper', 'worker,sweeper']) : new Set(['api,worker,sweeper']));
  });

  const creationSpan = (requestId: string) => {
    const found = only('POST /v1/links').filter((s) => s.attrs['consigna.request.id'] === requestId);
    expect(found, `the span of request ${requestId}`).toHaveLength(1);
    return found[0]!;
  };

  it('puts the link, every journey step, the proposal change and every delivery attempt in one trace', () => {
    const creation = creationSpan(creationRequest);
    const trace = creation!.traceId;
    expect(creation!.kind).toBe(2); // SERVER
    expect(creation!.attrs['http.response.status_code']).toBe(201);

    const steps = collector.spans.filter((s) => s.name.startsWith('jornada '));
    expect(steps.map((s) => s.name)).toEqual(
      expect.arrayContaining(['jornada abrir', 'jornada comecar', 'jornada codigo', 'jornada consulta', 'jornada proposta']),
    );
    for (const step of steps) {
      expect(step.traceId, step.name).toBe(trace);
      expect(step.parentSpanId, step.name).toBe(creation!.spanId);
      expect(step.attrs['consigna.link.id']).toBe(linkId);
    }
    // Each step also points at the request that carried it (its own trace).
    const [opened] = only('jornada abrir');
    const [page] = only('GET /c/:token');
    expect(opened!.links?.map((l) => l.spanId)).toContain(page!.spanId);

    // The bank's answers, each under the step that waited for it, with nothing of the call.
    const byName = (name: string) => collector.spans.filter((s) => s.name === name);
    const stepIds = new Set(steps.map((s) => s.spanId));
    for (const name of [
      'banco sendCode',
      'banco verifyCode',
      'banco checkEligibility',
      'banco listOffers',
      'banco createProposal',
    ]) {
      expect(byName(name), name).not.toHaveLength(0);
      for (const call of byName(name)) {
        expect(call.traceId).toBe(trace);
        expect(stepIds.has(call.parentSpanId!), `${name} under a step`).toBe(true);
        expect(call.attrs).toEqual({});
      }
    }

    const [change] = only('proposta status');
    expect(change!.traceId).toBe(trace);
    expect(change!.attrs['consigna.proposta.status']).toBe('FORMALIZADA');

    // Every attempt the receiver got is a span of that trace, whose parent recorded the event.
    const byId = new Map(collector.spans.map((s) => [s.spanId, s]));
    expect(receiver.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of receiver.requests) {
      const tipo = String(request.headers['x-service-event-type']);
      const eventId = String(request.headers['x-service-event-id']);
      const attempts = collector.spans.filter((s) => s.name === `webhook ${tipo}` && s.attrs['consigna.event.id'] === eventId);
      expect(attempts, `${tipo} attempt span`).toHaveLength(1);
      const attempt = attempts[0]!;
      expect(attempt.kind).toBe(3); // CLIENT
      expect(attempt.traceId).toBe(trace);
      expect(attempt.attrs['http.response.status_code']).toBe(200);
      expect(attempt.attrs['consigna.delivery.attempt']).toBe(1);
      const parent = byId.get(attempt.parentSpanId!);
      expect(parent?.name).toBe(tipo === 'proposta.formalizada' ? 'proposta status' : 'jornada proposta');
      if (usingPostgres()) {
        // Recorded by the api process, attempted by the worker process.
        expect(parent!.resource['consigna.roles']).toMatch(/^api,/);
        expect(attempt.resource['consigna.roles']).toMatch(/^worker,/);
        expect(attempt.resource['process.pid']).not.toBe(parent!.resource['process.pid']);
      }
    }
  });

  it('gives database statements spans named after the statement, with no SQL text and no values', () => {
    const statements = collector.spans.filter((s) => s.attrs['db.system.name'] === 'postgresql');
    const names = new Set(statements.map((s) => s.name));
    for (const name of ['insert links', 'select links', 'insert events', 'insert deliveries', 'update proposals']) {
      expect(names, name).toContain(name);
    }
    // What the driver runs itself around a transaction makes no span: the statements in it do.
    for (const name of ['begin', 'commit', 'rollback', 'start', 'savepoint', 'release']) expect(names, name).not.toContain(name);
    // Only within a trace: the worker's claims and the sweeper's rounds make no trace of their own.
    for (const s of statements) expect(s.parentSpanId, s.name).toBeTruthy();
    const allowed = ['db.system.name', 'db.query.summary', 'db.response.returned_rows', 'db.response.status_code', 'error.type'];
    for (const s of statements) {
      for (const key of Object.keys(s.attrs)) expect(allowed, `${s.name}: ${key}`).toContain(key);
      expect(s.attrs['db.query.summary']).toBe(s.name);
    }
    // The statement that created the link ran inside the request that created it.
    const creation = creationSpan(creationRequest);
    const insert = statements.filter((s) => s.name === 'insert links' && s.traceId === creation.traceId);
    expect(insert).toHaveLength(1);
    expect(insert[0]!.parentSpanId).toBe(creation.spanId);
  });

  it('keeps a request whose body arrived after its headers in its span', () => {
    const request = creationSpan(lateBodyRequest);
    expect(request.attrs['http.response.status_code']).toBe(201);
    const insert = collector.spans.filter((s) => s.name === 'insert links' && s.traceId === request.traceId);
    expect(insert, 'insert links in the late request’s trace').toHaveLength(1);
    expect(insert[0]!.parentSpanId).toBe(request.spanId);
  });

  it('ends the span of a request whose client went away before its answer as aborted', () => {
    const aborted = only('POST /v1/links').filter((s) => s.attrs['error.type'] === 'aborted');
    expect(aborted).toHaveLength(1);
    expect(aborted[0]!.status?.code).toBe(2); // ERROR
    expect(aborted[0]!.attrs['http.response.status_code']).toBeUndefined();
    // Every other request of the run ended with its answer.
    for (const s of collector.spans.filter((s) => s.kind === 2 && s !== aborted[0])) {
      expect(s.attrs['http.response.status_code'], s.name).toBeGreaterThanOrEqual(200);
    }
  });

  it('exports no secret, token, URL token, CPF or personal datum anywhere', () => {
    const everything = collector.raw.join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    const personal = [
      CPF,
      '123.456.789-09',
      LATE_CPF,
      SIMULATED_PHONE,
      SIMULATED_CUSTOMER.nome,
      SIMULATED_CUSTOMER.email,
      'pedido-1', // the channel's own reference: its data, not ours to spread
      'pedido-2',
      receiver.url,
    ];
    for (const value of [...secrets, ...personal]) {
      expect(value.length).toBeGreaterThan(5);
      expect(everything.includes(value), `exported: ${value.slice(0, 12)}…`).toBe(false);
    }
    // No attribute of any span holds a URL or a header.
    for (const s of collector.spans) {
      for (const key of Object.keys(s.attrs))
        expect(key).not.toMatch(/^(url\.|http\.request\.header|http\.response\.header|client\.|user_agent)/);
    }
  });
});

/** Headers and 10 of a body's announced 1,000 bytes, then the connection closed once the service has read them. */
async function postAndHangUp(base: string, path: string, headers: Record<string, string>): Promise<void> {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const lines = Object.entries({
    ...headers,
    host: `${hostname}:${port}`,
    'content-type': 'application/json',
    'content-length': '1000',
  });
  socket.write(`POST ${path} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n{"cpf":"12`);
  await new Promise((resolve) => setTimeout(resolve, 200));
  socket.destroy();
  await new Promise((resolve) => socket.once('close', resolve));
}

/** A JSON POST whose headers and first bytes go out at once, and the rest of the body 100 ms later. */
function postInTwoParts(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; requestId: string; url: string }> {
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(body);
    const request = http.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(bytes.length) },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { url?: string };
        resolve({
          status: response.statusCode ?? 0,
          requestId: String(response.headers['x-request-id'] ?? ''),
          url: parsed.url ?? '',
        });
      });
    });
    request.flushHeaders();
    request.write(bytes.subarray(0, 10));
    setTimeout(() => request.end(bytes.subarray(10)), 100);
  });
}
