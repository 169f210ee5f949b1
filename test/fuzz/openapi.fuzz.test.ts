// Hostile input, generated from the served OpenAPI document: for every operation,
// valid, boundary and malformed bodies, headers, path ids and query strings. Holds:
// no 5xx, every error has a documented status and code with the standard shape,
// and a refused request leaves the data untouched.
// CI runs a fixed seed and a bounded number of cases; a longer run:
//   FUZZ_RUNS=3000 FUZZ_SEED=$RANDOM npx vitest run test/fuzz
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { channelWithRegisteredInbox } from '../sandbox/support.ts';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  minimum?: number;
  maximum?: number;
  format?: string;
  additionalProperties?: boolean | Schema;
};
type Operation = {
  parameters?: Array<{ name: string; in: string; schema: Schema; required?: boolean }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: unknown[];
};

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
// Bound on every answer. All are /v1 JSON; the largest legitimate ones are the lists, at
// most 100 events or deliveries (limite ≤ 100) of about 1 KB each (GET /v1/eventos/{id}
// measured 1 KB), so some 100 KB; the largest measured in this test is 1 KB (40 and 300
// runs). 256 KiB leaves 2.5× that and still catches an answer that echoes or amplifies.
const MAX_RESPONSE_BYTES = 256 * 1024;
// The inbox list shows the newest 50 events the inbox received, i.e. what this test posted
// to it: its bound is the larger of the above and ten times the bytes (body and headers)
// of the last 50 requests posted to the inbox (JSON escaping writes a character as up to
// six bytes). The receiving operation comes after the list in the document, so today the
// list only ever holds the service's own deliveries.
const INBOX_EXPANSION = 10;
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

const nasty = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'null',
    'true',
    '[]',
    '{}',
    '%00',
    '../../etc/passwd',
    "' or 1=1 --",
    '<script>',
    '𝕏💥',
    'a'.repeat(5000),
    // Classes of the attacker's probe (issue 13): NUL and other controls, lone
    // surrogates, bidi overrides, line separators, deep nesting as text.
    'x\u0000',
    '\u0000',
    'a\u001bb',
    '\ud800',
    'x\udc00y',
    'fatura\u202Egpj',
    'a\u2028b',
    '\u0085',
    '['.repeat(5000),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/**
 * Instants as date parameters: valid ones, and what the date-time format admits but a
 * Date or the database cannot hold (a leap second, year 0, the end of year 9999, the
 * widest offsets, more fraction digits than anyone keeps), and near misses.
 */
const instants = fc.oneof(
  fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    '2026-12-31T23:59:60Z',
    '2026-06-30T23:59:60.999Z',
    '2026-11-22T14:00:60-03:00',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999999999Z',
    '2026-11-22T14:00:00+23:59',
    '2026-11-22T14:00:00-23:59',
    '2026-02-29T00:00:00Z',
    '2028-02-29T00:00:00Z',
    '2026-11-22T24:00:00Z',
    '2026-11-22T14:00:00.123456789012345678901234567890Z',
    '2026-11-22 14:00:00Z',
    '2026-11-22t14:00:00z',
    '+002026-11-22T14:00:00Z',
    '2026-11-22',
  ),
);

/** A value that fits the schema (or, with `wild`, anything at all). */
function valueFor(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 2 });
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => valueFor(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date-time') return fc.oneof(instants, nasty);
      if (schema.format === 'uri') return fc.webUrl();
      return fc.oneof(
        fc.constantFrom('12345678909', '11987654321', 'https://hooks.example.com/x', 'proposta.criada', 'pedido-000001'),
        nasty,
      );
    case 'integer':
      return fc.oneof(
        fc.integer({ min: schema.minimum ?? -10, max: schema.maximum ?? 1000 }),
        fc.constantFrom(0, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e20, 101, 200, 500),
      );
    case 'number':
      return fc.double();
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(schema.items, depth + 1), { maxLength: 4 });
    case 'object': {
      const props = Object.entries(schema.properties ?? {});
      const record = Object.fromEntries(props.map(([k, s]) => [k, valueFor(s, depth + 1)]));
      return fc.record(record, { requiredKeys: [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** encodeURIComponent, except that a lone surrogate goes out as the bytes of its CESU-8 form (an ill-formed UTF-8 sequence). */
const encodePathParam = (value: string): string =>
  value.isWellFormed()
    ? encodeURIComponent(value)
    : [...value].map((c) => (c.isWellFormed() ? encodeURIComponent(c) : '%ED%A0%80')).join('');

/** JSON nested far past the depth bound, at the top or inside a field. */
const deepJson = fc
  .constantFrom(4000, 4500, 65)
  .chain((depth) =>
    fc.constantFrom(
      '['.repeat(depth) + ']'.repeat(depth),
      `{"cpf":"12345678909","referenciaExterna":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      `{"url":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
    ),
  );

/** Bodies: fitting the schema, any JSON, malformed text, or with extra fields. */
function bodyFor(schema: Schema | undefined): fc.Arbitrary<{ payload: string | undefined; contentType: string | undefined }> {
  const json = (value: fc.Arbitrary<unknown>) =>
    value.map((v) => ({ payload: JSON.stringify(v) ?? 'null', contentType: 'application/json' }));
  return fc.oneof(
    json(valueFor(schema)),
    json(
      valueFor(schema).chain((v) =>
        fc.record({ extra: fc.jsonValue() }).map((e) => (typeof v === 'object' && v && !Array.isArray(v) ? { ...v, ...e } : v)),
      ),
    ),
    json(fc.jsonValue({ maxDepth: 3 })),
    fc.record({
      payload: fc.oneof(fc.constantFrom('{', '{"cpf":', '[1,2', 'null', '""', '\u0000'), fc.string(), deepJson),
      contentType: fc.constant('application/json'),
    }),
    fc.record({
      payload: fc.string(),
      contentType: fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
      ),
    }),
    fc.constant({ payload: undefined, contentType: undefined }),
  );
}

describe('hostile input from the OpenAPI document', () => {
  let service: TestService;
  let auth: Record<string, string>;
  let spec: { paths: Record<string, Record<string, Operation>> };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    service = await startTestService({
      env: { CONSIGNA_RATE_LIMIT_API: '0/60', CONSIGNA_RATE_LIMIT_INBOX: '0/60', CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true' },
    });
    const setup = await channelWithRegisteredInbox(service);
    auth = setup.auth;
    ids.token = setup.token;
    const link = (await createLinkVia(service, auth, { cpf: '12345678909' })).json();
    const journey = new JourneyClient(service, link.url);
    await journey.upToReview();
    await journey.post('proposta');
    ids.link = link.id;
    const delivery = await service.ctx.database.db.selectFrom('deliveries').select('id').executeTakeFirstOrThrow();
    ids.delivery = delivery.id;
    spec = JSON.parse((await service.inject({ method: 'GET', url: '/openapi.json' })).body);
  });
  afterAll(() => service.close());

  /** What a refused request must not change (the guard and rate counters are side effects by design). */
  const fingerprint = async () =>
    (
      await sql<{ f: string }>`select concat_ws('|',
        (select count(*) from channels), (select count(*) from access_tokens), (select count(*) from links),
        (select string_agg(status, ',' order by id) from links), (select count(*) from idempotency_keys),
        (select count(*) from proposals), (select string_agg(status, ',' order by numero) from proposals),
        (select count(*) from events), (select string_agg(status || tentativas, ',' order by id) from deliveries),
        (select string_agg(url || array_to_string(eventos, ';') || encode(secret_sealed, 'hex'), ',') from webhooks),
        (select string_agg(responder_status::text, ',') from inboxes), (select count(*) from inbox_events)
      ) as f`.execute(service.ctx.database.db)
    ).rows[0]!.f;

  it('never answers 5xx, documents every error, and refused requests change nothing', async () => {
    const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(17);
    let checked = 0;
    const postedToInbox: number[] = [];
    for (const { path, method, op } of operations) {
      // An event stream never ends by itself: its answer is read up to the first message.
      const streaming = Boolean(
        (op.responses['200'] as { content?: Record<string, unknown> } | undefined)?.content?.['text/event-stream'],
      );
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
      const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
      const known = (name: string) => (name === 'token' ? ids.token! : path.includes('entregas') ? ids.delivery! : ids.link!);
      const request = fc.record({
        params: fc.tuple(...pathParams.map((p) => fc.oneof(fc.constant(known(p.name)), fc.uuid(), nasty))),
        query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, fc.oneof(valueFor(p.schema).map(String), nasty)])), {
          requiredKeys: [],
        }),
        body: bodyFor(
          op.requestBody?.content['application/json']?.schema ??
            op.requestBody?.content['application/x-www-form-urlencoded']?.schema,
        ),
        authMode: fc.constantFrom('valid', 'valid', 'valid', 'none', 'garbage'),
        idempotencyKey: fc.option(nasty, { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ params, query, body, authMode, idempotencyKey }) => {
          let url = path;
          pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, encodePathParam(String(params[i])))));
          const qs = new URLSearchParams(query as Record<string, string>).toString();
          const headers: Record<string, string> = {};
          if (authMode === 'valid') Object.assign(headers, auth);
          if (authMode === 'garbage') headers.authorization = 'Bearer cat_' + 'x'.repeat(48);
          if (body.contentType) headers['content-type'] = body.contentType;
          if (idempotencyKey !== undefined && /^[\x20-\x7e]*$/.test(idempotencyKey)) headers['idempotency-key'] = idempotencyKey;
          const before = await fingerprint();
          const response = await service.inject({
            method: method.toUpperCase() as 'GET',
            url: qs ? `${url}?${qs}` : url,
            headers,
            payload: body.payload,
            ...(streaming ? { payloadAsStream: true } : {}),
          });
          const text = streaming ? await firstMessageOrAll(response) : response.body;
          const json = () => JSON.parse(text);
          // The test inbox answers with whatever status it was set to (an earlier
          // fuzzed request may have set 500): that is its documented behaviour.
          const configuredAnswer = path === '/v1/sandbox/receptor/{token}' && (text === '{"recebido":true}' || text === '');
          const status = configuredAnswer ? 200 : response.statusCode;
          const label = `${method.toUpperCase()} ${url}?${qs} → ${status} ${text.slice(0, 300)}`;
          expect(status < 500 || (status === 503 && json().code === 'banco_indisponivel'), label).toBe(true);
          expect(response.headers['x-request-id'], label).toBeTruthy();
          const bound =
            method === 'get' && path === '/v1/sandbox/receptor/{token}/eventos'
              ? Math.max(MAX_RESPONSE_BYTES, INBOX_EXPANSION * postedToInbox.slice(-50).reduce((a, b) => a + b, 0))
              : MAX_RESPONSE_BYTES;
          expect(Buffer.byteLength(text), `response too large (bound ${bound}): ${label}`).toBeLessThan(bound);
          if (method === 'post' && path === '/v1/sandbox/receptor/{token}')
            postedToInbox.push(Buffer.byteLength(body.payload ?? '') + Buffer.byteLength(JSON.stringify(headers)));
          if (streaming && status === 200) expect(text, label).toMatch(/^retry: \d+\nid: \d+\nevent: pronto\n/);
          if (status >= 400) {
            const documented = op.responses[String(status)] ?? (status === 404 ? { content: undefined } : undefined);
            expect(documented, `undocumented status: ${label}`).toBeDefined();
            const body = json();
            const shape =
              path === '/v1/oauth/token' ? ['error', 'error_description', 'requestId'] : ['code', 'message', 'requestId'];
            expect(Object.keys(body).sort(), label).toEqual([...shape].sort());
            const codeKey = shape[0]!;
            const allowed = documented?.content?.['application/json']?.schema.properties?.[codeKey]?.enum;
            if (allowed) expect(allowed, label).toContain(body[codeKey]);
            expect(body.requestId).toBe(response.headers['x-request-id']);
            expect(await fingerprint(), `refused request changed data: ${label}`).toBe(before);
          }
          checked += 1;
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
    expect(checked).toBe(RUNS * operations.length);
  }, 600_000);
});

/** A streamed answer: up to its first message when it is an event stream (then let go), whole otherwise. */
async function firstMessageOrAll(response: { statusCode: number; stream(): NodeJS.ReadableStream }): Promise<string> {
  const stream = response.stream() as NodeJS.ReadableStream & { destroy(): void };
  let text = '';
  for await (const chunk of stream) {
    text += String(chunk);
    if (response.statusCode === 200 && text.includes('\n\n')) {
      stream.destroy();
      break;
    }
  }
  return text;
}
