// The webhook resource and its history through the public API: registration and its
// validation, reads that never show the secret, removal, the delivery list with its
// filters, and manual resend. The delivery worker runs only when a test starts it,
// so PENDENTE rows stay put while the API is inspected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { receiverPool } from '../helpers/receiver.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { startDeliveryWorker } from '../../src/webhooks/delivery/worker.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { proposalEvent } from '../../src/events/event-body.ts';
import {
  FAST_ENV,
  channelWith,
  listDeliveries,
  proposalLink,
  putWebhook,
  signedWith,
  simulate,
  type Delivery,
} from './support.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

/** Development switch on: local http receivers allowed. */
let service: TestService;
/** The switch off: production URL rules. */
let strict: TestService;
const receivers = receiverPool();
const receiver = receivers.start;

beforeAll(async () => {
  service = await startTestService({
    env: { ...FAST_ENV, CONSIGNA_DELIVERY_TIMEOUT_MS: '2000', CONSIGNA_WORKER_LEASE_SECONDS: '15' },
  });
  // Another service on the same database (a second PGlite would cost seconds to start).
  strict = await startTestService({ sameDatabaseAs: service, env: { CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1' } });
});

afterAll(async () => {
  await strict?.close();
  await service?.close();
  await receivers.closeAll();
});

/** Runs the real delivery worker of `service` only for the duration of `fn`. */
async function withWorker<T>(fn: () => Promise<T>): Promise<T> {
  const worker = await startDeliveryWorker(service.ctx);
  try {
    return await fn();
  } finally {
    await worker.stop();
  }
}

const expectError = (
  response: { statusCode: number; json(): unknown; headers: Record<string, unknown> },
  status: number,
  code: string,
) => {
  expect(response.statusCode).toBe(status);
  expect(response.json()).toEqual({ code, message: expect.stringMatching(/\S/), requestId: response.headers['x-request-id'] });
};

describe('without a webhook', () => {
  it('every webhook endpoint answers 404 nao_encontrado', async () => {
    const { auth } = await channelWith(service);
    const calls = [
      { method: 'GET', url: '/v1/webhooks' },
      { method: 'DELETE', url: '/v1/webhooks' },
      { method: 'POST', url: '/v1/webhooks/segredo' },
      { method: 'POST', url: '/v1/webhooks/teste' },
      { method: 'GET', url: '/v1/webhooks/entregas' },
      { method: 'POST', url: `/v1/webhooks/entregas/${crypto.randomUUID()}/reenviar` },
    ] as const;
    for (const call of calls) {
      const response = await service.inject({ ...call, headers: auth });
      expectError(response, 404, 'nao_encontrado');
    }
    // And all of them want a token.
    for (const call of [...calls, { method: 'PUT', url: '/v1/webhooks' } as const]) {
      const response = await service.inject(call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
      expect(response.json().code).toBe('unauthorized');
    }
  });
});

describe('PUT, GET and DELETE /v1/webhooks', () => {
  it('creates with 201 and a secret shown once, updates with 200 without it, reads never show it', async () => {
    const r = await receiver();
    const { auth, json } = await channelWith(service);

    const created = await putWebhook(service, json, { url: r.url });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const webhook = created.json();
    expect(webhook).toEqual({
      ambiente: 'SANDBOX',
      url: r.url,
      eventos: [],
      ativo: true,
      criadoEm: expect.stringMatching(ISO),
      atualizadoEm: webhook.criadoEm,
      segredo: expect.stringMatching(SECRET),
    });
    const secret = webhook.segredo as string;
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const read = await service.inject({ method: 'GET', url: '/v1/webhooks', headers: auth });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      ambiente: 'SANDBOX',
      url: r.url,
      eventos: [],
      ativo: true,
      criadoEm: webhook.criadoEm,
      atualizadoEm: webhook.atualizadoEm,
      // Nothing delivered yet: a clean bill of health (test/webhooks/endpoint-health.test.ts follows it through an outage).
      saude: { falhasSeguidas: 0, contido: false, pendentes: 0, falhas: 0 },
    });
    expect(read.body).not.toContain('whsec_');

    const other = await receiver();
    const updated = await putWebhook(service, json, { url: other.url, eventos: ['proposta.aprovada', 'proposta.recusada'] });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({
      ambiente: 'SANDBOX',
      url: other.url,
      eventos: ['proposta.aprovada', 'proposta.recusada'],
      ativo: true,
      criadoEm: webhook.criadoEm,
      atualizadoEm: expect.stringMatching(ISO),
    });
    expect(updated.body).not.toContain('whsec_');
    expect(Date.parse(updated.json().atualizadoEm)).toBeGreaterThanOrEqual(Date.parse(webhook.criadoEm));

    // The update kept the secret: what reaches the new URL is signed with the first one.
    const test = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: auth });
    expect(test.json()).toMatchObject({ entregue: true, httpStatus: 200 });
    expect(r.requests).toHaveLength(0);
    expect(other.requests).toHaveLength(1);
    expect(signedWith(other.requests[0]!, secret)).toBe(true);

    // An update that leaves out eventos goes back to all types.
    const all = await putWebhook(service, json, { url: other.url });
    expect(all.statusCode).toBe(200);
    expect(all.json().eventos).toEqual([]);
    const empty = await putWebhook(service, json, { url: other.url, eventos: [] });
    expect(empty.json().eventos).toEqual([]);
  });

  it('DELETE answers 204 with no body; afterwards reads are 404 and a new PUT creates a new secret', async () => {
    const r = await receiver();
    const { auth, json, secret } = await channelWith(service, r.url);
    const deleted = await service.inject({ method: 'DELETE', url: '/v1/webhooks', headers: auth });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expectError(await service.inject({ method: 'GET', url: '/v1/webhooks', headers: auth }), 404, 'nao_encontrado');
    expectError(await service.inject({ method: 'DELETE', url: '/v1/webhooks', headers: auth }), 404, 'nao_encontrado');
    const again = await putWebhook(service, json, { url: r.url });
    expect(again.statusCode).toBe(201);
    expect(again.json().segredo).toMatch(SECRET);
    expect(again.json().segredo).not.toBe(secret);
  });
});

describe('PUT /v1/webhooks validation', () => {
  it('refuses URLs that break the rules with 400 url_invalida (development switch off)', async () => {
    const { json } = await channelWith(strict);
    const host = 'hooks.fintech-exemplo.com.br';
    const invalid: Array<[string, unknown]> = [
      ['missing', undefined],
      ['number', 123],
      ['null', null],
      ['array', [`https://${host}/`]],
      ['empty', ''],
      ['not a URL', 'não é uma url'],
      ['http', `http://${host}/webhook`],
      ['ftp', `ftp://${host}/webhook`],
      ['IPv4 literal', 'https://203.0.113.10/webhook'],
      ['IPv4 loopback literal', 'https://127.0.0.1:8443/webhook'],
      ['IPv4 in decimal', 'https://2130706433/webhook'],
      ['IPv6 literal', 'https://[2001:db8::1]/webhook'],
      ['localhost', 'https://localhost/webhook'],
      ['name under localhost', 'https://api.localhost/webhook'],
      ['single label', 'https://intranet/webhook'],
      ['.internal', 'https://hooks.servico.internal/webhook'],
      ['.local', 'https://impressora.local/webhook'],
      ['user and password', `https://usuario:senha@${host}/webhook`],
      ['user only', `https://usuario@${host}/webhook`],
      ['port 80', `https://${host}:80/webhook`],
      ['port 1024', `https://${host}:1024/webhook`],
      ['over 2048 characters', `https://${host}/${'a'.repeat(2049 - `https://${host}/`.length)}`],
      ['surrounding space', ` https://${host}/webhook`],
    ];
    for (const [label, url] of invalid) {
      const response = await putWebhook(strict, json, url === undefined ? {} : { url });
      expect(response.statusCode, label).toBe(400);
      expect(response.json().code, `${label}: ${response.body}`).toBe('url_invalida');
    }
    expectError(await strict.inject({ method: 'GET', url: '/v1/webhooks', headers: json }), 404, 'nao_encontrado');

    const valid = [
      `https://${host}/${'a'.repeat(2048 - `https://${host}/`.length)}`,
      `https://${host}:443/webhook`,
      `https://${host}:8443/webhook?canal=1`,
      `https://${host}/webhook`,
    ];
    for (const url of valid) {
      const response = await putWebhook(strict, json, { url });
      expect([200, 201], `${url.slice(0, 80)}: ${response.body}`).toContain(response.statusCode);
    }
  });

  it('the development switch allows http and loopback, but never credentials', async () => {
    const { json } = await channelWith(service);
    expect((await putWebhook(service, json, { url: 'http://127.0.0.1:9/webhook' })).statusCode).toBe(201);
    expect((await putWebhook(service, json, { url: 'http://localhost:8080/webhook' })).statusCode).toBe(200);
    const withUser = await putWebhook(service, json, { url: 'http://usuario:senha@127.0.0.1:8080/webhook' });
    expect(withUser.json().code).toBe('url_invalida');
  });

  it("accepts this service's own test-inbox URL without the switch, and no look-alike of it", async () => {
    const { auth, json } = await channelWith(strict);
    const inbox = await strict.inject({ method: 'PUT', url: '/v1/sandbox/receptor', headers: auth });
    expect(inbox.statusCode).toBe(200);
    const inboxUrl = inbox.json().url as string;
    expect(inboxUrl.startsWith('http://127.0.0.1:')).toBe(true);
    for (const lookAlike of [`${inboxUrl}/extra`, inboxUrl.replace('sbx_', 'abc_')]) {
      expect((await putWebhook(strict, json, { url: lookAlike })).json().code, lookAlike).toBe('url_invalida');
    }
    const registered = await putWebhook(strict, json, { url: inboxUrl });
    expect(registered.statusCode, registered.body).toBe(201);
    const test = await strict.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: auth });
    expect(test.json()).toMatchObject({ entregue: true, httpStatus: 200 });
  });

  it('refuses bad event lists with 400 eventos_invalidos', async () => {
    const { json } = await channelWith(service);
    const url = 'http://127.0.0.1:9/webhook';
    const invalid: Array<[string, unknown]> = [
      ['webhook.teste', ['webhook.teste']],
      ['unknown type', ['proposta.inexistente']],
      ['unknown beside a valid one', ['proposta.criada', 'proposta.paga']],
      ['duplicates', ['proposta.criada', 'proposta.criada']],
      ['string', 'proposta.criada'],
      ['object', { tipo: 'proposta.criada' }],
      ['number inside', [1]],
      ['null', null],
      ['different case', ['PROPOSTA.CRIADA']],
    ];
    for (const [label, eventos] of invalid) {
      const response = await putWebhook(service, json, { url, eventos });
      expect(response.statusCode, label).toBe(400);
      expect(response.json().code, `${label}: ${response.body}`).toBe('eventos_invalidos');
    }
    const all = await putWebhook(service, json, {
      url,
      eventos: [
        'proposta.criada',
        'proposta.aguardando_formalizacao',
        'proposta.formalizada',
        'proposta.aprovada',
        'proposta.recusada',
        'proposta.cancelada',
        'proposta.falha',
      ],
    });
    expect(all.statusCode, all.body).toBe(201);
  });

  it('answers requisicao_invalida for unknown fields and malformed bodies', async () => {
    const { json } = await channelWith(service);
    const url = 'http://127.0.0.1:9/webhook';
    const unknown = await putWebhook(service, json, { url, segredo: 'whsec_meu' });
    expectError(unknown, 400, 'requisicao_invalida');
    expectError(await putWebhook(service, json, [url]), 400, 'requisicao_invalida');
    const notJson = await service.inject({ method: 'PUT', url: '/v1/webhooks', headers: json, payload: '{"url": ' });
    expectError(notJson, 400, 'requisicao_invalida');
    expectError(await service.inject({ method: 'GET', url: '/v1/webhooks', headers: json }), 404, 'nao_encontrado');
  });

  it('the operations that take no body refuse one with fields, and accept none, an empty one or {}', async () => {
    const r = await receiver();
    const { auth, json } = await channelWith(service, r.url);
    const operations = ['/v1/webhooks/segredo', '/v1/webhooks/teste', `/v1/webhooks/entregas/${crypto.randomUUID()}/reenviar`];
    for (const url of operations) {
      for (const payload of ['{"x":1}', '[]', '"segredo"']) {
        expectError(await service.inject({ method: 'POST', url, headers: json, payload }), 400, 'requisicao_invalida');
      }
    }
    // Nothing happened: the secret was not rotated, no test event was sent.
    expect((await service.inject({ method: 'GET', url: '/v1/webhooks', headers: auth })).json()).not.toHaveProperty(
      'segredoAnteriorValidoAte',
    );
    expect(r.requests).toEqual([]);

    for (const [headers, payload] of [
      [auth, undefined],
      [json, ''],
      [json, '{}'],
    ] as const) {
      const post = (url: string) =>
        service.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload }) });
      const rotated = await post('/v1/webhooks/segredo');
      expect(rotated.statusCode, rotated.body).toBe(200);
      rememberSecret(rotated.json().segredo);
      const test = await post('/v1/webhooks/teste');
      expect(test.statusCode, test.body).toBe(200);
      expect(test.json().entregue).toBe(true);
    }
    expect(r.requests).toHaveLength(3);
  });
});

describe('GET /v1/webhooks/entregas and POST …/reenviar', () => {
  it('lists newest first with status filters, resends FALHOU and ENTREGUE, refuses PENDENTE, and DELETE drops only pending rows', async () => {
    const r = await receiver();
    const { canalId, auth, json } = await channelWith(service, r.url);
    const linkId = await proposalLink(service, auth);

    // No worker yet: both deliveries wait, untried, due now. The list shows an event once
    // every transaction running on the server is newer than it (deliveries.repository.ts):
    // in CI other test files' transactions run on the same PostgreSQL, so it may take a moment.
    let waiting: Delivery[] = [];
    await waitFor(async () => (waiting = await listDeliveries(service, auth)).length >= 2, { what: 'both deliveries listed' });
    expect(waiting.map((d) => [d.tipo, d.status, d.tentativas])).toEqual([
      ['proposta.aguardando_formalizacao', 'PENDENTE', 0],
      ['proposta.criada', 'PENDENTE', 0],
    ]);
    for (const d of waiting) {
      expect(d).toEqual({
        id: d.id,
        eventoId: d.eventoId,
        tipo: d.tipo,
        status: 'PENDENTE',
        tentativas: 0,
        tentativasTotais: 0,
        proximaTentativaEm: d.criadoEm,
        criadoEm: expect.stringMatching(ISO),
      });
    }
    const pendingResend = await service.inject({
      method: 'POST',
      url: `/v1/webhooks/entregas/${waiting[0]!.id}/reenviar`,
      headers: auth,
    });
    expectError(pendingResend, 409, 'entrega_pendente');

    await withWorker(() =>
      waitFor(async () => (await listDeliveries(service, auth)).every((d) => d.status === 'ENTREGUE'), {
        timeoutMs: 10_000,
        what: 'ENTREGUE',
      }),
    );
    r.setStatus(500);
    await simulate(service, json, linkId, 'FORMALIZADA');
    await withWorker(() =>
      waitFor(async () => (await listDeliveries(service, auth, '?status=FALHOU')).length === 1, {
        timeoutMs: 30_000,
        what: 'FALHOU',
      }),
    );
    await simulate(service, json, linkId, 'APROVADA');

    // As above: the new event is listed once the transactions running beside it have ended.
    let all: Delivery[] = [];
    await waitFor(async () => (all = await listDeliveries(service, auth)).length >= 4, { what: 'the fourth delivery listed' });
    expect(all.map((d) => [d.tipo, d.status])).toEqual([
      ['proposta.aprovada', 'PENDENTE'],
      ['proposta.formalizada', 'FALHOU'],
      ['proposta.aguardando_formalizacao', 'ENTREGUE'],
      ['proposta.criada', 'ENTREGUE'],
    ]);
    const [aprovada, formalizada, aguardando, criada] = all as [Delivery, Delivery, Delivery, Delivery];
    expect((await listDeliveries(service, auth, '?status=PENDENTE')).map((d) => d.id)).toEqual([aprovada.id]);
    expect((await listDeliveries(service, auth, '?status=FALHOU')).map((d) => d.id)).toEqual([formalizada.id]);
    expect((await listDeliveries(service, auth, '?status=ENTREGUE')).map((d) => d.id)).toEqual([aguardando.id, criada.id]);
    expect((await listDeliveries(service, auth, '?limite=2')).map((d) => d.id)).toEqual([aprovada.id, formalizada.id]);
    expect((await listDeliveries(service, auth, '?limite=1&status=ENTREGUE')).map((d) => d.id)).toEqual([aguardando.id]);
    expect(formalizada).toMatchObject({ tentativas: 7, ultimoHttpStatus: 500, ultimoErro: 'HTTP 500' });

    // FALHOU → resent now to a receiver that accepts it: the answer is the record after that attempt.
    r.setStatus(200);
    const before = r.requests.length;
    const resent = await service.inject({
      method: 'POST',
      url: `/v1/webhooks/entregas/${formalizada.id}/reenviar`,
      headers: auth,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toEqual({
      id: formalizada.id,
      eventoId: formalizada.eventoId,
      tipo: 'proposta.formalizada',
      status: 'ENTREGUE',
      tentativas: 1,
      tentativasTotais: 8,
      ultimoHttpStatus: 200,
      ultimaLatenciaMs: expect.any(Number),
      ultimaTentativaEm: expect.stringMatching(ISO),
      entregueEm: expect.stringMatching(ISO),
      criadoEm: formalizada.criadoEm,
    });
    expect(r.requests).toHaveLength(before + 1);
    expect(r.requests.at(-1)!.headers).toMatchObject({
      'x-service-delivery-attempt': '1',
      'x-service-event-id': formalizada.eventoId,
    });

    // ENTREGUE → resent to a failing receiver: PENDENTE again, one attempt, retry scheduled, not delivered.
    r.setStatus(500);
    const failing = await service.inject({ method: 'POST', url: `/v1/webhooks/entregas/${criada.id}/reenviar`, headers: auth });
    expect(failing.statusCode, failing.body).toBe(200);
    expect(failing.json()).toEqual({
      id: criada.id,
      eventoId: criada.eventoId,
      tipo: 'proposta.criada',
      status: 'PENDENTE',
      tentativas: 1,
      tentativasTotais: 2,
      proximaTentativaEm: expect.stringMatching(ISO),
      ultimoHttpStatus: 500,
      ultimoErro: 'HTTP 500',
      ultimaLatenciaMs: expect.any(Number),
      ultimaTentativaEm: expect.stringMatching(ISO),
      criadoEm: criada.criadoEm,
    });
    const retryIn = Date.parse(failing.json().proximaTentativaEm) - Date.parse(failing.json().ultimaTentativaEm);
    expect(retryIn).toBe(1000);
    expectError(
      await service.inject({ method: 'POST', url: `/v1/webhooks/entregas/${criada.id}/reenviar`, headers: auth }),
      409,
      'entrega_pendente',
    );

    // Unknown ids, ids that are not uuids, and another channel's delivery are all 404.
    const other = await channelWith(service, r.url);
    for (const [who, id] of [
      [auth, crypto.randomUUID()],
      [auth, 'nao-e-uuid'],
      [auth, '12345'],
      [other.auth, aguardando.id],
    ] as const) {
      expectError(
        await service.inject({ method: 'POST', url: `/v1/webhooks/entregas/${id}/reenviar`, headers: who }),
        404,
        'nao_encontrado',
      );
    }
    expect(await listDeliveries(service, other.auth)).toEqual([]);

    // DELETE: the two pending deliveries (aprovada, and criada being retried) go; history stays.
    const deleted = await service.inject({ method: 'DELETE', url: '/v1/webhooks', headers: auth });
    expect(deleted.statusCode).toBe(204);
    const rows = await service.ctx.database.db
      .selectFrom('deliveries')
      .select(['id', 'status'])
      .where('channel_id', '=', canalId)
      .orderBy('id')
      .execute();
    expect(rows).toEqual(
      [
        { id: aguardando.id, status: 'ENTREGUE' },
        { id: formalizada.id, status: 'ENTREGUE' },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    // …and they are never sent afterwards, even with a worker running for several retry periods.
    r.setStatus(200);
    const sentBefore = r.requests.length;
    await withWorker(() => sleep(2500));
    expect(r.requests).toHaveLength(sentBefore);
    expect(r.forEvent(aprovada.eventoId)).toHaveLength(0);
    // A change after removal creates no delivery at all.
    await simulate(service, json, linkId, 'CANCELADA');
    const after = await service.ctx.database.db.selectFrom('deliveries').select('id').where('channel_id', '=', canalId).execute();
    expect(after).toHaveLength(2);
  }, 50_000);

  it('limite defaults to 20 and accepts 1 to 100; invalid status or limite are 400', async () => {
    const { canalId, auth } = await channelWith(service, 'http://127.0.0.1:9/webhook');
    const link = await createLinkVia(service, auth, { cpf: VALID_CPFS[2] });
    const linkRef = { id: link.json().id as string, referenciaExterna: null };
    const base = Date.now();
    // 105 events through the outbox, each in its own millisecond, oldest first.
    await service.ctx.database.db.transaction().execute(async (tx) => {
      for (let i = 0; i < 105; i++) {
        const event = proposalEvent({
          tipo: 'proposta.formalizada',
          at: new Date(base + i),
          ambiente: 'SANDBOX',
          link: linkRef,
          proposta: { numero: 900_000 + i, status: 'FORMALIZADA', valor: 1000, parcelas: 12, valorParcela: 100 },
        });
        await recordEvent(tx, canalId, event);
      }
    });
    // Listed once every transaction running on the server is newer than theirs (see above).
    let page: Delivery[] = [];
    await waitFor(async () => (page = await listDeliveries(service, auth)).length > 0, { what: 'the events listed' });
    expect(page).toHaveLength(20);
    const times = page.map((d) => Date.parse(d.criadoEm));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times[0]).toBe(base + 104);
    expect(await listDeliveries(service, auth, '?limite=1')).toHaveLength(1);
    expect(await listDeliveries(service, auth, '?limite=100')).toHaveLength(100);
    expect(await listDeliveries(service, auth, '?limite=100&status=PENDENTE')).toHaveLength(100);
    expect(await listDeliveries(service, auth, '?status=ENTREGUE')).toEqual([]);
    expect(await listDeliveries(service, auth, '?status=FALHOU')).toEqual([]);

    for (const limite of ['0', '101', 'abc', '1.5', '-1', '']) {
      const response = await service.inject({ method: 'GET', url: `/v1/webhooks/entregas?limite=${limite}`, headers: auth });
      expectError(response, 400, 'limite_invalido');
    }
    for (const status of ['ENVIADA', 'pendente', 'CANCELADA', '']) {
      const response = await service.inject({ method: 'GET', url: `/v1/webhooks/entregas?status=${status}`, headers: auth });
      expectError(response, 400, 'status_invalido');
    }
  });
});
