// The inbox as a webhook target (docs/rules.md §5 and §6): its URL is accepted by
// PUT /v1/webhooks without CONSIGNA_ALLOW_INSECURE_WEBHOOKS, and deliveries to it go
// through the delivery engine (signed, counted as attempts, retried on a 5xx set with
// …/modo) but straight into the inbox: PUBLIC_BASE_URL points at a port nobody listens
// on, so any network hop would fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestService, type TestService } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { listDeliveries, proposalLink, simulate, type Delivery } from '../webhooks/support.ts';
import {
  channelWithInbox,
  channelWithRegisteredInbox,
  expectEventShape,
  listEvents,
  setMode,
  signatureFor,
  type ReceivedEvent,
} from './support.ts';

let service: TestService;
let base: string;

beforeAll(async () => {
  base = `http://127.0.0.1:${await freePort()}`;
  service = await startTestService({ worker: true, env: { PUBLIC_BASE_URL: base, CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1' } });
});
afterAll(() => service?.close());

const registered = () => channelWithRegisteredInbox(service);

/** The stored raw body of a record matches the signature with `secret` (checked by hand). */
async function signedWith(event: ReceivedEvent, secret: string): Promise<boolean> {
  const row = await service.ctx.database.db
    .selectFrom('inbox_events')
    .select('corpo')
    .where('id', '=', event.id)
    .executeTakeFirstOrThrow();
  const header = event.headers['x-service-signature']!;
  const t = Number(/^t=(\d+)/.exec(header)![1]);
  return header.includes(signatureFor([secret], t, row.corpo).split(',')[1]!);
}

describe('the inbox as the channel webhook', () => {
  it('has its URL accepted without the insecure-webhooks flag, which still refuses other local URLs', async () => {
    expect(service.config.allowInsecureWebhooks).toBe(false);
    const { inbox, json } = await channelWithInbox(service);
    expect(inbox.url.startsWith(`${base}/v1/sandbox/receptor/sbx_`)).toBe(true);
    const put = (url: string) =>
      service.inject({ method: 'PUT', url: '/v1/webhooks', headers: json, payload: JSON.stringify({ url }) });
    // Not the inbox: another path on our address, a sub-path of the inbox, the inbox path
    // with a token of no inbox under another name (a foreign URL, http: refused).
    const unknown = inbox.url.replace(/sbx_\w+$/, `sbx_${'x'.repeat(32)}`).replace('127.0.0.1', 'localhost');
    for (const url of [`${base}/webhook`, `${inbox.url}/x`, unknown]) {
      const r = await put(url);
      expect(r.statusCode, url).toBe(400);
      expect(r.json().code).toBe('url_invalida');
    }
    const created = await put(inbox.url);
    expect(created.statusCode, created.body).toBe(201);
    rememberSecret(created.json().segredo);
    expect(created.json().url).toBe(inbox.url);
    // The channel's own inbox under another name for the host is its inbox (its token decides).
    const renamed = await put(inbox.url.replace('127.0.0.1', 'localhost'));
    expect(renamed.statusCode, renamed.body).toBe(200);
  });

  it('is reached without the network: PUBLIC_BASE_URL points at a closed port', async () => {
    await expect(fetch(`${base}/health`)).rejects.toThrow();
    const { auth, token, secret } = await registered();
    const test = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: auth });
    expect(test.json()).toMatchObject({ entregue: true, httpStatus: 200, latenciaMs: expect.any(Number) });
    const [event] = (await listEvents(service, token)).eventos;
    expect(event).toMatchObject({ tipo: 'webhook.teste', assinaturaValida: true });
    expect(await signedWith(event!, secret)).toBe(true);
  });

  it('receives proposal events from the delivery engine, signed and counted as attempts', async () => {
    const { auth, token, secret } = await registered();
    await proposalLink(service, auth);
    await waitFor(async () => (await listDeliveries(service, auth)).filter((d) => d.status === 'ENTREGUE').length === 2, {
      what: 'two deliveries ENTREGUE',
    });
    const deliveries = await listDeliveries(service, auth);
    const { eventos } = await listEvents(service, token);
    expect(eventos.map((e) => e.tipo).toSorted()).toEqual(['proposta.aguardando_formalizacao', 'proposta.criada']);
    for (const event of eventos) {
      expectEventShape(event);
      expect(event).toMatchObject({ tentativa: '1', assinaturaValida: true, respondeuStatus: 200 });
      expect(event.headers['user-agent']).toMatch(/^Consigna-Webhooks\//);
      expect(await signedWith(event, secret)).toBe(true);
      const delivery = deliveries.find((d) => d.eventoId === event.eventoId)!;
      expect(delivery).toMatchObject({
        tipo: event.tipo,
        status: 'ENTREGUE',
        tentativas: 1,
        ultimoHttpStatus: 200,
        ultimaLatenciaMs: expect.any(Number),
      });
      expect((event.corpo as { id: string }).id).toBe(event.eventoId);
    }
  });

  it('is retried by the engine while the inbox answers 500, then delivered', async () => {
    const { auth, json, token, secret } = await registered();
    const linkId = await proposalLink(service, auth);
    await waitFor(async () => (await listEvents(service, token)).eventos.length === 2, { what: 'the two proposal events' });
    await service.inject({ method: 'DELETE', url: '/v1/sandbox/receptor/eventos', headers: auth });

    await setMode(service, token, 500);
    await simulate(service, json, linkId, 'FORMALIZADA');
    const formalizada = async (): Promise<Delivery | undefined> =>
      (await listDeliveries(service, auth)).find((d) => d.tipo === 'proposta.formalizada');
    await waitFor(async () => ((await formalizada())?.tentativas ?? 0) >= 2, { what: 'two failed attempts', timeoutMs: 8000 });
    const failing = (await formalizada())!;
    expect(failing).toMatchObject({
      status: 'PENDENTE',
      ultimoHttpStatus: 500,
      ultimoErro: 'HTTP 500',
      proximaTentativaEm: expect.any(String),
    });

    await setMode(service, token, 200);
    await waitFor(async () => (await formalizada())?.status === 'ENTREGUE', { what: 'the delivery ENTREGUE', timeoutMs: 8000 });
    const delivered = (await formalizada())!;
    expect(delivered.tentativas).toBeGreaterThanOrEqual(3);
    expect(delivered).toMatchObject({ ultimoHttpStatus: 200, entregueEm: expect.any(String) });

    // One inbox record per attempt: same event, increasing attempt numbers, every one signed.
    const records = (await listEvents(service, token)).eventos.filter((e) => e.eventoId === delivered.eventoId).toReversed();
    expect(records).toHaveLength(delivered.tentativas);
    expect(records.map((e) => e.tentativa)).toEqual(records.map((_, i) => String(i + 1)));
    expect(records.map((e) => e.respondeuStatus)).toEqual([...Array(records.length - 1).fill(500), 200]);
    for (const record of records) {
      expect(record.assinaturaValida).toBe(true);
      expect(record.corpo).toEqual(records[0]!.corpo);
      expect(await signedWith(record, secret)).toBe(true);
    }
  });

  it("refuses an inbox URL that is not the channel's own: unknown token, or another channel's inbox", async () => {
    const { json } = await channelWithInbox(service);
    const other = await channelWithInbox(service);
    const ghost = `${base}/v1/sandbox/receptor/sbx_${'Q'.repeat(32)}`;
    for (const url of [ghost, other.inbox.url]) {
      const r = await service.inject({ method: 'PUT', url: '/v1/webhooks', headers: json, payload: JSON.stringify({ url }) });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().code).toBe('url_invalida');
    }
    const own = await service.inject({ method: 'GET', url: '/v1/webhooks', headers: json });
    expect(own.statusCode).toBe(404);
  });
});
