// The SDK against a real service listening on a real port (PGlite, or PostgreSQL when
// DATABASE_URL is set): token caching and renewal, every endpoint through its typed
// method, and retries that reuse the Idempotency-Key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  Consigna,
  ConsignaConnectionError,
  ConsignaError,
  verifyWebhook,
  type ConsignaOptions,
  type RetryInfo,
} from '../../packages/sdk/src/index.ts';
import { ManualClock, freePort, startTestService, type TestService } from '../helpers/service.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { waitFor } from '../helpers/wait.ts';
import { bankWithShortOutage, countLinks, recordingFetch, startProxy, type Proxy } from './support.ts';

let service: TestService;

const client = (channel: IssuedCredentials, options: Partial<ConsignaOptions> = {}) =>
  new Consigna({ baseUrl: service.baseUrl, clientId: channel.clientId, clientSecret: channel.clientSecret, ...options });

beforeAll(async () => {
  service = await startTestService({
    listen: true,
    worker: true,
    bank: bankWithShortOutage(1),
    env: { CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true', CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1' },
  });
});

afterAll(async () => {
  await service?.close();
});

describe('access token', () => {
  it('is requested once and shared by sequential and concurrent calls', async () => {
    const channel = await service.createChannel();
    const recorder = recordingFetch();
    const consigna = client(channel, { fetch: recorder.fetch });
    await consigna.ping();
    await consigna.getLink(randomUUID()).catch(() => {});
    await Promise.all(Array.from({ length: 10 }, () => consigna.ping()));
    expect(recorder.tokenRequests()).toBe(1);
    expect(recorder.sent.length).toBe(13);
    // Basic credentials on the token request, the same Bearer on every call.
    expect(recorder.to('/v1/oauth/token')[0]!.headers.get('authorization')).toMatch(/^Basic /);
    expect(new Set(recorder.to('/v1/ping').map((r) => r.headers.get('authorization'))).size).toBe(1);

    // Concurrent first calls of a new client share one token request too.
    const fresh = recordingFetch();
    await Promise.all(Array.from({ length: 8 }, () => client(channel, { fetch: fresh.fetch }).ping()));
    const shared = client(channel, { fetch: fresh.fetch });
    const before = fresh.tokenRequests();
    await Promise.all(Array.from({ length: 8 }, () => shared.ping()));
    expect(fresh.tokenRequests() - before).toBe(1);
  });

  it('is renewed after it expires (CONSIGNA_TOKEN_TTL_SECONDS=2)', async () => {
    const shortLived = await startTestService({
      listen: true,
      sameDatabaseAs: service,
      env: { CONSIGNA_TOKEN_TTL_SECONDS: '2' },
    });
    try {
      const channel = await shortLived.createChannel();
      const recorder = recordingFetch();
      const consigna = new Consigna({
        baseUrl: shortLived.baseUrl,
        clientId: channel.clientId,
        clientSecret: channel.clientSecret,
        fetch: recorder.fetch,
        tokenRefreshMarginSeconds: 0,
      });
      await consigna.ping();
      const first = await consigna.getAccessToken();
      await consigna.ping();
      expect(recorder.tokenRequests()).toBe(1);

      await new Promise((resolve) => setTimeout(resolve, 2300));
      // The service no longer takes the first token…
      const stale = await fetch(`${shortLived.baseUrl}/v1/ping`, { headers: { authorization: `Bearer ${first}` } });
      expect(stale.status).toBe(401);
      // …and the SDK knew: it asked for a new one before calling.
      await consigna.ping();
      expect(recorder.tokenRequests()).toBe(2);
      expect(await consigna.getAccessToken()).not.toBe(first);
      expect(recorder.to('/v1/ping').every((r) => r.headers.get('authorization') !== null)).toBe(true);
    } finally {
      await shortLived.close();
    }
  });

  it('is renewed once when the service refuses it before the SDK expected (clock skew, revocation)', async () => {
    const clock = new ManualClock(new Date());
    const skewed = await startTestService({ listen: true, sameDatabaseAs: service, clock });
    try {
      const channel = await skewed.createChannel();
      const recorder = recordingFetch();
      const consigna = new Consigna({
        baseUrl: skewed.baseUrl,
        clientId: channel.clientId,
        clientSecret: channel.clientSecret,
        fetch: recorder.fetch,
      });
      await consigna.ping();
      clock.advance(2 * 3600); // the service's clock runs two hours ahead
      const pong = await consigna.ping();
      expect(pong.canal.id).toBe(channel.canalId);
      expect(recorder.tokenRequests()).toBe(2);
      expect(recorder.to('/v1/ping')).toHaveLength(3); // 200, 401, 200
    } finally {
      await skewed.close();
    }
  });
});

describe('every endpoint through its typed method', () => {
  it('inbox, webhook, test event, links, journey events, deliveries, resend, simulator, rotation, delete', async () => {
    const channel = await service.createChannel({ name: 'Canal SDK' });
    const consigna = client(channel);

    const pong = await consigna.ping();
    expect(pong).toMatchObject({ canal: { id: channel.canalId, nome: 'Canal SDK' } });
    expect(Date.parse(pong.dbTime)).not.toBeNaN();

    const inbox = await consigna.ensureInbox();
    expect(inbox.url).toMatch(/\/v1\/sandbox\/receptor\/sbx_/);
    expect(inbox.visualizacaoUrl).toMatch(/\/sandbox\/receptor\/sbx_/);
    expect((await consigna.ensureInbox()).url).toBe(inbox.url);
    expect(await consigna.setInboxStatus(inbox, 503)).toBe(503);
    expect(await consigna.setInboxStatus(inbox.visualizacaoUrl, 200)).toBe(200);

    const created = await consigna.putWebhook({ url: inbox.url });
    expect(created.segredo).toMatch(/^whsec_/);
    rememberSecret(created.segredo);
    const updated = await consigna.putWebhook({ url: inbox.url, eventos: [] });
    expect(updated.segredo).toBeUndefined();
    expect(await consigna.getWebhook()).toMatchObject({ url: inbox.url, eventos: [], ativo: true, ambiente: 'SANDBOX' });

    const test = await consigna.sendTestEvent();
    expect(test).toMatchObject({ entregue: true, httpStatus: 200 });
    const received = await consigna.listInboxEvents(inbox);
    expect(received.eventos[0]).toMatchObject({ tipo: 'webhook.teste', assinaturaValida: true, tentativa: '1' });
    // The inbox kept the raw body and headers: the SDK verifies them too.
    const stored = received.eventos[0]!;
    const event = verifyWebhook(JSON.stringify(stored.corpo), stored.headers['x-service-signature'], created.segredo!);
    expect(event.tipo).toBe('webhook.teste');
    // And the exact bytes that arrived, which the signature covers.
    const bytes = await consigna.getInboxEventBody(inbox, stored.id);
    expect(verifyWebhook(Buffer.from(bytes).toString('utf8'), stored.headers['x-service-signature'], created.segredo!).id).toBe(
      event.id,
    );

    const link = await consigna.createLink({ cpf: '12345678909', celular: '11987654321', referenciaExterna: 'pedido-sdk-1' });
    expect(link).toMatchObject({
      status: 'CRIADO',
      ambiente: 'SANDBOX',
      cpfMascarado: '***.456.789-**',
      referenciaExterna: 'pedido-sdk-1',
    });
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
    // The customer's journey, without a browser.
    const simulated = await consigna.simulateJourney(link.id);
    expect(simulated).toMatchObject({ id: link.id, status: 'CONCLUIDO', proposta: { status: 'AGUARDANDO_FORMALIZACAO' } });
    const again = await consigna.simulateJourney(link.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConsignaError);
    expect(again).toMatchObject({ status: 409, code: 'jornada_concluida' });
    // Failure paths on demand: a link expired now, fast retries on and off.
    const expiring = await consigna.createLink({ cpf: '52998224725' });
    rememberSecret(expiring.url.slice(expiring.url.lastIndexOf('/') + 1));
    expect(await consigna.simulateExpiry(expiring.id)).toMatchObject({ id: expiring.id, status: 'EXPIRADO' });
    await expect(consigna.simulateExpiry(expiring.id)).rejects.toMatchObject({ status: 409, code: 'link_expirado' });
    expect(await consigna.simulateRetries(5)).toEqual({ intervalosSegundos: [5, 5, 5, 5, 5, 5] });
    expect(await consigna.simulateRetries(null)).toEqual({ intervalosSegundos: [1, 1, 1, 1, 1, 1] });
    await expect(consigna.simulateRetries(0)).rejects.toMatchObject({ status: 400, code: 'requisicao_invalida' });

    // The brand the customer sees on the pages: set, read, removed.
    const brand = await consigna.putBrand({ nome: 'Canal do SDK', cor: '#1a73e8' });
    expect(brand).toMatchObject({ nome: 'Canal do SDK', cor: '#1a73e8', corAplicada: expect.stringMatching(/^#/) });
    expect(await consigna.getBrand()).toEqual(brand);
    await consigna.deleteBrand();
    await expect(consigna.getBrand()).rejects.toMatchObject({ status: 404, code: 'nao_encontrado' });
    await expect(consigna.putBrand({ nome: 'X', cor: 'azul' })).rejects.toMatchObject({ status: 400, code: 'cor_invalida' });

    // Links into the channel's portal, and every session ended.
    const readOnly = await consigna.createPortalSession({ permissoes: ['leitura'] });
    const full = await consigna.createPortalSession();
    for (const { url } of [readOnly, full]) rememberSecret(url, url.slice(url.lastIndexOf('/') + 1));
    expect(readOnly).toMatchObject({ permissoes: ['leitura'], url: expect.stringContaining('/portal/entrar/') });
    expect(full.permissoes).toEqual(['leitura', 'escrita']);
    await expect(consigna.createPortalSession({ permissoes: ['escrita'] })).rejects.toMatchObject({
      status: 400,
      code: 'permissoes_invalidas',
    });
    expect(await consigna.revokePortalSessions()).toEqual({ encerradas: 0 });

    const read = await consigna.getLink(link.id);
    expect(read).not.toHaveProperty('url');
    expect(read.status).toBe('CONCLUIDO');
    expect(read.proposta?.status).toBe('AGUARDANDO_FORMALIZACAO');

    let delivered: Awaited<ReturnType<typeof consigna.listDeliveries>>['entregas'] = [];
    await waitFor(
      async () => {
        delivered = (await consigna.listDeliveries({ status: 'ENTREGUE', limite: 10 })).entregas;
        return delivered.length === 2;
      },
      { timeoutMs: 15_000, what: 'two proposal events delivered to the inbox' },
    );
    expect(delivered.map((d) => d.tipo).sort()).toEqual(['proposta.aguardando_formalizacao', 'proposta.criada']);
    const resent = await consigna.resendDelivery(delivered[0]!.id);
    expect(resent).toMatchObject({ id: delivered[0]!.id, status: 'ENTREGUE', tentativas: 1, tentativasTotais: 2 });
    // Its history: the worker's attempt, then the resend's (a new series: numero 1 again, ordem 2), each with the inbox's answer.
    const detail = await consigna.getDelivery(delivered[0]!.id);
    expect(detail.historico.map((a) => [a.numero, a.ordem, a.reenvio, a.httpStatus])).toEqual([
      [1, 1, 0, 200],
      [1, 2, 1, 200],
    ]);
    // Every delivery of the link, page by page.
    const pages: string[] = [];
    for await (const d of consigna.deliveries({ linkId: link.id, limite: 1 })) pages.push(d.id);
    expect(pages.toSorted()).toEqual(delivered.map((d) => d.id).toSorted());

    expect(await consigna.simulateProposal(link.id, 'FORMALIZADA')).toEqual({ status: 'FORMALIZADA', alterado: true });
    expect(await consigna.simulateProposal(link.id, 'FORMALIZADA')).toEqual({ status: 'FORMALIZADA', alterado: false });
    expect((await consigna.getLink(link.id)).proposta?.status).toBe('FORMALIZADA');
    // The same history through the events API, one page per event.
    await waitFor(async () => (await consigna.listEvents({ linkId: link.id })).eventos.length === 3, {
      what: 'three events listed',
    });
    const history: string[] = [];
    for await (const event of consigna.events({ linkId: link.id, limite: 1 })) history.push(event.tipo);
    expect(history).toEqual(['proposta.formalizada', 'proposta.aguardando_formalizacao', 'proposta.criada']);
    const [newest] = (await consigna.listEvents({ linkId: link.id, limite: 1, entregue: true })).eventos.concat(
      (await consigna.listEvents({ linkId: link.id, limite: 1 })).eventos,
    );
    expect((await consigna.getEvent(newest!.id)).id).toBe(newest!.id);
    // Its event is delivered by the worker, on its own time: let it land before the inbox is cleared below.
    await waitFor(
      async () => (await consigna.listInboxEvents(inbox.url)).eventos.some((e) => e.tipo === 'proposta.formalizada'),
      {
        timeoutMs: 15_000,
        what: 'proposta.formalizada at the inbox',
      },
    );

    const rotated = await consigna.rotateWebhookSecret();
    expect(rotated.segredo).toMatch(/^whsec_/);
    expect(rotated.segredo).not.toBe(created.segredo);
    rememberSecret(rotated.segredo);
    expect(Date.parse(rotated.segredoAnteriorValidoAte!) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);

    await consigna.clearInbox();
    expect((await consigna.listInboxEvents(inbox.url)).eventos).toEqual([]);
    await consigna.deleteWebhook();
    await expect(consigna.getWebhook()).rejects.toMatchObject({ status: 404, code: 'nao_encontrado' });
  });
});

describe('retries', () => {
  let proxy: Proxy;
  beforeAll(async () => {
    proxy = await startProxy(service.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('repeats a link creation answered 503 with the same Idempotency-Key, after Retry-After, then throws a typed error', async () => {
    const channel = await service.createChannel();
    const recorder = recordingFetch();
    const retries: RetryInfo[] = [];
    const consigna = client(channel, { fetch: recorder.fetch, onRetry: (info) => retries.push(info) });

    const started = Date.now();
    const error = await consigna.createLink({ cpf: '00000000434' }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;

    expect(error).toBeInstanceOf(ConsignaError);
    const typed = error as ConsignaError;
    expect(typed).toMatchObject({ status: 503, code: 'banco_indisponivel', retryAfter: 1, attempts: 3 });
    expect(typed.message).toMatch(/banco/i);
    expect(typed.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const posts = recorder.to('/v1/links');
    expect(posts).toHaveLength(3);
    const keys = posts.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/); // generated: a UUID
    expect(new Set(keys).size).toBe(1);
    expect(typed.idempotencyKey).toBe(keys[0]);
    // Retry-After: 1 was honoured before each repeat.
    expect(retries.map((r) => [r.attempt, r.delayMs, r.status])).toEqual([
      [2, 1000, 503],
      [3, 1000, 503],
    ]);
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(posts[2]!.at - posts[1]!.at).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(await countLinks(service, channel.canalId)).toBe(0);

    // A caller's own key is the one repeated; each new call without one gets a new key.
    const own = recordingFetch();
    const withKey = client(channel, { fetch: own.fetch, maxRetries: 1 });
    await expect(withKey.createLink({ cpf: '00000000434' }, { idempotencyKey: 'pedido-434-a' })).rejects.toMatchObject({
      code: 'banco_indisponivel',
      idempotencyKey: 'pedido-434-a',
      attempts: 2,
    });
    expect(own.to('/v1/links').map((r) => r.headers.get('idempotency-key'))).toEqual(['pedido-434-a', 'pedido-434-a']);
  });

  it('does not wait for a Retry-After above maxRetryDelayMs: the error says when to come back', async () => {
    const channel = await service.createChannel();
    const recorder = recordingFetch();
    const consigna = client(channel, { fetch: recorder.fetch, maxRetryDelayMs: 500 });
    await expect(consigna.createLink({ cpf: '00000000434' })).rejects.toMatchObject({ status: 503, retryAfter: 1, attempts: 1 });
    expect(recorder.to('/v1/links')).toHaveLength(1);
  });

  it('repeats a link creation whose answer was lost on the network: one link, the same one', async () => {
    const channel = await service.createChannel();
    const retries: RetryInfo[] = [];
    const consigna = new Consigna({
      baseUrl: proxy.url,
      clientId: channel.clientId,
      clientSecret: channel.clientSecret,
      retryBaseDelayMs: 50,
      onRetry: (info) => retries.push(info),
    });
    const mark = proxy.requests.length;
    proxy.dropNextAnswer((method, url) => method === 'POST' && url === '/v1/links');

    const link = await consigna.createLink({ cpf: '52998224725', referenciaExterna: 'pedido-rede' });

    const posts = proxy.requests.slice(mark).filter((r) => r.url === '/v1/links');
    expect(posts.map((r) => [r.status, r.fate])).toEqual([
      [201, 'dropped'],
      [200, 'answered'],
    ]);
    expect(posts[0]!.headers['idempotency-key']).toBe(posts[1]!.headers['idempotency-key']);
    expect(link.id).toBe(JSON.parse(posts[0]!.responseBody!).id);
    expect(link.url).toBe(JSON.parse(posts[0]!.responseBody!).url);
    rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 2, status: undefined });
    expect(await countLinks(service, channel.canalId)).toBe(1);
  });

  it('repeats a link creation that timed out: the repeat gets the link the first one created', async () => {
    const channel = await service.createChannel();
    const consigna = new Consigna({
      baseUrl: proxy.url,
      clientId: channel.clientId,
      clientSecret: channel.clientSecret,
      timeoutMs: 1000,
      retryBaseDelayMs: 50,
    });
    await consigna.ping();
    const mark = proxy.requests.length;
    proxy.delayNextAnswer((method, url) => method === 'POST' && url === '/v1/links', 3000);
    const link = await consigna.createLink({ cpf: '11144477735' }, { idempotencyKey: 'pedido-timeout-1' });
    rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
    const posts = proxy.requests.slice(mark).filter((r) => r.url === '/v1/links');
    expect(posts.map((r) => r.status)).toEqual([201, 200]);
    expect(await countLinks(service, channel.canalId)).toBe(1);
  });

  it('never repeats a secret rotation whose answer was lost: a repeat would drop the secret still in use', async () => {
    const channel = await service.createChannel();
    const consigna = new Consigna({
      baseUrl: proxy.url,
      clientId: channel.clientId,
      clientSecret: channel.clientSecret,
      retryBaseDelayMs: 50,
    });
    const inbox = await consigna.ensureInbox();
    rememberSecret((await consigna.putWebhook({ url: inbox.url })).segredo);
    const mark = proxy.requests.length;
    proxy.dropNextAnswer((method, url) => method === 'POST' && url === '/v1/webhooks/segredo');
    const error = await consigna.rotateWebhookSecret().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConsignaConnectionError);
    expect((error as ConsignaConnectionError).attempts).toBe(1);
    expect(proxy.requests.slice(mark).filter((r) => r.url === '/v1/webhooks/segredo')).toHaveLength(1);
  });

  it('gives up after maxRetries when nothing answers, with a connection error', async () => {
    const port = await freePort();
    const recorder = recordingFetch();
    const consigna = new Consigna({
      baseUrl: `http://127.0.0.1:${port}`,
      clientId: 'cid_x',
      clientSecret: 'csk_x',
      fetch: recorder.fetch,
      retryBaseDelayMs: 10,
    });
    const error = await consigna.ping().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConsignaConnectionError);
    expect((error as ConsignaConnectionError).attempts).toBe(3);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(recorder.tokenRequests()).toBe(3);
  });
});
