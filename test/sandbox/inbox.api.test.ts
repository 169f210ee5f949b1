// The sandbox test inbox endpoints (docs/rules.md §6): every endpoint, every documented error, the Received event record
// shape, the configured answer and the 64 KB body limit (checked on a real socket
// too, to show an announced oversized body is refused before it is read).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import {
  ALLOWED,
  TOKEN_RE,
  channelWithInbox,
  expectEventShape,
  listEvents,
  postToInbox,
  setMode,
  tokenOf,
  type InboxResource,
} from './support.ts';

const errorBody = (code: string, response: { headers: Record<string, unknown> }) => ({
  code,
  message: expect.any(String),
  requestId: response.headers['x-request-id'],
});

/** Values of responderStatus that are not allowed: other statuses, non-integers, other types. */
const INVALID_STATUSES: unknown[] = [
  201,
  299,
  302,
  418,
  0,
  -200,
  600,
  200.5,
  2e10,
  '200',
  'abc',
  null,
  true,
  [200],
  { status: 200 },
];

const UNKNOWN_TOKEN = `sbx_${'A'.repeat(32)}`;

describe('sandbox test inbox API', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ listen: true });
  });
  afterAll(() => service?.close());

  describe('PUT /v1/sandbox/receptor', () => {
    it('creates the inbox: url ending in an sbx_ token, visualizacaoUrl, status 200, Cache-Control no-store', async () => {
      const auth = await service.bearer(await service.createChannel());
      const response = await service.inject({ method: 'PUT', url: '/v1/sandbox/receptor', headers: auth });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const inbox = response.json<InboxResource>();
      expect(Object.keys(inbox).sort()).toEqual(['responderStatus', 'url', 'visualizacaoUrl']);
      const token = tokenOf(inbox.url);
      expect(token).toMatch(TOKEN_RE);
      expect(inbox.url).toBe(`${service.baseUrl}/v1/sandbox/receptor/${token}`);
      expect(inbox.visualizacaoUrl).toBe(`${service.baseUrl}/sandbox/receptor/${token}`);
      expect(inbox.responderStatus).toBe(200);
    });

    it('returns the same URL on every call; responderStatus changes it and sticks', async () => {
      const { auth, json, inbox } = await channelWithInbox(service);
      const put = (body?: string, headers = json) =>
        service.inject({
          method: 'PUT',
          url: '/v1/sandbox/receptor',
          headers: body === undefined ? auth : headers,
          ...(body === undefined ? {} : { payload: body }),
        });

      const again = await put();
      expect(again.json()).toEqual(inbox);
      expect((await put('{}')).json()).toEqual(inbox);

      const changed = await put(JSON.stringify({ responderStatus: 503 }));
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.headers['cache-control']).toBe('no-store');
      expect(changed.json()).toEqual({ ...inbox, responderStatus: 503 });
      // A later call without a body keeps the configured status.
      expect((await put()).json()).toEqual({ ...inbox, responderStatus: 503 });
      expect((await listEvents(service, tokenOf(inbox.url))).responderStatus).toBe(503);

      for (const status of ALLOWED) {
        const r = await put(JSON.stringify({ responderStatus: status }));
        expect(r.statusCode, `${status}: ${r.body}`).toBe(200);
        expect(r.json()).toEqual({ ...inbox, responderStatus: status });
      }
    });

    it('gives each channel its own inbox and token', async () => {
      const a = await channelWithInbox(service);
      const b = await channelWithInbox(service);
      expect(a.token).not.toBe(b.token);
    });

    it('refuses responderStatus outside the allowed list, and non-integers, with 400 status_invalido', async () => {
      const { json, inbox } = await channelWithInbox(service);
      for (const value of INVALID_STATUSES) {
        const r = await service.inject({
          method: 'PUT',
          url: '/v1/sandbox/receptor',
          headers: json,
          payload: JSON.stringify({ responderStatus: value }),
        });
        expect(r.statusCode, `${JSON.stringify(value)}: ${r.body}`).toBe(400);
        expect(r.json(), JSON.stringify(value)).toEqual(errorBody('status_invalido', r));
      }
      // Nothing changed.
      expect((await listEvents(service, tokenOf(inbox.url))).responderStatus).toBe(200);
    });

    it('refuses unknown fields and malformed bodies with 400 requisicao_invalida', async () => {
      const { json } = await channelWithInbox(service);
      for (const payload of [
        '{"responderStatus":200,"outro":1}',
        '{"status":500}',
        '[]',
        '"200"',
        '200',
        '{"responderStatus":',
        'responderStatus=200',
      ]) {
        const r = await service.inject({ method: 'PUT', url: '/v1/sandbox/receptor', headers: json, payload });
        expect(r.statusCode, `${payload}: ${r.body}`).toBe(400);
        expect(r.json(), payload).toEqual(errorBody('requisicao_invalida', r));
      }
    });

    it('answers 401 without a valid Bearer token', async () => {
      for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic abc' }]) {
        const r = await service.inject({ method: 'PUT', url: '/v1/sandbox/receptor', headers });
        expect(r.statusCode).toBe(401);
        expect(r.json()).toEqual(errorBody('unauthorized', r));
        expect(r.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
      }
    });
  });

  describe('DELETE /v1/sandbox/receptor/eventos', () => {
    it('deletes every stored event of the channel inbox (204, no body), and only that inbox', async () => {
      const mine = await channelWithInbox(service);
      const other = await channelWithInbox(service);
      for (const s of [mine, mine, other]) expect((await postToInbox(service, s.token, '{"n":1}')).statusCode).toBe(200);
      expect((await listEvents(service, mine.token)).eventos).toHaveLength(2);

      const r = await service.inject({ method: 'DELETE', url: '/v1/sandbox/receptor/eventos', headers: mine.auth });
      expect(r.statusCode).toBe(204);
      expect(r.body).toBe('');
      expect((await listEvents(service, mine.token)).eventos).toEqual([]);
      expect((await listEvents(service, other.token)).eventos).toHaveLength(1);
      // Clearing an empty inbox is fine too.
      expect(
        (await service.inject({ method: 'DELETE', url: '/v1/sandbox/receptor/eventos', headers: mine.auth })).statusCode,
      ).toBe(204);
    });

    it('answers 404 nao_encontrado when the channel has no inbox, and 401 without a token', async () => {
      const auth = await service.bearer(await service.createChannel());
      const r = await service.inject({ method: 'DELETE', url: '/v1/sandbox/receptor/eventos', headers: auth });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual(errorBody('nao_encontrado', r));
      const anonymous = await service.inject({ method: 'DELETE', url: '/v1/sandbox/receptor/eventos' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().code).toBe('unauthorized');
    });
  });

  describe('PUT /v1/sandbox/receptor/{token}/modo', () => {
    const modo = (token: string, payload: string) =>
      service.inject({
        method: 'PUT',
        url: `/v1/sandbox/receptor/${token}/modo`,
        headers: { 'content-type': 'application/json' },
        payload,
      });

    it('sets the answered status without a Bearer token: 200 {responderStatus}', async () => {
      const { token, auth } = await channelWithInbox(service);
      for (const status of ALLOWED) {
        const r = await modo(token, JSON.stringify({ responderStatus: status }));
        expect(r.statusCode, r.body).toBe(200);
        expect(r.json()).toEqual({ responderStatus: status });
        expect((await listEvents(service, token)).responderStatus).toBe(status);
      }
      await modo(token, '{"responderStatus":502}');
      // The channel sees the same status through its own inbox resource.
      expect((await service.inject({ method: 'PUT', url: '/v1/sandbox/receptor', headers: auth })).json().responderStatus).toBe(
        502,
      );
    });

    it('refuses an invalid or missing status with 400 status_invalido and unknown fields with requisicao_invalida', async () => {
      const { token } = await channelWithInbox(service);
      for (const value of INVALID_STATUSES) {
        const r = await modo(token, JSON.stringify({ responderStatus: value }));
        expect(r.statusCode, `${JSON.stringify(value)}: ${r.body}`).toBe(400);
        expect(r.json()).toEqual(errorBody('status_invalido', r));
      }
      const missing = await modo(token, '{}');
      expect(missing.statusCode).toBe(400);
      expect(missing.json().code).toBe('status_invalido');
      const unknown = await modo(token, '{"responderStatus":200,"x":1}');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().code).toBe('requisicao_invalida');
      expect((await listEvents(service, token)).responderStatus).toBe(200);
    });

    it('answers 404 nao_encontrado for an unknown or malformed token', async () => {
      for (const token of [UNKNOWN_TOKEN, 'sbx_curto', 'qualquer-coisa', `sbx_${'a'.repeat(33)}`]) {
        const r = await modo(token, '{"responderStatus":500}');
        expect(r.statusCode, token).toBe(404);
        expect(r.json()).toEqual(errorBody('nao_encontrado', r));
      }
    });
  });

  describe('DELETE /v1/sandbox/receptor/{token}/eventos (what the viewer uses)', () => {
    it('clears the inbox by its token without a Bearer token (204), and 404 for an unknown token', async () => {
      const { token } = await channelWithInbox(service);
      await postToInbox(service, token, '{}');
      const r = await service.inject({ method: 'DELETE', url: `/v1/sandbox/receptor/${token}/eventos` });
      expect(r.statusCode).toBe(204);
      expect(r.body).toBe('');
      expect((await listEvents(service, token)).eventos).toEqual([]);
      const unknown = await service.inject({ method: 'DELETE', url: `/v1/sandbox/receptor/${UNKNOWN_TOKEN}/eventos` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual(errorBody('nao_encontrado', unknown));
    });
  });

  describe('GET /v1/sandbox/receptor/{token}/eventos', () => {
    it('lists received events newest first with exactly the fields of the Received event record', async () => {
      const { token } = await channelWithInbox(service);
      expect(await listEvents(service, token)).toEqual({ responderStatus: 200, eventos: [] });

      const delivered = '{"id":"0192","tipo":"proposta.criada","lista":[1,2,3]}';
      await postToInbox(service, token, delivered, {
        'x-service-event-id': '01930000-0000-7000-8000-000000000001',
        'x-service-event-type': 'proposta.criada',
        'x-service-delivery-attempt': '3',
        'x-service-signature': 't=1,v1=' + '0'.repeat(64),
        authorization: 'Bearer nao-guardar',
        cookie: 'sessao=nao-guardar',
        'x-repetido': ['a', 'b'] as unknown as string,
      });
      await postToInbox(service, token, 'texto simples, não é JSON', { 'content-type': 'text/plain; charset=utf-8' });
      await postToInbox(service, token, '');
      await postToInbox(service, token, '42');

      const { eventos } = await listEvents(service, token);
      expect(eventos).toHaveLength(4);
      for (const event of eventos) expectEventShape(event);
      const ids = eventos.map((e) => e.id);
      expect(ids).toEqual(ids.toSorted((a, b) => b - a));
      const [number, empty, text, first] = eventos;

      expect(first).toMatchObject({
        tipo: 'proposta.criada',
        eventoId: '01930000-0000-7000-8000-000000000001',
        tentativa: '3',
        respondeuStatus: 200,
        corpo: { id: '0192', tipo: 'proposta.criada', lista: [1, 2, 3] },
        assinaturaValida: null,
        motivo: expect.any(String),
      });
      expect(first!.headers).toMatchObject({
        'content-type': 'application/json',
        'x-service-delivery-attempt': '3',
        'x-repetido': 'a, b',
      });
      // Credentials a sender may have attached are not kept.
      expect(first!.headers).not.toHaveProperty('authorization');
      expect(first!.headers).not.toHaveProperty('cookie');
      expect(Date.parse(first!.recebidoEm)).toBeLessThanOrEqual(Date.now());

      expect(text!.corpo).toBe('texto simples, não é JSON');
      expect(empty!.corpo).toBe('');
      expect(number!.corpo).toBe(42);
      for (const bare of [text!, empty!, number!]) {
        expect(bare).not.toHaveProperty('tipo');
        expect(bare).not.toHaveProperty('eventoId');
        expect(bare).not.toHaveProperty('tentativa');
      }
    });

    it('answers 404 nao_encontrado for an unknown token', async () => {
      for (const token of [UNKNOWN_TOKEN, 'sbx_x']) {
        const r = await service.inject({ method: 'GET', url: `/v1/sandbox/receptor/${token}/eventos` });
        expect(r.statusCode).toBe(404);
        expect(r.json()).toEqual(errorBody('nao_encontrado', r));
      }
    });
  });

  describe('POST /v1/sandbox/receptor/{token}', () => {
    it('stores each request and answers with the configured status (204 with an empty body)', async () => {
      const { token } = await channelWithInbox(service);
      for (const status of ALLOWED) {
        await setMode(service, token, status);
        const r = await postToInbox(service, token, JSON.stringify({ status }));
        expect(r.statusCode, r.body).toBe(status);
        if (status === 204) {
          expect(r.body).toBe('');
          expect(r.headers['content-length'] ?? '0').toBe('0');
        } else {
          expect(r.json()).toEqual({ recebido: true });
        }
      }
      const { eventos } = await listEvents(service, token);
      expect(eventos.map((e) => [e.respondeuStatus, e.corpo])).toEqual(ALLOWED.toReversed().map((s) => [s, { status: s }]));
    });

    it('stores bodies as received: non-JSON as text, broken JSON as text, no body as empty text', async () => {
      const { token } = await channelWithInbox(service);
      const noBody = await service.inject({ method: 'POST', url: `/v1/sandbox/receptor/${token}` });
      expect(noBody.statusCode, noBody.body).toBe(200);
      const broken = await postToInbox(service, token, '{"a":');
      expect(broken.statusCode).toBe(200);
      const form = await postToInbox(service, token, 'a=1&b=2', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(form.statusCode).toBe(200);
      const xml = await service.inject({
        method: 'POST',
        url: `/v1/sandbox/receptor/${token}`,
        headers: { 'content-type': 'application/xml' },
        payload: '<a>1</a>',
      });
      expect(xml.statusCode).toBe(200);
      const { eventos } = await listEvents(service, token);
      expect(eventos.map((e) => e.corpo)).toEqual(['<a>1</a>', 'a=1&b=2', '{"a":', '']);
    });

    it('answers 404 nao_encontrado for an unknown token and stores nothing', async () => {
      const r = await postToInbox(service, UNKNOWN_TOKEN, '{}');
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual(errorBody('nao_encontrado', r));
      const count = await service.ctx.database.db
        .selectFrom('inbox_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const before = Number(count.n);
      await postToInbox(service, 'sbx_x', '{}');
      const after = await service.ctx.database.db
        .selectFrom('inbox_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(before);
    });

    it('accepts a body of exactly 65,536 bytes and refuses 65,537 with 413 corpo_muito_grande', async () => {
      const { token } = await channelWithInbox(service);
      const wrap = (size: number) => {
        const text = `{"p":"${'a'.repeat(size - 8)}"}`;
        expect(Buffer.byteLength(text)).toBe(size);
        return text;
      };
      const exact = await postToInbox(service, token, wrap(65_536));
      expect(exact.statusCode, exact.body.slice(0, 200)).toBe(200);
      const over = await postToInbox(service, token, wrap(65_537));
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual(errorBody('corpo_muito_grande', over));
      // Bytes, not characters: 65,535 ASCII characters and one two-byte character.
      const multibyte = await postToInbox(service, token, `${'a'.repeat(65_535)}é`, { 'content-type': 'text/plain' });
      expect(multibyte.statusCode).toBe(413);

      const { eventos } = await listEvents(service, token);
      expect(eventos).toHaveLength(1);
      expect((eventos[0]!.corpo as { p: string }).p).toHaveLength(65_528);
    });

    it('refuses an announced oversized body at once, before reading it (real socket)', async () => {
      const { token } = await channelWithInbox(service);
      const { port } = new URL(service.baseUrl);
      const started = performance.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        let data = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk) => {
          data += chunk;
          if (data.includes('\r\n\r\n') && data.includes('corpo_muito_grande')) {
            socket.destroy();
            resolve(data);
          }
        });
        socket.on('error', reject);
        socket.on('close', () => resolve(data));
        socket.setTimeout(5000, () => {
          socket.destroy();
          reject(new Error(`no answer within 5 s; got ${JSON.stringify(data.slice(0, 200))}`));
        });
        // Ten million bytes announced, twelve sent; the socket stays open.
        socket.write(
          `POST /v1/sandbox/receptor/${token} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{"pequeno":1`,
        );
      });
      const elapsed = performance.now() - started;
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('"code":"corpo_muito_grande"');
      expect(elapsed).toBeLessThan(2000);

      // Chunked (no length announced): cut off once the limit is crossed.
      const chunked = await fetch(`${service.baseUrl}/v1/sandbox/receptor/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(4096)));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);
      expect((await chunked.json()).code).toBe('corpo_muito_grande');
      expect((await listEvents(service, token)).eventos).toEqual([]);
    });
  });
});
