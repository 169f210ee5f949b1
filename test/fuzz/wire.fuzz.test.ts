// Hostile bytes on the wire, against a real `consigna serve` process: every operation
// of the served OpenAPI document and every hosted page (the targets) meets every class
// of hostile input, in a fixed order (target × class): deep nesting, NUL and other
// control characters, lone surrogates (ill-formed UTF-8 and \u escapes), malformed
// headers, duplicated headers, and requests cut short. Each case starts from a request
// the target would accept (its method, known ids, a token, same-origin for pages, a
// fitting body) and spoils one part of it, so the hostile bytes reach the parsers and,
// where they get past them, the handlers. Holds for every case: no 5xx, no process
// exit, no error logged, and an answer no larger than the largest legitimate one (with
// a margin, see MAX_RESPONSE_BYTES).
// Variation inside a class (which value, depth, cut point, header) comes from a PRNG
// seeded per (seed, target, class, case), so a case replays alone. CI runs a fixed
// seed and 2 cases per pair; a longer run:
//   FUZZ_RUNS=3000 FUZZ_SEED=$RANDOM npx vitest run test/fuzz
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, serveWithChannel, type ServedChannel } from '../helpers/processes.ts';
import { rememberSecret } from '../helpers/secrets.ts';

/** Cases per (target, class) pair: 2 by default, 150 with FUZZ_RUNS=3000. */
const CASES_PER_PAIR = Math.max(1, Math.round(Number(process.env.FUZZ_RUNS ?? 40) / 20));
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
// Bound on every answer. The largest legitimate answer among these targets is
// GET /openapi.yaml, 360 KB (measured; then /openapi.json and /docs/referencia/json
// 233 KB, /docs/referencia/static/swagger-ui.css 188 KB, /metrics 165 KB after this run
// and 230 KB after a 10× longer one (it grows with method/route/status series, not with
// input), /docs 69 KB, /docs/guia.md 51 KB; /v1 JSON answers under 2 KB, bar the inbox
// list). 1 MiB is about three times the largest: room for the document to grow, while an
// answer that echoes or amplifies its input, or never ends, is caught. The test ends by
// checking that the legitimate answers stay under half of it. (The 1.7 MB swagger-ui
// bundle is not a target.)
const MAX_RESPONSE_BYTES = 1024 * 1024;
// The inbox list and viewer show the newest 50 events the inbox received, i.e. what this
// file posted to it: their bound is the larger of the above and ten times the bytes of
// the last 50 requests posted to the inbox (the viewer pretty-prints up to 4× and
// HTML-escapes a quote to 6 bytes). Measured: under 30 KB with 2 cases per pair, under
// 60 KB with 20 (the service's own webhook deliveries crowd the fuzz's posts out), so
// only a long run whose last 50 posts are large ever raises it above 1 MiB.
const INBOX_EXPANSION = 10;
const INBOX_VIEWS = new Set(['GET /v1/sandbox/receptor/{token}/eventos', 'GET /sandbox/receptor/{token}']);
/** A whole request with no answer within this time counts as a hang. */
const ANSWER_TIMEOUT_MS = 10_000;

const CLASSES = [
  'deep-nesting',
  'control-characters',
  'lone-surrogates',
  'malformed-headers',
  'duplicated-headers',
  'cut-short',
] as const;
type InputClass = (typeof CLASSES)[number];

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  enum?: unknown[];
  format?: string;
  minimum?: number;
};
interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: Array<Record<string, unknown>>;
}

interface Target {
  method: string;
  /** Path with `{name}` placeholders. */
  path: string;
  /** The OpenAPI operation (hosted pages have none). */
  op?: Operation;
}

const HOSTED: Target[] = [
  { method: 'GET', path: '/c/{link}' },
  ...['comecar', 'celular', 'codigo', 'reenviar', 'consulta', 'oferta', 'dados', 'voltar', 'proposta', 'inexistente'].map(
    (action) => ({ method: 'POST', path: `/c/{link}/${action}` }),
  ),
  { method: 'GET', path: '/sandbox/receptor/{token}' },
  { method: 'POST', path: '/sandbox/receptor/{token}/modo' },
  { method: 'POST', path: '/sandbox/receptor/{token}/limpar' },
  { method: 'GET', path: '/sandbox/assinatura/{assinatura}' },
  { method: 'GET', path: '/docs' },
  { method: 'GET', path: '/docs/guia.md' },
  { method: 'GET', path: '/docs/referencia' },
  { method: 'GET', path: '/docs/referencia/{doc}' },
  { method: 'GET', path: '/docs/referencia/static/{file}' },
  { method: 'GET', path: '/assets/{asset}' },
  { method: 'GET', path: '/marca/logo/{hash}' },
  { method: 'GET', path: '/marca/cor/{accent}' },
  { method: 'GET', path: '/openapi.yaml' },
  { method: 'GET', path: '/openapi.json' },
  { method: 'GET', path: '/metrics' },
];

/** The form fields of the hosted pages (journey steps and the inbox viewer), with acceptable values. */
const PAGE_FORM: Array<[string, string]> = [
  ['celular', '11987654321'],
  ['codigo', '123456'],
  ['autorizo', 'on'],
  ['oferta', '1'],
  ['nome', 'Ana Souza'],
  ['dataNascimento', '01/02/1990'],
  ['email', 'ana@example.com'],
  ['chavePix', 'ana@example.com'],
  ['responderStatus', '202'],
];

/** Ids and addresses the requests start from. */
interface Fixture {
  port: number;
  origin: string;
  bearer: string;
  inboxUrl: string;
  params: Record<string, string>;
  linkId: string;
  eventId: string;
  deliveryId: string;
}

// ---------------------------------------------------------------------------------
// Seeded variation

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** FNV-1a of the parts: a case's seed does not depend on how many targets or cases come before it. */
function seedOf(...parts: Array<string | number>): number {
  let hash = 0x811c9dc5;
  for (const c of parts.join('|')) hash = Math.imul(hash ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

// ---------------------------------------------------------------------------------
// Hostile values

const CONTROLS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\u0008',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085', // NEL
  '\u009b', // C1 CSI
  '\u2028',
  '\u2029',
  '\u202e', // right-to-left override
  '\ufeff',
  '\t',
  '\r',
  '\n',
];

function controlValue(rng: Rng): string {
  const c = rng.pick(CONTROLS);
  switch (rng.int(0, 4)) {
    case 0:
      return c;
    case 1:
      return `x${c}y`;
    case 2:
      return `12345678909${c}`;
    case 3:
      return c.repeat(rng.int(2, 64));
    default:
      return Array.from({ length: rng.int(2, 12) }, () => rng.pick(CONTROLS)).join('a');
  }
}

function surrogateValue(rng: Rng): string {
  const lone = () => String.fromCharCode(rng.int(0xd800, 0xdfff));
  const high = String.fromCharCode(rng.int(0xd800, 0xdbff));
  const low = String.fromCharCode(rng.int(0xdc00, 0xdfff));
  switch (rng.int(0, 5)) {
    case 0:
      return lone();
    case 1:
      return `x${lone()}y`;
    case 2:
      return `11987654321${high}`; // a pair cut after its first half
    case 3:
      return `${low}${high}`; // a pair in the wrong order
    case 4:
      return `ok 💥 ${lone()} 𝕏`;
    default:
      return Array.from({ length: rng.int(2, 40) }, lone).join('');
  }
}

/** Nested arrays and objects as text: at the depth bound (64), just past it, or far past it. */
function deepJsonText(rng: Rng): string {
  const depth = rng.pick([65, 66, 1000, 4500]);
  switch (rng.int(0, 2)) {
    case 0:
      return '['.repeat(depth) + ']'.repeat(depth);
    case 1:
      return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    default:
      return '[{"a":'.repeat(Math.ceil(depth / 2)) + 'null' + '}]'.repeat(Math.ceil(depth / 2));
  }
}

/** Nesting as plain text (a form field, a query value, a header). */
function deepText(rng: Rng, maxChars = 9000): string {
  const unit = rng.pick(['[', '{', '{"a":', '[a]', '(']);
  return unit.repeat(Math.floor(rng.int(maxChars / 10, maxChars) / unit.length));
}

/** UTF-8, except that a lone surrogate goes out as the three bytes of its CESU-8 form (ill-formed UTF-8). */
function wtf8(value: string): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      parts.push(Buffer.from(value.slice(i, i + 2), 'utf8'));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      parts.push(Buffer.from([0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]));
    } else parts.push(Buffer.from(value[i]!, 'utf8'));
  }
  return Buffer.concat(parts);
}

/** Every byte but the unreserved ones percent-encoded (lone surrogates as %ED%A0%80 and the like). */
const pct = (value: string): string =>
  [...wtf8(value)]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** The bytes as a header value goes on the wire (latin1), on one line. */
const headerBytes = (value: string): string =>
  wtf8(value)
    .toString('latin1')
    .replace(/[\r\n]/g, ' ');

/** A JSON string literal with only `"` and `\` escaped: raw control characters and surrogates stay in (invalid JSON). */
const rawJsonString = (value: string): string => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;

// ---------------------------------------------------------------------------------
// Requests

interface WireRequest {
  method: string;
  /** The path, already encoded. */
  path: string;
  query: string;
  version: string;
  /** Replaces the request line built from the fields above. */
  requestLine?: string;
  /** In order; a plain string is a raw line, sent as is. */
  headers: Array<[string, string] | string>;
  contentType?: string;
  body?: Buffer;
  /** How the body is framed: its Content-Length, chunks (with or without the last chunk), a declared length, or nothing added. */
  framing: 'length' | 'chunked' | 'chunked-unterminated' | 'none' | { declared: string };
  /** Sends only the first bytes of the serialized request: given the head and total sizes, how many. */
  cut?: (headBytes: number, totalBytes: number) => number;
  /** After the bytes: wait for the answer, half-close (end of input), or drop the connection. */
  ending: 'wait' | 'half-close' | 'abort';
  /** Added to the variant's name in a failure message. */
  note?: string;
}

interface Case {
  target: Target;
  targetIndex: number;
  rng: Rng;
  fx: Fixture;
}

const takesBody = (t: Target) => t.method !== 'GET';
const pathParamsOf = (t: Target) => [...t.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const queryParamsOf = (t: Target) =>
  t.op
    ? (t.op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
    : t.path.startsWith('/sandbox/receptor')
      ? ['aviso']
      : [];
const jsonSchemaOf = (t: Target) => t.op?.requestBody?.content['application/json']?.schema;
const isForm = (t: Target) =>
  Boolean(t.op?.requestBody?.content['application/x-www-form-urlencoded']) || (!t.op && t.method === 'POST');

function knownParam(fx: Fixture, t: Target, name: string): string {
  if (name === 'id') return t.path.includes('entregas') ? fx.deliveryId : t.path.includes('eventos') ? fx.eventId : fx.linkId;
  return fx.params[name] ?? fx.linkId;
}

/** A value the schema accepts, the same every time. */
function exampleFor(schema: Schema | undefined, fx: Fixture, name = ''): unknown {
  if (!schema) return undefined;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, exampleFor(s, fx, k)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (schema.format === 'uri' || /^url/.test(name)) return fx.inboxUrl;
      return (
        { cpf: '12345678909', celular: '11987654321', nome: 'Loja Exemplo', cor: '#0b5fff', grant_type: 'client_credentials' }[
          name
        ] ?? 'pedido-000001'
      );
  }
}

/** The fields a body of the target carries, with acceptable values. */
function fieldsOf(c: Case): Array<[string, unknown]> {
  const t = c.target;
  if (!t.op && t.method === 'POST') return [...PAGE_FORM];
  const form = t.op?.requestBody?.content['application/x-www-form-urlencoded'];
  if (form)
    return [
      ['grant_type', 'client_credentials'],
      ['client_id', 'cid_wirefuzz'],
      ['client_secret', 'csk_wirefuzz'],
    ];
  const example = exampleFor(jsonSchemaOf(t), c.fx);
  if (example && typeof example === 'object') return Object.entries(example);
  return [
    ['tipo', 'teste.recebido'],
    ['dados', { texto: 'olá' }],
  ];
}

/** The request the target would take: its method, known ids, a token, same-origin, a fitting body. */
function baseline(c: Case): WireRequest {
  const { target: t, fx } = c;
  const path = t.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(knownParam(fx, t, name)));
  const headers: WireRequest['headers'] = [
    ['Host', `127.0.0.1:${fx.port}`],
    ['Connection', 'close'],
    ['User-Agent', 'consigna-wire-fuzz/1'],
  ];
  if (t.op?.security?.some((s) => 'bearerAuth' in s)) headers.push(['Authorization', fx.bearer]);
  if (t.path === '/v1/oauth/token')
    headers.push(['Authorization', `Basic ${Buffer.from('cid_wirefuzz:csk_wirefuzz').toString('base64')}`]);
  if (!t.op && t.method === 'POST') headers.push(['Origin', fx.origin]);
  const request: WireRequest = {
    method: t.method,
    path,
    query: '',
    version: 'HTTP/1.1',
    headers,
    framing: 'length',
    ending: 'wait',
  };
  if (isForm(t)) {
    request.contentType = 'application/x-www-form-urlencoded';
    request.body = Buffer.from(new URLSearchParams(fieldsOf(c).map(([k, v]) => [k, String(v)])).toString());
  } else if (jsonSchemaOf(t) || t.path === '/v1/sandbox/receptor/{token}') {
    request.contentType = 'application/json';
    request.body = Buffer.from(JSON.stringify(Object.fromEntries(fieldsOf(c))));
  }
  return request;
}

function setHeader(request: WireRequest, name: string, value: string): void {
  const at = request.headers.findIndex((h) => typeof h !== 'string' && h[0].toLowerCase() === name.toLowerCase());
  if (at >= 0) request.headers[at] = [name, value];
  else request.headers.push([name, value]);
}

function serialize(request: WireRequest): { head: Buffer; bytes: Buffer } {
  const line =
    request.requestLine ?? `${request.method} ${request.path}${request.query ? `?${request.query}` : ''} ${request.version}`;
  const lines = [line, ...request.headers.map((h) => (typeof h === 'string' ? h : `${h[0]}: ${h[1]}`))];
  let payload = request.body ?? Buffer.alloc(0);
  if (request.body) {
    if (request.contentType !== undefined) lines.push(`Content-Type: ${request.contentType}`);
    const framing = request.framing;
    if (framing === 'length') lines.push(`Content-Length: ${payload.length}`);
    else if (typeof framing === 'object') lines.push(`Content-Length: ${framing.declared}`);
    else if (framing !== 'none') {
      lines.push('Transfer-Encoding: chunked');
      const half = Math.ceil(payload.length / 2);
      const chunks = [payload.subarray(0, half), payload.subarray(half)].filter((p) => p.length > 0);
      payload = Buffer.concat([
        ...chunks.flatMap((p) => [Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]),
        Buffer.from(framing === 'chunked' ? '0\r\n\r\n' : ''),
      ]);
    }
  }
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
  const whole = Buffer.concat([head, payload]);
  return { head, bytes: request.cut ? whole.subarray(0, request.cut(head.length, whole.length)) : whole };
}

// ---------------------------------------------------------------------------------
// The classes: each a list of variants; case i of target j takes variant (j × cases + i)
// modulo the variants that fit the target, so the variants spread evenly over targets.

interface Variant {
  name: string;
  /** Where the hostile part goes: a body variant is offered once to a target that takes no body. */
  kind: 'body' | 'query' | 'path' | 'header' | 'wire';
  fits?: (t: Target) => boolean;
  apply: (request: WireRequest, c: Case) => void;
}

/** Headers the service reads past the HTTP parser, none of them deciding authentication. */
const SOFT_HEADERS = [
  'User-Agent',
  'Idempotency-Key',
  'X-Forwarded-For',
  'Last-Event-ID',
  'Accept-Language',
  'Referer',
  'Cookie',
  'If-None-Match',
  'Accept-Encoding',
];

function withFields(c: Case, value: () => string): Array<[string, unknown]> {
  const fields = fieldsOf(c);
  // One field spoilt (the others stay acceptable, so the value travels further), or all of them.
  const one = c.rng.chance(0.5) ? c.rng.int(0, fields.length - 1) : -1;
  return fields.map(([k, v], i) => [k, one < 0 || i === one ? value() : v]);
}

/** The variants of a class whose hostile part is a string value: in JSON (escaped and raw), a form, the query, a path segment, a header. */
function valueVariants(value: (rng: Rng) => string): Variant[] {
  return [
    {
      name: 'json-escaped',
      kind: 'body',
      apply: (r, c) => {
        r.contentType = 'application/json';
        r.body = wtf8(JSON.stringify(Object.fromEntries(withFields(c, () => value(c.rng)))));
      },
    },
    {
      name: 'json-raw',
      kind: 'body',
      apply: (r, c) => {
        r.contentType = 'application/json';
        const members = withFields(c, () => `\u0000RAW${value(c.rng)}`).map(
          ([k, v]) =>
            `${JSON.stringify(k)}:${typeof v === 'string' && v.startsWith('\u0000RAW') ? rawJsonString(v.slice(4)) : JSON.stringify(v)}`,
        );
        r.body = wtf8(`{${members.join(',')}}`);
      },
    },
    {
      name: 'form',
      kind: 'body',
      apply: (r, c) => {
        r.contentType = 'application/x-www-form-urlencoded';
        const raw = c.rng.chance(0.3);
        const fields = withFields(c, () => value(c.rng));
        r.body = Buffer.concat(
          fields.map(([k, v], i) =>
            Buffer.concat([Buffer.from(`${i ? '&' : ''}${k}=`), raw ? wtf8(String(v)) : Buffer.from(pct(String(v)))]),
          ),
        );
      },
    },
    {
      name: 'query',
      kind: 'query',
      apply: (r, c) => {
        const names = [...queryParamsOf(c.target), 'q'];
        r.query = names.map((n) => `${n}=${c.rng.chance(0.8) ? pct(value(c.rng)) : 'x'}`).join('&');
      },
    },
    {
      name: 'path-segment',
      kind: 'path',
      fits: (t) => pathParamsOf(t).length > 0,
      apply: (r, c) => {
        const names = pathParamsOf(c.target);
        const spoilt = c.rng.pick(names);
        r.path = c.target.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === spoilt ? pct(value(c.rng)) : encodeURIComponent(knownParam(c.fx, c.target, name)),
        );
      },
    },
    {
      name: 'header-value',
      kind: 'header',
      apply: (r, c) => {
        for (const name of [c.rng.pick(SOFT_HEADERS), c.rng.pick(SOFT_HEADERS)]) setHeader(r, name, headerBytes(value(c.rng)));
      },
    },
  ];
}

const deepNesting: Variant[] = [
  {
    name: 'json-deep',
    kind: 'body',
    apply: (r, c) => {
      r.contentType = 'application/json';
      r.body = Buffer.from(deepJsonText(c.rng));
    },
  },
  {
    name: 'json-deep-field',
    kind: 'body',
    apply: (r, c) => {
      r.contentType = 'application/json';
      const deep = deepJsonText(c.rng);
      const text = JSON.stringify(Object.fromEntries(withFields(c, () => '\u0000DEEP')));
      r.body = Buffer.from(text.replaceAll('"\\u0000DEEP"', deep));
    },
  },
  {
    // At the depth bound and wide at the bottom: accepted where any JSON is (the inbox), and
    // pretty-printed later: the answer that shows it must stay bounded.
    name: 'json-at-bound-wide',
    kind: 'body',
    apply: (r, c) => {
      r.contentType = 'application/json';
      const leaves = Array.from({ length: c.rng.int(200, 3000) }, (_, i) => i).join(',');
      r.body = Buffer.from('['.repeat(63) + `[${leaves}]` + ']'.repeat(63));
    },
  },
  {
    name: 'form-deep',
    kind: 'body',
    apply: (r, c) => {
      r.contentType = 'application/x-www-form-urlencoded';
      const fields = withFields(c, () => deepText(c.rng, 4000));
      r.body = Buffer.from(
        fields
          .map(([k, v]) => `${c.rng.chance(0.3) ? `${k}${'[a]'.repeat(c.rng.int(10, 500))}` : k}=${pct(String(v))}`)
          .join('&'),
      );
    },
  },
  {
    name: 'query-deep',
    kind: 'query',
    apply: (r, c) => {
      const names = [...queryParamsOf(c.target), 'q'];
      r.query = names
        .map((n) => (c.rng.chance(0.5) ? `${n}${'[a]'.repeat(c.rng.int(10, 1000))}=1` : `${n}=${pct(deepText(c.rng, 2000))}`))
        .join('&');
    },
  },
  {
    name: 'path-deep',
    kind: 'path',
    fits: (t) => pathParamsOf(t).length > 0,
    apply: (r, c) => {
      const spoilt = c.rng.pick(pathParamsOf(c.target));
      r.path = c.target.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === spoilt ? pct(deepText(c.rng, c.rng.pick([60, 2000]))) : encodeURIComponent(knownParam(c.fx, c.target, name)),
      );
    },
  },
  {
    name: 'header-deep',
    kind: 'header',
    apply: (r, c) => setHeader(r, c.rng.pick(SOFT_HEADERS), deepText(c.rng, 8000)),
  },
];

/** Headers broken in one way each: some the HTTP parser refuses, some reach the service. */
const malformedHeaders: Variant[] = [
  { name: 'line-without-colon', kind: 'wire', apply: (r) => void r.headers.push('X-Fuzz no colon here') },
  { name: 'space-before-colon', kind: 'wire', apply: (r) => void r.headers.push('Content-Type : application/json') },
  { name: 'obs-fold', kind: 'wire', apply: (r) => void r.headers.push('X-Fuzz: a\r\n  folded onto the next line') },
  { name: 'bare-lf', kind: 'wire', apply: (r) => void r.headers.push('X-Fuzz: a\nX-Other: b') },
  {
    name: 'bad-header-name',
    kind: 'wire',
    apply: (r, c) =>
      void r.headers.push(c.rng.pick(['X Fuzz: a', 'X-Fuzz\u0001: a', ': a', 'X-Fu\u00e9zz: a', 'X-Fuzz\u0000: a'])),
  },
  {
    name: 'bad-content-length',
    kind: 'wire',
    apply: (r, c) => {
      r.body ??= Buffer.from('{}');
      r.framing = { declared: c.rng.pick(['abc', '-1', '1e3', '99999999999999999999', ' 2', '0x10', '2, 2', '+2', '']) };
      r.ending = 'half-close';
    },
  },
  {
    name: 'bad-transfer-encoding',
    kind: 'wire',
    apply: (r, c) => {
      r.body ??= Buffer.from('{}');
      r.framing = 'none';
      const value = c.rng.pick(['gzip', 'chunked, gzip', 'identity', 'Chunked ', 'chunked\u00a0', 'x-unknown']);
      r.headers.push(['Transfer-Encoding', value], ['Content-Length', String(r.body.length)]);
      r.ending = 'half-close';
    },
  },
  {
    name: 'bad-authorization',
    kind: 'header',
    apply: (r, c) =>
      setHeader(
        r,
        'Authorization',
        c.rng.pick([
          'Bearer',
          'Bearer ',
          'Basic !!!',
          'Basic eDoAeQ==', // "x:\0y"
          `Basic ${Buffer.from('\u0000:\u0000').toString('base64')}`,
          'Bearer cat_' + 'x'.repeat(48),
          `bearer ${c.fx.bearer.slice(7)}`,
          `Bearer  ${c.fx.bearer.slice(7)}`,
          `${c.fx.bearer}\u00ff`,
          `Digest username="x"`,
          'Basic ' + 'A'.repeat(8000),
        ]),
      ),
  },
  {
    name: 'bad-content-type',
    kind: 'header',
    apply: (r, c) => {
      r.body ??= Buffer.from('{}');
      r.contentType = c.rng.pick([
        ';;;',
        'application/json; charset=utf-16',
        'application/json; charset="',
        'application/json;;;a=',
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'application/x-www-form-urlencoded; charset=latin1',
        '*/*',
        '',
        'application/json\u00ff',
        'a'.repeat(4000),
      ]);
    },
  },
  {
    name: 'bad-host',
    kind: 'header',
    apply: (r, c) =>
      setHeader(
        r,
        'Host',
        c.rng.pick(['[::1', '', 'a b', '127.0.0.1:99999', 'evil.example', '127.0.0.1:1/x', '@evil', '\u00ff']),
      ),
  },
  {
    name: 'bad-origin',
    kind: 'header',
    apply: (r, c) =>
      setHeader(
        r,
        'Origin',
        c.rng.pick(['null', 'http://[::1', `${c.fx.origin}.evil.example`, '*', 'file://', `${c.fx.origin}/x`, ' ']),
      ),
  },
  {
    name: 'oversized-headers',
    kind: 'wire',
    apply: (r, c) => {
      const kind = c.rng.int(0, 2);
      if (kind === 0) r.headers.push(['X-Fuzz', 'a'.repeat(c.rng.int(8000, 20000))]);
      else if (kind === 1) for (let i = 0; i < 40; i++) r.headers.push([`X-Fuzz-${i}`, 'b'.repeat(500)]);
      else for (let i = 0; i < 2500; i++) r.headers.push([`X-F${i}`, '1']);
    },
  },
  {
    name: 'bad-expect',
    kind: 'header',
    apply: (r, c) => {
      r.body ??= Buffer.from('{}');
      r.headers.push(['Expect', c.rng.pick(['100-continue', 'nonsense', '100-continue, x'])]);
    },
  },
  {
    name: 'bad-request-line',
    kind: 'wire',
    apply: (r, c) => {
      const target = `${r.path}${r.query ? `?${r.query}` : ''}`;
      r.requestLine = c.rng.pick([
        `${r.method.toLowerCase()} ${target} HTTP/1.1`,
        `${r.method}  ${target} HTTP/1.1`,
        `${r.method} ${target} HTTP/1.7`,
        `${r.method} ${target} HTTP/2.0`,
        `${r.method} ${target}`,
        `${r.method} http://evil.example${target} HTTP/1.1`,
        `${r.method}\t${target}\tHTTP/1.1`,
        `${r.method} ${target} HTTP/1.0`,
        `${r.method} * HTTP/1.1`,
        `BREW ${target} HTTP/1.1`,
      ]);
      r.ending = 'half-close';
    },
  },
  {
    name: 'bad-soft-header',
    kind: 'header',
    apply: (r, c) =>
      setHeader(
        r,
        c.rng.pick(SOFT_HEADERS.concat(['X-Forwarded-Proto', 'Forwarded', 'X-Real-IP', 'Accept'])),
        c.rng.pick([
          '',
          ' ',
          'a, , ,',
          '999.1.1.1',
          '[::1',
          'unknown',
          'br;q=abc, gzip;q=-1',
          '-1',
          '9'.repeat(40),
          '=;=;;',
          'W/""',
          '"',
          '*;q=2',
        ]),
      ),
  },
];

/** One header sent twice (or many times), with the same or conflicting values. */
type Duplicate = { name: string; apply: (r: WireRequest, c: Case) => void };

const twice =
  (name: string, values: (c: Case) => [string, string]): Duplicate['apply'] =>
  (r, c) => {
    r.headers = r.headers.filter((h) => typeof h === 'string' || h[0].toLowerCase() !== name.toLowerCase());
    r.headers.push(...values(c).map((v): [string, string] => [name, v]));
  };
const GARBAGE_BEARER = 'Bearer cat_' + 'x'.repeat(48);

/** Duplicates that leave the framing alone (the service sees them). */
const SOFT_DUPLICATES: Duplicate[] = [
  {
    name: 'authorization',
    apply: twice('Authorization', ({ rng, fx }) =>
      rng.pick<[string, string]>([
        [fx.bearer, GARBAGE_BEARER],
        [GARBAGE_BEARER, fx.bearer],
        [fx.bearer, fx.bearer],
      ]),
    ),
  },
  {
    name: 'host',
    apply: twice('Host', ({ rng, fx }) =>
      rng.pick<[string, string]>([
        [`127.0.0.1:${fx.port}`, 'evil.example'],
        ['evil.example', `127.0.0.1:${fx.port}`],
      ]),
    ),
  },
  {
    name: 'origin',
    apply: twice('Origin', ({ rng, fx }) =>
      rng.pick<[string, string]>([
        [fx.origin, 'http://evil.example'],
        ['http://evil.example', fx.origin],
        [fx.origin, fx.origin],
      ]),
    ),
  },
  { name: 'idempotency-key', apply: twice('Idempotency-Key', ({ rng }) => [`k-${rng.int(0, 1e6)}`, `k-${rng.int(0, 1e6)}`]) },
  { name: 'cookie', apply: twice('Cookie', () => ['a=1', 'a=2; b']) },
  { name: 'x-forwarded-for', apply: twice('X-Forwarded-For', () => ['10.0.0.1', '203.0.113.9, 10.0.0.2']) },
  { name: 'user-agent', apply: twice('User-Agent', ({ rng }) => ['a', 'b'.repeat(rng.int(1, 500))]) },
  { name: 'accept-encoding', apply: twice('Accept-Encoding', () => ['br', 'gzip']) },
  { name: 'if-none-match', apply: twice('If-None-Match', () => ['"a"', 'W/"b"']) },
  { name: 'last-event-id', apply: twice('Last-Event-ID', () => ['1', '999999']) },
  {
    name: 'content-type',
    apply: (r, { rng }) => {
      r.body ??= Buffer.from('{}');
      r.contentType = undefined;
      const [first, second] = rng.pick<[string, string]>([
        ['application/json', 'application/x-www-form-urlencoded'],
        ['application/x-www-form-urlencoded', 'application/json'],
        ['application/json', 'application/json'],
      ]);
      r.headers.push(['Content-Type', first], ['Content-Type', second]);
    },
  },
  {
    name: 'many-times',
    apply: (r, { rng }) => {
      const name = rng.pick(['X-Fuzz', 'Accept', 'Cookie', 'X-Forwarded-For', 'Idempotency-Key']);
      for (let i = rng.int(100, 1500); i > 0; i--) r.headers.push([name, String(i)]);
    },
  },
];

/** Duplicated framing headers. */
const FRAMING_DUPLICATES: Duplicate[] = [
  {
    name: 'content-length',
    apply: (r, { rng }) => {
      r.body ??= Buffer.from('{}');
      r.framing = 'none';
      const length = r.body.length;
      r.headers.push(['Content-Length', String(length)], ['Content-Length', String(rng.pick([length, length + 1, 0]))]);
      r.ending = 'half-close';
    },
  },
  {
    name: 'transfer-encoding',
    apply: (r, { rng }) => {
      r.body ??= Buffer.from('{}');
      r.framing = 'chunked';
      r.headers.push(['Transfer-Encoding', rng.pick(['chunked', 'identity'])]);
      r.ending = 'half-close';
    },
  },
];

/** Each variant duplicates one header, and sometimes one or two soft ones besides. */
const duplicatedHeaders: Variant[] = [...SOFT_DUPLICATES, ...FRAMING_DUPLICATES].map((duplicate) => ({
  name: duplicate.name,
  kind: 'header',
  apply: (r, c) => {
    duplicate.apply(r, c);
    for (let i = c.rng.int(0, 2); i > 0; i--) {
      const extra = c.rng.pick(SOFT_DUPLICATES);
      extra.apply(r, c);
      r.note = `${r.note ?? ''}+${extra.name}`;
    }
  },
}));

/** A body to cut: the target's own, or one with multibyte characters to cut through. */
const bodyToCut = (r: WireRequest) => {
  r.contentType ??= 'application/json';
  r.body ??= Buffer.from('{"tipo":"teste","texto":"ação 💥 ok"}');
};
const cutShort: Variant[] = [
  {
    name: 'length-short-then-eof',
    kind: 'body',
    apply: (r, c) => {
      bodyToCut(r);
      const fraction = c.rng.next();
      r.cut = (head, total) => head + Math.floor((total - head) * fraction);
      r.ending = 'half-close';
    },
  },
  {
    name: 'length-short-then-drop',
    kind: 'body',
    apply: (r, c) => {
      bodyToCut(r);
      const fraction = c.rng.next();
      r.cut = (head, total) => head + Math.floor((total - head) * fraction);
      r.ending = 'abort';
    },
  },
  {
    name: 'declared-longer-than-sent',
    kind: 'body',
    apply: (r, c) => {
      bodyToCut(r);
      r.framing = { declared: String(r.body!.length + c.rng.pick([1, 100, 60_000, 10_000_000])) };
      r.ending = 'half-close';
    },
  },
  {
    name: 'inside-a-multibyte-character',
    kind: 'body',
    apply: (r, c) => {
      r.contentType ??= 'application/json';
      const prefix = r.body ?? Buffer.from('{"texto":"');
      const tail = Buffer.from(c.rng.pick(['ç', '💥', '€', '𝕏']));
      r.body = Buffer.concat([prefix, tail]);
      const cutAt = prefix.length + c.rng.int(1, tail.length - 1);
      r.cut = (head) => head + cutAt;
      r.ending = 'half-close';
    },
  },
  {
    name: 'chunked-mid-chunk',
    kind: 'body',
    apply: (r, c) => {
      bodyToCut(r);
      r.framing = 'chunked';
      const fraction = c.rng.next();
      r.cut = (head, total) => head + Math.floor(Math.max(0, total - head - 5) * fraction);
      r.ending = 'half-close';
    },
  },
  {
    name: 'chunked-without-last-chunk',
    kind: 'body',
    apply: (r) => {
      bodyToCut(r);
      r.framing = 'chunked-unterminated';
      r.ending = 'half-close';
    },
  },
  {
    name: 'head-cut',
    kind: 'wire',
    apply: (r, c) => {
      bodyToCut(r);
      const fraction = c.rng.next();
      r.cut = (head) => Math.max(1, Math.floor((head - 4) * fraction));
      r.ending = c.rng.chance(0.5) ? 'half-close' : 'abort';
    },
  },
];

const VARIANTS: Record<InputClass, Variant[]> = {
  'deep-nesting': deepNesting,
  'control-characters': valueVariants(controlValue),
  'lone-surrogates': valueVariants(surrogateValue),
  'malformed-headers': malformedHeaders,
  'duplicated-headers': duplicatedHeaders,
  'cut-short': cutShort,
};

/** The variants of a class that fit the target; a target that takes no body keeps only the first body variant. */
function variantsFor(cls: InputClass, t: Target): Variant[] {
  const fitting = VARIANTS[cls].filter((v) => !v.fits || v.fits(t));
  if (takesBody(t) || cls === 'cut-short') return fitting;
  const firstBody = fitting.find((v) => v.kind === 'body');
  return fitting.filter((v) => v.kind !== 'body' || v === firstBody);
}

// ---------------------------------------------------------------------------------

describe('hostile bytes on the wire (real process)', () => {
  let served: ServedChannel;
  let targets: Target[];
  let fx: Fixture;

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
    const token = inbox.url.split('/').pop()!;
    rememberSecret(token);
    await fetch(`${serve.url}/v1/webhooks`, { method: 'PUT', headers: json, body: JSON.stringify({ url: inbox.url }) });
    const link = (await (
      await fetch(`${serve.url}/v1/links`, { method: 'POST', headers: json, body: '{"cpf":"12345678909"}' })
    ).json()) as { id: string; url: string };
    const linkToken = link.url.split('/').pop()!;
    rememberSecret(linkToken);
    // A second link taken through the journey by the API: the /v1 operations start from it
    // (it has a proposal, an event and a delivery); the hosted pages from the fresh one.
    const simulated = (await (
      await fetch(`${serve.url}/v1/links`, { method: 'POST', headers: json, body: '{"cpf":"12345678909"}' })
    ).json()) as { id: string; url: string };
    rememberSecret(simulated.url.split('/').pop());
    await fetch(`${serve.url}/v1/links/${simulated.id}/jornada/simular`, { method: 'POST', headers: { authorization: bearer } });
    const firstId = async (path: string) => {
      for (let attempt = 0; attempt < 30; attempt++) {
        const id = /^\{"\w+":\[\{"id":"([^"]+)"/.exec(await (await fetch(`${serve.url}${path}`, { headers: json })).text())?.[1];
        if (id) return id;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`nothing listed at ${path}`);
    };
    const port = Number(new URL(serve.url).port);
    fx = {
      port,
      origin: `http://127.0.0.1:${port}`,
      bearer,
      inboxUrl: inbox.url,
      linkId: simulated.id,
      eventId: await firstId('/v1/eventos'),
      deliveryId: await firstId('/v1/webhooks/entregas'),
      params: {
        link: linkToken,
        token,
        assinatura: 'A'.repeat(43),
        doc: 'json',
        file: 'swagger-ui.css',
        asset: 'journey.css',
        hash: '0'.repeat(64),
        accent: '0b5fff.css',
      },
    };
    const spec = (await (await fetch(`${serve.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    // Removing the inbox or the webhook takes away what later targets start from: those go last.
    const rank = (t: Target) => (t.method !== 'DELETE' ? 0 : pathParamsOf(t).length > 0 || t.path.endsWith('/eventos') ? 1 : 2);
    targets = [
      ...Object.entries(spec.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([m, op]) => ({ method: m.toUpperCase(), path, op })),
      ),
      ...HOSTED,
    ].sort((a, b) => rank(a) - rank(b));
  });
  afterAll(async () => {
    await served?.close();
    await killAll();
  });

  it('answers every target × class below 500 and bounded, and the process lives on', async () => {
    expect(targets.length).toBeGreaterThan(40);
    const errorLogged = /"level":"error"|unexpected error|request failed/;
    const covered = new Set<string>();
    let sent = 0;
    let whole = 0;
    let answered = 0;
    const largest = new Map<string, number>();
    const postedToInbox: number[] = [];
    for (const [targetIndex, target] of targets.entries()) {
      for (const cls of CLASSES) {
        const variants = variantsFor(cls, target);
        for (let i = 0; i < CASES_PER_PAIR; i++) {
          const variant = variants[(targetIndex * CASES_PER_PAIR + i) % variants.length]!;
          const c: Case = { target, targetIndex, fx, rng: new Rng(seedOf(SEED, target.method, target.path, cls, i)) };
          const request = baseline(c);
          variant.apply(request, c);
          const { head, bytes } = serialize(request);
          const logMark = served.serve.output().length;
          const pair = `${target.method} ${target.path}`;
          const bound = INBOX_VIEWS.has(pair)
            ? Math.max(MAX_RESPONSE_BYTES, INBOX_EXPANSION * postedToInbox.slice(-50).reduce((a, b) => a + b, 0))
            : MAX_RESPONSE_BYTES;
          const response = await exchange(fx.port, bytes, request.ending, bound);
          sent += 1;
          const responseHead = response.toString('latin1', 0, Math.min(response.length, 300));
          const label =
            `${cls} × ${target.method} ${target.path} (variant ${variant.name}${request.note ?? ''}, case ${i}, seed ${SEED})\n` +
            `  request head: ${JSON.stringify(head.toString('latin1').slice(0, 1500))}\n` +
            `  body: ${bytes.length - Math.min(head.length, bytes.length)} of ${(request.body ?? Buffer.alloc(0)).length} bytes sent, ${JSON.stringify(bytes.subarray(head.length, head.length + 300).toString('latin1'))}, then ${request.ending}\n` +
            `  response: ${JSON.stringify(responseHead)}`;
          largest.set(pair, Math.max(largest.get(pair) ?? 0, response.length));
          expect(response.length, `answer too large (bound ${bound}): ${label}`).toBeLessThan(bound);
          if (pair === 'POST /v1/sandbox/receptor/{token}') postedToInbox.push(bytes.length);
          const statuses = statusesOf(response);
          // A request sent whole, the client waiting, gets an answer. (After a half-close one may
          // not: the swagger-ui static files, streamed by @fastify/static, are then dropped.)
          if (request.ending === 'wait') {
            whole += 1;
            expect(statuses.length, `no answer: ${label}`).toBeGreaterThan(0);
          }
          for (const status of statuses) expect(status, label).toBeLessThan(500);
          if (statuses.length > 0) answered += 1;
          expect(served.serve.alive(), `process exited: ${label}\n${served.serve.output().slice(-2000)}`).toBe(true);
          // LOG_LEVEL=warn: an error line is an unexpected failure or a 5xx (it may surface one case late).
          expect(served.serve.output().slice(logMark), `error logged: ${label}`).not.toMatch(errorLogged);
          covered.add(`${cls} ${target.method} ${target.path}`);
        }
      }
      const health = await fetch(`${fx.origin}/healthz`);
      expect(health.status, `unhealthy after ${target.method} ${target.path}`).toBe(200);
    }
    expect(covered.size).toBe(targets.length * CLASSES.length);
    expect(sent).toBe(targets.length * CLASSES.length * CASES_PER_PAIR);
    expect(answered).toBeGreaterThan(sent / 2);
    expect(served.serve.alive()).toBe(true);
    expect(served.serve.output()).not.toMatch(errorLogged);
    if (process.env.FUZZ_REPORT)
      console.log(`${sent} cases, ${whole} whole, ${answered} answered; largest answer per target:`, Object.fromEntries(largest));

    // The bound stays above every legitimate answer of these targets.
    const legitimate = await Promise.all(
      [
        '/openapi.yaml',
        '/openapi.json',
        '/docs',
        '/docs/guia.md',
        '/docs/referencia/json',
        '/docs/referencia/static/swagger-ui.css',
        '/metrics',
      ].map(async (path) => [path, (await (await fetch(`${fx.origin}${path}`)).arrayBuffer()).byteLength] as const),
    );
    for (const [path, bytes] of legitimate)
      expect(bytes, `${path} answers ${bytes} bytes: raise MAX_RESPONSE_BYTES`).toBeLessThan(MAX_RESPONSE_BYTES / 2);
    if (process.env.FUZZ_REPORT) console.log(legitimate);
  }, 600_000);
});

/** The status of each response head at the start of the answer (a 100 Continue, then the final one). */
function statusesOf(response: Buffer): number[] {
  const text = response.toString('latin1', 0, Math.min(response.length, 64 * 1024));
  const statuses: number[] = [];
  let at = 0;
  for (;;) {
    const status = /^HTTP\/\d\.\d (\d{3})/.exec(text.slice(at))?.[1];
    if (status === undefined) break;
    statuses.push(Number(status));
    const end = text.indexOf('\r\n\r\n', at);
    if (Number(status) >= 200 || end < 0) break;
    at = end + 4;
  }
  return statuses;
}

/**
 * Writes the bytes on a new connection, then waits for the server to close it, ends
 * its own side (end of input), or drops it; resolves with all the server sent back.
 * An event stream is read up to its first message; reading stops at `limit` bytes.
 */
function exchange(port: number, bytes: Buffer, ending: WireRequest['ending'], limit: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const socket = net.connect(port, '127.0.0.1');
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(finish, ANSWER_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received >= limit) return finish();
      const text = Buffer.concat(chunks).toString('latin1', 0, Math.min(received, 8192));
      const headEnd = text.indexOf('\r\n\r\n');
      if (
        headEnd > 0 &&
        /content-type: text\/event-stream/i.test(text.slice(0, headEnd)) &&
        text.indexOf('\n\n', headEnd + 4) > 0
      )
        finish();
    });
    socket.on('error', () => {});
    socket.on('close', finish);
    socket.write(bytes, () => {
      if (ending === 'half-close') socket.end();
      if (ending === 'abort') setTimeout(finish, 5);
    });
  });
}
