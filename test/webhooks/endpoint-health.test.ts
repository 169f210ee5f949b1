// The endpoint health a channel reads on GET /v1/webhooks (`saude`) and operators with
// `consigna channels health`, through an outage and a recovery of a real receiver:
// failures in a row, containment, the last failure and its reason, pending and failed
// deliveries, then the last success and everything back to normal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { receiverPool } from '../helpers/receiver.ts';
import { waitFor } from '../helpers/wait.ts';
import { FAST_ENV, channelWith, proposalLink, simulate } from './support.ts';
import { channelsHealth, type EndpointHealth as Saude } from '../../src/webhooks/webhooks.service.ts';

let service: TestService;
const receivers = receiverPool();

beforeAll(async () => {
  service = await startTestService({ worker: true, env: { ...FAST_ENV, CONSIGNA_DELIVERY_TIMEOUT_MS: '2000' } });
});
afterAll(async () => {
  await service?.close();
  await receivers.closeAll();
});

describe('endpoint health', () => {
  it('follows an outage and a recovery, for the channel and for operators', async () => {
    const receiver = await receivers.start({ status: 503 });
    const { canalId, auth, json } = await channelWith(service, receiver.url, ['proposta.criada', 'proposta.formalizada']);
    const health = async (): Promise<Saude> => {
      const r = await service.inject({ method: 'GET', url: '/v1/webhooks', headers: auth });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().saude;
    };
    expect(await health()).toEqual({ falhasSeguidas: 0, contido: false, pendentes: 0, falhas: 0 });

    // The outage: one delivery, every attempt answered 503, until it is FALHOU.
    const linkId = await proposalLink(service, auth);
    await waitFor(async () => (await health()).falhasSeguidas >= 3, { timeoutMs: 15_000, what: 'three failures in a row' });
    const during = await health();
    expect(during).toMatchObject({ contido: true, ultimaFalhaMotivo: 'HTTP 503', pendentes: 1, falhas: 0 });
    expect(Date.parse(during.contidoDesde!)).toBeLessThanOrEqual(Date.now());
    expect(during.ultimoSucessoEm).toBeUndefined();
    // The workers write their health a moment after the attempts themselves.
    await waitFor(
      async () => {
        const h = await health();
        return h.falhas === 1 && h.falhasSeguidas === 7;
      },
      { timeoutMs: 30_000, what: 'the delivery FALHOU after 7 attempts' },
    );
    expect(await health()).toMatchObject({ falhasSeguidas: 7, contido: true, pendentes: 0, falhas: 1 });

    // Operators see the same, by channel, with the webhook's host only.
    const operators = (await channelsHealth(service.ctx)).find((c) => c.canalId === canalId)!;
    expect(operators.host).toBe(new URL(receiver.url).host);
    expect(operators.saude).toEqual(await health());

    // The recovery: the next event is answered 200.
    receiver.setStatus(200);
    await simulate(service, json, linkId, 'FORMALIZADA');
    await waitFor(async () => (await health()).contido === false, { timeoutMs: 15_000, what: 'containment released' });
    const after = await health();
    expect(after).toMatchObject({ falhasSeguidas: 0, contido: false, pendentes: 0, falhas: 1, ultimaFalhaMotivo: 'HTTP 503' });
    expect(Date.parse(after.ultimoSucessoEm!)).toBeGreaterThanOrEqual(Date.parse(after.ultimaFalhaEm!));
    expect(after.contidoDesde).toBeUndefined();

    // Resending the failed delivery (now answered 200) leaves nothing failed.
    const failed = (await service.inject({ method: 'GET', url: '/v1/webhooks/entregas?status=FALHOU', headers: auth })).json()
      .entregas[0];
    const resent = await service.inject({ method: 'POST', url: `/v1/webhooks/entregas/${failed.id}/reenviar`, headers: auth });
    expect(resent.json().status).toBe('ENTREGUE');
    expect((await health()).falhas).toBe(0);
  }, 90_000);

  it('never shows another channel’s health, and has none for a channel without a webhook', async () => {
    const { auth } = await channelWith(service);
    const r = await service.inject({ method: 'GET', url: '/v1/webhooks', headers: auth });
    expect(r.statusCode).toBe(404);
    expect(r.json().code).toBe('nao_encontrado');
  });
});
