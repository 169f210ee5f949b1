import { expect, it } from 'vitest';
import { startTestService } from '../helpers/service.ts';
import { createLinkVia } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { waitFor } from '../helpers/wait.ts';

it('smoke: events reach the inbox signed', async () => {
  const service = await startTestService({ worker: true, env: { CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1' } });
  try {
    const channel = await service.createChannel();
    const auth = await service.bearer(channel);
    const inbox = await service.inject({ method: 'PUT', url: '/v1/sandbox/receptor', headers: auth });
    expect(inbox.statusCode).toBe(200);
    const { url, visualizacaoUrl } = inbox.json();
    const wh = await service.inject({ method: 'PUT', url: '/v1/webhooks', headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify({ url }) });
    expect(wh.statusCode, wh.body).toBe(201);
    const test = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: auth });
    expect(test.json()).toMatchObject({ entregue: true, httpStatus: 200 });
    const link = (await createLinkVia(service, auth, { cpf: '12345678909' })).json();
    const client = new JourneyClient(service, link.url);
    await client.upToReview();
    await client.post('proposta');
    const token = url.split('/').pop();
    await waitFor(async () => (await service.inject({ method: 'GET', url: `/v1/sandbox/receptor/${token}/eventos` })).json().eventos.length === 3, { timeoutMs: 5000 });
    const events = (await service.inject({ method: 'GET', url: `/v1/sandbox/receptor/${token}/eventos` })).json().eventos;
    console.log(JSON.stringify(events.map((e: { tipo: string; assinaturaValida: boolean; motivo?: string }) => [e.tipo, e.assinaturaValida, e.motivo])));
    const deliveries = (await service.inject({ method: 'GET', url: '/v1/webhooks/entregas', headers: auth })).json();
    console.log(JSON.stringify(deliveries));
    const viewer = await service.inject({ method: 'GET', url: new URL(visualizacaoUrl).pathname });
    expect(viewer.statusCode).toBe(200);
    expect(viewer.body).toContain('Assinatura válida');
  } finally {
    await service.close();
  }
});
