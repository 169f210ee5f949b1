// Hostile input found by an attacker's probe (issue 13, findings 2 to 6), each at the
// HTTP surface where it arrived: a malformed client_id, a malformed Origin, guessed
// tokens, ill-formed Unicode and a body cut short. Each test fails on the code before
// its fix.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia, linkToken } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { channelWithInbox } from '../sandbox/support.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** Sends raw bytes on a new connection; resolves with everything the server wrote until it closed or went quiet. */
function rawHttp(port: number, request: string | Buffer, options: { destroyAfterWrite?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    const done = () => {
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (chunk) => {
      answer += String(chunk);
      if (/\r\n\r\n/.test(answer)) setTimeout(done, 50);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(request, () => {
      if (options.destroyAfterWrite) setTimeout(() => socket.destroy(), 20);
    });
    setTimeout(done, 3000).unref();
  });
}

describe('hostile input at the HTTP surface', () => {
  let service: TestService;
  let port: number;
  let a: IssuedCredentials;
  let b: IssuedCredentials;

  beforeAll(async () => {
    service = await startTestService({ listen: true, env: { CONSIGNA_RATE_LIMIT_UNKNOWN_TOKEN: '40/60' } });
    port = Number(new URL(service.baseUrl).port);
    a = await service.createChannel({ name: 'A' });
    b = await service.createChannel({ name: 'B' });
  });
  afterAll(() => service.close());

  describe('finding 2: a NUL byte in client_id', () => {
    const tokenRequest = (payload: string, headers: Record<string, string> = {}) =>
      service.inject({ method: 'POST', url: '/v1/oauth/token', headers: { ...FORM, ...headers }, payload });

    it('is invalid_request before any query, in the body or in Basic, and counts nothing', async () => {
      const failures = () => service.ctx.database.db.selectFrom('auth_failures').select('key').execute();
      const before = await failures();
      for (const response of [
        await tokenRequest('grant_type=client_credentials&client_id=x%00&client_secret=y'),
        await tokenRequest('grant_type=client_credentials&client_id=cid_ok&client_secret=%01'),
        await tokenRequest('grant_type=client_credentials', { authorization: basic('x\u0000', 'y') }),
        await tokenRequest('grant_type=client_credentials', { authorization: basic('x%00', 'y') }),
        await tokenRequest(`grant_type=client_credentials&client_id=${'c'.repeat(300)}&client_secret=y`),
      ]) {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toMatchObject({
          error: 'invalid_request',
          error_description: expect.stringMatching(/malformado/),
        });
      }
      expect(await failures()).toEqual(before);
    });

    it("does not fail another channel's requests sent in the same burst", async () => {
      const good = () => tokenRequest('grant_type=client_credentials', { authorization: basic(b.clientId, b.clientSecret) });
      const bad = () => tokenRequest('grant_type=client_credentials&client_id=x%00&client_secret=y');
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? bad() : good())));
      expect(answers.map((r) => r.statusCode)).toEqual(Array.from({ length: 16 }, (_, i) => (i % 2 ? 400 : 200)));
    });
  });

  describe('finding 3: a malformed Origin on a hosted-page POST', () => {
    it('is a 403 page with the page headers, never a 500, and moves nothing', async () => {
      const auth = await service.bearer(a);
      const link = (await createLinkVia(service, auth, { cpf: '12345678909' })).json();
      const path = `/c/${linkToken(link.url)}/comecar`;
      await service.inject({ method: 'GET', url: `/c/${linkToken(link.url)}` });
      for (const origin of ['x', `http://127.0.0.1:${port}.evil.example`, 'http://[::1', ' ', 'https://evil.example']) {
        const response = await service.inject({ method: 'POST', url: path, headers: { ...FORM, origin }, payload: '' });
        expect(response.statusCode, origin).toBe(403);
        expect(response.headers['content-type']).toMatch(/text\/html/);
        expect(response.headers['content-security-policy']).toContain("default-src 'none'");
      }
      // Two Origin headers, as a raw client can send them.
      const twice = await rawHttp(
        port,
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nOrigin: http://evil.example\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      expect(twice).toMatch(/^HTTP\/1\.1 403/);
      expect(twice).toMatch(/content-security-policy:/i);
      const page = await new JourneyClient(service, link.url).page();
      expect(page.body).toContain('Começar');
      expect(service.logs.join('')).not.toMatch(/Invalid URL/);
    });

    it('a same-origin post still works', async () => {
      const auth = await service.bearer(a);
      const link = (await createLinkVia(service, auth, { cpf: '12345678909' })).json();
      const response = await service.inject({
        method: 'POST',
        url: `/c/${linkToken(link.url)}/comecar`,
        headers: { ...FORM, origin: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}` },
        payload: '',
      });
      expect(response.statusCode).toBe(303);
    });
  });

  describe('finding 4: guessed tokens', () => {
    const counterKeys = async () => {
      await sleep(400); // the limiter writes its counts every 250 ms
      return (await service.ctx.database.db.selectFrom('rate_limit_counters').select('key').execute()).map((r) => r.key);
    };

    it('write no row per guessed token, and are limited per source address', async () => {
      const before = await counterKeys();
      const guess = (i: number) => `${String(i).padStart(6, '0')}${'G'.repeat(37)}`;
      const inboxGuess = (i: number) => `sbx_${String(i).padStart(32, 'Q')}`;
      const from = (remoteAddress: string, i: number) =>
        i % 3 === 0
          ? service.inject({ method: 'GET', url: `/c/${guess(i)}`, remoteAddress })
          : i % 3 === 1
            ? service.inject({ method: 'GET', url: `/v1/sandbox/receptor/${inboxGuess(i)}/eventos`, remoteAddress })
            : service.inject({ method: 'GET', url: `/sandbox/receptor/${inboxGuess(i)}`, remoteAddress });
      const statuses: number[] = [];
      for (let i = 0; i < 45; i++) statuses.push((await from('198.51.100.7', i)).statusCode);
      expect(statuses.slice(0, 40).every((s) => s === 404)).toBe(true);
      expect(statuses.slice(40)).toEqual([429, 429, 429, 429, 429]);

      // Another source is not held back by the first one's guesses, and a real token
      // from the guessing source is counted under its own key, not the source's.
      expect((await from('198.51.100.8', 0)).statusCode).toBe(404);
      const { token } = await channelWithInbox(service);
      const real = await service.inject({
        method: 'GET',
        url: `/v1/sandbox/receptor/${token}/eventos`,
        remoteAddress: '198.51.100.7',
      });
      expect(real.statusCode).toBe(200);

      const added = (await counterKeys()).filter((key) => !before.includes(key));
      expect(added.filter((key) => key.startsWith('desconhecido:')).sort()).toEqual([
        'desconhecido:198.51.100.7',
        'desconhecido:198.51.100.8',
      ]);
      // One row for the real inbox token; none for the 45 guesses.
      expect(added.filter((key) => key.startsWith('inbox:') || key.startsWith('journey:'))).toHaveLength(1);
    });
  });

  describe('finding 5: ill-formed Unicode and look-alike text', () => {
    const rawLink = (body: string, key?: string) =>
      service.bearer(a).then((auth) =>
        service.inject({
          method: 'POST',
          url: '/v1/links',
          headers: { ...auth, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
          payload: body,
        }),
      );

    it("refuses a lone surrogate, a control or a bidi override in referenciaExterna with that field's code", async () => {
      for (const reference of ['\\ud800', 'x\\udc00y', 'fatura\\u202Egpj', 'a\\u0000', 'a\\u2028b']) {
        const response = await rawLink(`{"cpf":"12345678909","referenciaExterna":"${reference}"}`);
        expect(response.statusCode, reference).toBe(400);
        expect(response.json().code).toBe('requisicao_invalida');
        expect(response.json().message).toMatch(/referenciaExterna/);
      }
      const emoji = await rawLink('{"cpf":"12345678909","referenciaExterna":"pedido 👩‍💻 São João"}');
      expect(emoji.statusCode).toBe(201);
      expect(emoji.json().referenciaExterna).toBe('pedido 👩‍💻 São João');
    });

    it('a lone surrogate can no longer pass for U+FFFD under one Idempotency-Key', async () => {
      const first = await rawLink('{"cpf":"12345678909","referenciaExterna":"x\\ufffdy"}', 'chave-unicode-01');
      expect(first.statusCode).toBe(201);
      const second = await rawLink('{"cpf":"12345678909","referenciaExterna":"x\\ud800y"}', 'chave-unicode-01');
      expect(second.statusCode).toBe(400);
      const replay = await rawLink('{"cpf":"12345678909","referenciaExterna":"x\\ufffdy"}', 'chave-unicode-01');
      expect(replay.statusCode).toBe(200);
    });

    it('refuses such text in a webhook URL (url_invalida) and in the customer e-mail (field error)', async () => {
      const auth = await service.bearer(a);
      for (const url of ['https://hooks.example.com/\\ud800', 'https://hooks.example.com/\\u202e']) {
        const response = await service.inject({
          method: 'PUT',
          url: '/v1/webhooks',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: `{"url":"${url}"}`,
        });
        expect(response.statusCode, url).toBe(400);
        expect(response.json().code).toBe('url_invalida');
      }
      const link = (await createLinkVia(service, auth, { cpf: '12345678909' })).json();
      const journey = new JourneyClient(service, link.url);
      await journey.page();
      for (const [action, fields] of [
        ['comecar', {}],
        ['celular', { celular: '(11) 98765-4321' }],
        ['codigo', { codigo: '123456' }],
        ['consulta', { autorizo: 'sim' }],
        ['oferta', { oferta: 'oferta-1' }],
      ] as const) {
        expect((await journey.post(action, fields)).status).toBe(303);
      }
      const data = await journey.post('dados', {
        nome: 'Maria da Silva',
        dataNascimento: '1990-05-10',
        email: 'maria\u202e@exemplo.com',
        chavePix: 'maria@exemplo.com',
      });
      expect(data.status).toBe(422);
      expect(data.body).toContain('E-mail inválido');
      // The same rule for a Pix key given as an e-mail: a control or bidi character is refused.
      for (const chavePix of ['maria\u202e@exemplo.com', 'maria\u0000@exemplo.com', 'ma\u0085ria@exemplo.com']) {
        const pix = await journey.post('dados', {
          nome: 'Maria da Silva',
          dataNascimento: '1990-05-10',
          email: 'maria@exemplo.com',
          chavePix,
        });
        expect(pix.status, JSON.stringify(chavePix)).toBe(422);
        expect(pix.body).toContain('Chave Pix inválida');
      }
    });

    it('refuses a JSON body nested deeper than 64 levels', async () => {
      const deep = `{"cpf":"12345678909","referenciaExterna":${'['.repeat(5000)}${']'.repeat(5000)}}`;
      const response = await rawLink(deep);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'requisicao_invalida', message: expect.stringMatching(/64 níveis/) });
    });
  });

  describe('finding 6: a body cut short by the client', () => {
    it('is logged as a closed connection at info, never as the database being unavailable', async () => {
      const { token } = await channelWithInbox(service);
      const linesBefore = service.logs.length;
      for (const [path, type] of [
        [`/v1/sandbox/receptor/${token}`, 'application/json'],
        ['/v1/oauth/token', 'application/x-www-form-urlencoded'],
        ['/v1/links', 'application/json'],
      ] as const) {
        await rawHttp(
          port,
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: 1000\r\n\r\n{"partial":`,
          { destroyAfterWrite: true },
        );
      }
      await waitFor(() => service.logs.slice(linesBefore).filter((l) => l.includes('client closed')).length >= 2, {
        timeoutMs: 5000,
        what: 'the aborted requests to be logged',
      });
      const lines = service.logs.slice(linesBefore).map((l) => JSON.parse(l) as { level: string; msg: string });
      expect(lines.filter((l) => /database unavailable/.test(l.msg))).toEqual([]);
      for (const line of lines.filter((l) => l.msg.includes('client closed'))) expect(line.level).toBe('info');
      expect(lines.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
    });
  });
});

describe('an unexpected failure on a hosted page', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({
      bank: (ctx) => ({
        ...ctx.bank,
        sendCode: async () => {
          throw new Error('conector quebrado');
        },
      }),
    });
  });
  afterAll(() => service.close());

  it('answers a pt-BR HTML page with the page headers and the request id, and logs the error', async () => {
    const channel = await service.createChannel();
    const link = (await createLinkVia(service, await service.bearer(channel), { cpf: '12345678909' })).json();
    const journey = new JourneyClient(service, link.url);
    await journey.page();
    await journey.post('comecar');
    const response = await service.inject({
      method: 'POST',
      url: `${journey.path}/celular`,
      headers: FORM,
      payload: 'celular=11987654321',
    });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.body).toContain('Algo deu errado');
    expect(response.body).toContain(String(response.headers['x-request-id']));
    expect(response.body).not.toContain('conector quebrado');
    expect(service.logs.some((l) => l.includes('unexpected error') && l.includes('conector quebrado'))).toBe(true);
  });
});
