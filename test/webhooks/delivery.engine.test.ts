// The delivery engine end to end: real proposal changes go through the outbox, the
// worker claims them and posts to real local receivers whose behaviour flips
// mid-test. Retries are 1 s apart (CONSIGNA_RETRY_DELAYS) and every wait polls.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestService, type TestService } from '../helpers/service.ts';
import { receiverPool, type ReceivedRequest } from '../helpers/receiver.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { VALID_CPFS } from '../helpers/links.ts';
import {
  FAST_ENV,
  channelWith,
  listDeliveries,
  parseSignature,
  proposalLink,
  signedWith,
  simulate,
  type Delivery,
} from './support.ts';

const stripe = new Stripe('sk_test_consigna');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let service: TestService;
const receivers = receiverPool();
const receiver = receivers.start;

beforeAll(async () => {
  service = await startTestService({
    worker: true,
    // A 1 s budget keeps the slow-receiver cases short; the lease must stay ≥ 3× it.
    env: { ...FAST_ENV, CONSIGNA_DELIVERY_TIMEOUT_MS: '1000', CONSIGNA_WORKER_LEASE_SECONDS: '15' },
  });
});

afterAll(async () => {
  await service?.close();
  await receivers.closeAll();
});

async function single(
  auth: Record<string, string>,
  what: string,
  until: (d: Delivery) => boolean,
  timeoutMs = 20_000,
): Promise<Delivery> {
  let last: Delivery | undefined;
  await waitFor(
    async () => {
      const list = await listDeliveries(service, auth);
      expect(list.length).toBeLessThanOrEqual(1);
      last = list[0];
      return last !== undefined && until(last);
    },
    { timeoutMs, what },
  );
  return last!;
}

function expectSignedRequest(request: ReceivedRequest, secret: string, attempt: number): Record<string, unknown> {
  const body = JSON.parse(request.body) as Record<string, unknown>;
  expect(request.method).toBe('POST');
  expect(request.url).toBe('/webhook');
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['user-agent']).toMatch(/^Consigna-Webhooks\/\d/);
  expect(request.headers['x-service-event-id']).toBe(body.id);
  expect(request.headers['x-service-event-type']).toBe(body.tipo);
  expect(request.headers['x-service-delivery-attempt']).toBe(String(attempt));
  const { t, v1 } = parseSignature(request.headers['x-service-signature']);
  expect(v1).toHaveLength(1);
  expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
  expect(signedWith(request, secret)).toBe(true);
  // A stock verifier (Stripe's scheme, 5 minutes of tolerance) accepts it as is.
  const event = stripe.webhooks.constructEvent(request.body, request.headers['x-service-signature'] as string, secret, 300);
  expect(event.id).toBe(body.id);
  expect(() =>
    stripe.webhooks.constructEvent(request.body, request.headers['x-service-signature'] as string, 'whsec_outro', 300),
  ).toThrow();
  return body;
}

describe('delivery engine against real receivers', () => {
  it('delivers every event of a real proposal, signed, with the documented headers and body', async () => {
    const r = await receiver();
    const { auth, json, secret } = await channelWith(service, r.url);
    const linkId = await proposalLink(service, auth);
    await simulate(service, json, linkId, 'FORMALIZADA');
    await waitFor(async () => (await listDeliveries(service, auth)).filter((d) => d.status === 'ENTREGUE').length === 3, {
      timeoutMs: 10_000,
      what: 'three deliveries ENTREGUE',
    });
    expect(r.requests).toHaveLength(3);
    const bodies = r.requests.map((q) => expectSignedRequest(q, secret!, 1));
    expect(bodies.map((b) => b.tipo).sort()).toEqual([
      'proposta.aguardando_formalizacao',
      'proposta.criada',
      'proposta.formalizada',
    ]);

    const formalizada = bodies.find((b) => b.tipo === 'proposta.formalizada')!;
    expect(formalizada).toEqual({
      id: expect.stringMatching(UUID),
      tipo: 'proposta.formalizada',
      ocorridoEm: expect.stringMatching(ISO),
      ambiente: 'SANDBOX',
      link: { id: linkId, referenciaExterna: 'promotor-42' },
      proposta: {
        numero: expect.any(Number),
        status: 'FORMALIZADA',
        valor: expect.any(Number),
        parcelas: expect.any(Number),
        valorParcela: expect.any(Number),
      },
    });
    // No personal data in events (docs/rules.md §4).
    for (const q of r.requests) expect(q.body).not.toContain(VALID_CPFS[0]!);

    const list = await listDeliveries(service, auth);
    // Newest first.
    expect(list.map((d) => d.tipo)).toEqual(['proposta.formalizada', 'proposta.aguardando_formalizacao', 'proposta.criada']);
    for (const d of list) {
      expect(d).toEqual({
        id: expect.stringMatching(UUID),
        eventoId: expect.stringMatching(UUID),
        tipo: d.tipo,
        status: 'ENTREGUE',
        tentativas: 1,
        tentativasTotais: 1,
        ultimoHttpStatus: 200,
        ultimaLatenciaMs: expect.any(Number),
        ultimaTentativaEm: expect.stringMatching(ISO),
        entregueEm: expect.stringMatching(ISO),
        criadoEm: expect.stringMatching(ISO),
      });
      expect(Number.isInteger(d.ultimaLatenciaMs)).toBe(true);
      expect(r.forEvent(d.eventoId)).toHaveLength(1);
    }
  });

  it('retries a 500 seven times with one event id and attempts 1..7, then FALHOU; only subscribed types are delivered', async () => {
    const r = await receiver({ status: 500 });
    const { canalId, auth, json, secret } = await channelWith(service, r.url, ['proposta.criada']);
    const linkId = await proposalLink(service, auth, VALID_CPFS[1]);

    const pending = await single(auth, 'a recorded retry', (d) => d.status === 'PENDENTE' && d.tentativas >= 2);
    expect(pending).toMatchObject({ tipo: 'proposta.criada', ultimoHttpStatus: 500, ultimoErro: 'HTTP 500' });
    expect(pending.proximaTentativaEm).toMatch(ISO);
    expect(pending.ultimaTentativaEm).toMatch(ISO);
    expect(Date.parse(pending.proximaTentativaEm!)).toBeGreaterThan(Date.parse(pending.ultimaTentativaEm!));
    expect(Number.isInteger(pending.ultimaLatenciaMs)).toBe(true);
    expect(pending.entregueEm).toBeUndefined();

    const failed = await single(auth, 'FALHOU', (d) => d.status === 'FALHOU', 30_000);
    expect(failed).toEqual({
      id: pending.id,
      eventoId: pending.eventoId,
      tipo: 'proposta.criada',
      status: 'FALHOU',
      tentativas: 7,
      tentativasTotais: 7,
      ultimoHttpStatus: 500,
      ultimoErro: 'HTTP 500',
      ultimaLatenciaMs: expect.any(Number),
      ultimaTentativaEm: expect.stringMatching(ISO),
      criadoEm: pending.criadoEm,
    });
    expect(r.requests.map((q) => q.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    for (const [i, q] of r.requests.entries()) {
      expectSignedRequest(q, secret!, i + 1);
      expect(q.headers['x-service-event-id']).toBe(failed.eventoId);
      expect(q.body).toBe(r.requests[0]!.body);
      // The configured 1 s between attempts is honoured (never sooner).
      if (i > 0) expect(q.at - r.requests[i - 1]!.at).toBeGreaterThanOrEqual(900);
    }

    // The aguardando_formalizacao event of the same submission and a later change
    // exist as events, but the webhook subscribes to proposta.criada only.
    await simulate(service, json, linkId, 'FORMALIZADA');
    const events = await service.ctx.database.db.selectFrom('events').select('tipo').where('channel_id', '=', canalId).execute();
    expect(events.map((e) => e.tipo).sort()).toEqual([
      'proposta.aguardando_formalizacao',
      'proposta.criada',
      'proposta.formalizada',
    ]);
    const rows = await service.ctx.database.db
      .selectFrom('deliveries')
      .select('tipo')
      .where('channel_id', '=', canalId)
      .execute();
    expect(rows).toEqual([{ tipo: 'proposta.criada' }]);
    expect(new Set(r.requests.map((q) => q.headers['x-service-event-type']))).toEqual(new Set(['proposta.criada']));
  }, 45_000);

  it('a receiver that starts answering 200 mid-way gets the delivery ENTREGUE on that attempt', async () => {
    const r = await receiver({ status: 503 });
    const { auth } = await channelWith(service, r.url, ['proposta.criada']);
    await proposalLink(service, auth, VALID_CPFS[2]);
    // A request is answered in the tick it is recorded: three recorded = three 503s.
    await waitFor(() => r.requests.length >= 3, { timeoutMs: 15_000, what: 'three attempts' });
    r.setStatus(200);
    const delivered = await single(auth, 'ENTREGUE', (d) => d.status === 'ENTREGUE');
    const attempts = r.requests.map((q) => Number(q.headers['x-service-delivery-attempt']));
    expect(attempts).toEqual(Array.from({ length: attempts.length }, (_, i) => i + 1));
    expect(delivered.tentativas).toBe(4);
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(delivered).toMatchObject({ status: 'ENTREGUE', ultimoHttpStatus: 200, entregueEm: expect.stringMatching(ISO) });
    expect(delivered.ultimoErro).toBeUndefined();
    expect(delivered.proximaTentativaEm).toBeUndefined();
    expect(new Set(r.requests.map((q) => q.headers['x-service-event-id']))).toEqual(new Set([delivered.eventoId]));
  });

  it('gives up on a receiver slower than the timeout ("tempo esgotado") and delivers once it is fast again', async () => {
    const r = await receiver({ delayMs: 4000 });
    const { auth } = await channelWith(service, r.url, ['proposta.criada']);
    await proposalLink(service, auth, VALID_CPFS[3]);
    const timedOut = await single(auth, 'first attempt timed out', (d) => d.tentativas >= 1 && d.ultimoErro !== undefined);
    expect(timedOut.status).toBe('PENDENTE');
    expect(timedOut.ultimoErro).toMatch(/^tempo esgotado/);
    expect(timedOut.ultimoHttpStatus).toBeUndefined();
    expect(timedOut.ultimaLatenciaMs).toBeGreaterThanOrEqual(900);
    expect(timedOut.ultimaLatenciaMs).toBeLessThan(3000);
    r.setDelay(0);
    const delivered = await single(auth, 'ENTREGUE', (d) => d.status === 'ENTREGUE');
    expect(delivered.tentativas).toBeGreaterThanOrEqual(2);
    expect(r.requests).toHaveLength(delivered.tentativas);
  });

  it('never follows a redirect: the redirect target receives nothing', async () => {
    const target = await receiver();
    const r = await receiver({ redirectTo: target.url });
    r.setRedirect(target.url, 307);
    const { auth } = await channelWith(service, r.url, ['proposta.criada']);
    await proposalLink(service, auth, VALID_CPFS[4]);
    // tentativas counts claims, so wait for the second request itself to arrive.
    await waitFor(() => r.requests.length >= 2, { timeoutMs: 15_000, what: 'two redirected attempts' });
    const retried = await single(auth, 'a recorded redirect', (d) => d.tentativas >= 2 && d.ultimoHttpStatus === 307);
    expect(retried).toMatchObject({
      status: 'PENDENTE',
      ultimoHttpStatus: 307,
      ultimoErro: 'redirecionamento não seguido (HTTP 307)',
    });
    r.setRedirect(target.url, 302);
    await single(auth, 'a 302 recorded', (d) => d.ultimoHttpStatus === 302);
    expect(r.requests.length).toBeGreaterThanOrEqual(3);
    expect(target.requests).toHaveLength(0);
    expect(target.connections).toBe(0);
  });

  it('reports a closed port as "conexão recusada"', async () => {
    const port = await freePort();
    const { auth } = await channelWith(service, `http://127.0.0.1:${port}/webhook`, ['proposta.criada']);
    await proposalLink(service, auth, VALID_CPFS[5]);
    const refused = await single(auth, 'refused attempt', (d) => d.tentativas >= 1 && d.ultimoErro !== undefined);
    expect(refused).toMatchObject({ status: 'PENDENTE', ultimoErro: 'conexão recusada' });
    expect(refused.ultimoHttpStatus).toBeUndefined();
  });
});

describe('POST /v1/webhooks/teste', () => {
  const teste = async (auth: Record<string, string>) => {
    const response = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: auth });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ entregue: boolean; httpStatus?: number; latenciaMs: number; erro?: string }>();
  };

  it('sends a signed webhook.teste at once, outside the queue', async () => {
    const r = await receiver({ status: 204 });
    const { canalId, auth, secret } = await channelWith(service, r.url);
    const result = await teste(auth);
    expect(result).toEqual({ entregue: true, httpStatus: 204, latenciaMs: expect.any(Number) });
    expect(r.requests).toHaveLength(1);
    const body = expectSignedRequest(r.requests[0]!, secret!, 1);
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      tipo: 'webhook.teste',
      ocorridoEm: expect.stringMatching(ISO),
      ambiente: 'SANDBOX',
      mensagem: expect.stringMatching(/\S/),
    });
    // No delivery and no event row: it is not in the history and cannot be resent.
    expect(await listDeliveries(service, auth)).toEqual([]);
    const rows = await service.ctx.database.db.selectFrom('deliveries').select('id').where('channel_id', '=', canalId).execute();
    expect(rows).toEqual([]);
    const events = await service.ctx.database.db
      .selectFrom('events')
      .select('id')
      .where('id', '=', body.id as string)
      .execute();
    expect(events).toEqual([]);
  });

  it('answers 200 with the failure of a 500 and never tries again', async () => {
    const r = await receiver({ status: 500 });
    const { auth } = await channelWith(service, r.url);
    expect(await teste(auth)).toEqual({ entregue: false, httpStatus: 500, latenciaMs: expect.any(Number), erro: 'HTTP 500' });
    // Retries here are 1 s apart: three of those pass without a second request.
    await sleep(3000);
    expect(r.requests).toHaveLength(1);
    expect(await listDeliveries(service, auth)).toEqual([]);
  });

  it('reports a timeout and a refused connection', async () => {
    const slow = await receiver({ delayMs: 4000 });
    const a = await channelWith(service, slow.url);
    const timedOut = await teste(a.auth);
    expect(timedOut).toMatchObject({ entregue: false, erro: expect.stringMatching(/^tempo esgotado/) });
    expect(timedOut.httpStatus).toBeUndefined();
    expect(timedOut.latenciaMs).toBeGreaterThanOrEqual(900);
    expect(timedOut.latenciaMs).toBeLessThan(3000);

    const port = await freePort();
    const b = await channelWith(service, `http://127.0.0.1:${port}/webhook`);
    const refused = await teste(b.auth);
    expect(refused).toEqual({ entregue: false, latenciaMs: expect.any(Number), erro: 'conexão recusada' });
  });
});
