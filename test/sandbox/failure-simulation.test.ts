// Failure paths on demand (docs/rules.md §6.11, §6.12): POST /v1/webhooks/retentativas/simular
// makes the channel's retries fast, so that a delivery to an inbox answering 500 reaches
// FALHOU after its seven attempts within a minute (the standard schedule is left as it is:
// the channel's own interval is what makes it fast), and bulk recovery then delivers it;
// POST /v1/links/{id}/expiracao/simular expires a link now, as time would. Both are 404 in
// REAL, like the other sandbox helpers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { waitFor } from '../helpers/wait.ts';
import { channelWithRegisteredInbox, listEvents, setMode, type InboxSetup } from './support.ts';
import { channelWith, listDeliveries, type Delivery } from '../webhooks/support.ts';

const STANDARD = [60, 300, 1800, 7200, 21600, 86400];

let service: TestService;
let setup: InboxSetup;

beforeAll(async () => {
  // The worker runs with the standard schedule: no CONSIGNA_RETRY_DELAYS.
  const base = `http://127.0.0.1:${await freePort()}`;
  service = await startTestService({ worker: true, env: { PUBLIC_BASE_URL: base } });
  expect(service.config.retryDelaysSeconds).toEqual(STANDARD);
  setup = await channelWithRegisteredInbox(service);
});
afterAll(() => service?.close());

const simulateRetries = (json: Record<string, string>, payload: string) =>
  service.inject({ method: 'POST', url: '/v1/webhooks/retentativas/simular', headers: json, payload });

const simulateExpiry = (id: string, auth = setup.auth) =>
  service.inject({ method: 'POST', url: `/v1/links/${id}/expiracao/simular`, headers: auth });

async function newLink(cpf: string, auth = setup.auth) {
  const created = await createLinkVia(service, auth, { cpf });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ id: string; url: string; expiraEm: string }>();
}

const storedInterval = async (channelId: string) =>
  (
    await service.ctx.database.db
      .selectFrom('webhooks')
      .select('intervalo_retentativa_segundos')
      .where('channel_id', '=', channelId)
      .executeTakeFirstOrThrow()
  ).intervalo_retentativa_segundos;

describe('POST /v1/webhooks/retentativas/simular', () => {
  it('with an inbox answering 500 and 1 s, a delivery fails for good after 7 attempts within a minute; bulk recovery then delivers it', async () => {
    await setMode(service, setup.token, 500);
    const fast = await simulateRetries(setup.json, JSON.stringify({ intervaloSegundos: 1 }));
    expect(fast.statusCode, fast.body).toBe(200);
    expect(fast.json()).toEqual({ intervalosSegundos: [1, 1, 1, 1, 1, 1] });

    // …604: the journey records proposta.criada only, one delivery.
    const started = Date.now();
    const link = await newLink('00000000604');
    const journey = await service.inject({ method: 'POST', url: `/v1/links/${link.id}/jornada/simular`, headers: setup.auth });
    expect(journey.statusCode, journey.body).toBe(200);

    let failed: Delivery | undefined;
    await waitFor(
      async () => {
        failed = (await listDeliveries(service, setup.auth, `?linkId=${link.id}`)).find((d) => d.status === 'FALHOU');
        return failed !== undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'the delivery to fail for good' },
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(failed).toMatchObject({ tipo: 'proposta.criada', tentativas: 7, ultimoHttpStatus: 500 });
    const detail = await service.inject({ method: 'GET', url: `/v1/webhooks/entregas/${failed!.id}`, headers: setup.auth });
    const historico = detail.json<{ historico: Array<{ numero: number; httpStatus: number; tentadaEm: string }> }>().historico;
    expect(historico.map((h) => [h.numero, h.httpStatus])).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => [n, 500]));
    // Each retry came about a second after the attempt before (not the standard 60 s).
    for (let i = 1; i < historico.length; i++) {
      const gap = Date.parse(historico[i]!.tentadaEm) - Date.parse(historico[i - 1]!.tentadaEm);
      expect(gap, `gap before attempt ${i + 1}`).toBeGreaterThanOrEqual(900);
      expect(gap, `gap before attempt ${i + 1}`).toBeLessThan(15_000);
    }
    // The inbox received the seven attempts, all answered 500.
    const received = (await listEvents(service, setup.token)).eventos.filter((e) => e.tipo === 'proposta.criada');
    expect(received.map((e) => [e.tentativa, e.respondeuStatus])).toEqual(
      ['7', '6', '5', '4', '3', '2', '1'].map((n) => [n, 500]),
    );

    await setMode(service, setup.token, 200);
    const recover = await service.inject({
      method: 'POST',
      url: '/v1/webhooks/entregas/reenviar',
      headers: setup.json,
      payload: JSON.stringify({ status: 'FALHOU' }),
    });
    expect(recover.statusCode, recover.body).toBe(200);
    expect(recover.json()).toEqual({ reenfileiradas: 1 });
    await waitFor(async () => (await listDeliveries(service, setup.auth, `?linkId=${link.id}`))[0]?.status === 'ENTREGUE', {
      timeoutMs: 15_000,
      intervalMs: 100,
      what: 'the recovered delivery to be delivered',
    });
    const delivered = (await listEvents(service, setup.token)).eventos.filter((e) => e.tipo === 'proposta.criada');
    expect(delivered).toHaveLength(8);
    expect(delivered[0]).toMatchObject({ respondeuStatus: 200, assinaturaValida: true, tentativa: '1' });
  });

  it('null restores the standard schedule, and the manual resend follows the channel’s delays', async () => {
    const other = await channelWithRegisteredInbox(service);
    // Two deliveries (proposta.criada, proposta.aguardando_formalizacao) delivered first,
    // then each resent once while the inbox answers 500.
    const link = await newLink('52998224725', other.auth);
    const journey = await service.inject({ method: 'POST', url: `/v1/links/${link.id}/jornada/simular`, headers: other.auth });
    expect(journey.statusCode, journey.body).toBe(200);
    let deliveries: Delivery[] = [];
    await waitFor(
      async () => {
        deliveries = await listDeliveries(service, other.auth, `?linkId=${link.id}&status=ENTREGUE`);
        return deliveries.length === 2;
      },
      { timeoutMs: 15_000, intervalMs: 100, what: 'the first deliveries' },
    );
    await setMode(service, other.token, 500);
    const resend = async (delivery: Delivery) => {
      const r = await service.inject({
        method: 'POST',
        url: `/v1/webhooks/entregas/${delivery.id}/reenviar`,
        headers: other.auth,
      });
      expect(r.statusCode, r.body).toBe(200);
      const body = r.json<Delivery>();
      expect(body).toMatchObject({ status: 'PENDENTE', tentativas: 1, ultimoHttpStatus: 500 });
      return (Date.parse(body.proximaTentativaEm!) - Date.parse(body.ultimaTentativaEm!)) / 1000;
    };

    const set = await simulateRetries(other.json, JSON.stringify({ intervaloSegundos: 45 }));
    expect(set.json()).toEqual({ intervalosSegundos: [45, 45, 45, 45, 45, 45] });
    expect(await storedInterval(other.channel.canalId)).toBe(45);
    expect(await resend(deliveries[0]!)).toBeCloseTo(45, 0);
    // Another channel keeps its own setting.
    expect(await storedInterval(setup.channel.canalId)).toBe(1);

    const restored = await simulateRetries(other.json, JSON.stringify({ intervaloSegundos: null }));
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toEqual({ intervalosSegundos: STANDARD });
    expect(await storedInterval(other.channel.canalId)).toBeNull();
    expect(await resend(deliveries[1]!)).toBeCloseTo(60, 0);
  });

  it.each([
    ['0', { intervaloSegundos: 0 }],
    ['61', { intervaloSegundos: 61 }],
    ['"5"', { intervaloSegundos: '5' }],
    ['1.5', { intervaloSegundos: 1.5 }],
    ['missing', {}],
  ])('refuses intervaloSegundos %s with 400 requisicao_invalida', async (_name, body) => {
    const before = await storedInterval(setup.channel.canalId);
    const r = await simulateRetries(setup.json, JSON.stringify(body));
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({ code: 'requisicao_invalida', message: 'Campo inválido: intervaloSegundos.' });
    expect(await storedInterval(setup.channel.canalId)).toBe(before);
  });

  it('refuses an unknown field and a missing body, answers 404 without a webhook and 401 without a token', async () => {
    const extra = await simulateRetries(setup.json, JSON.stringify({ intervaloSegundos: 5, canal: 'x' }));
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ code: 'requisicao_invalida', message: 'Campo não permitido: canal.' });
    const empty = await service.inject({ method: 'POST', url: '/v1/webhooks/retentativas/simular', headers: setup.auth });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('requisicao_invalida');

    const bare = await channelWith(service);
    const none = await simulateRetries(bare.json, JSON.stringify({ intervaloSegundos: 5 }));
    expect(none.statusCode, none.body).toBe(404);
    expect(none.json()).toMatchObject({ code: 'nao_encontrado', message: 'Nenhum webhook registrado para este canal.' });

    const anonymous = await service.inject({
      method: 'POST',
      url: '/v1/webhooks/retentativas/simular',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ intervaloSegundos: 5 }),
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /v1/links/{id}/expiracao/simular', () => {
  const eventsOf = async (linkId: string) =>
    service.ctx.database.db.selectFrom('events').select('tipo').where('link_id', '=', linkId).execute();

  it('expires a CRIADO link now: EXPIRADO on GET, expiraEm now, the hosted page says so, no event', async () => {
    const link = await newLink('52998224725');
    const before = Date.now();
    const r = await simulateExpiry(link.id);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json<{ id: string; status: string; expiraEm: string }>();
    expect(body).toMatchObject({ id: link.id, status: 'EXPIRADO' });
    expect(Date.parse(body.expiraEm)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.expiraEm)).toBeLessThanOrEqual(Date.now());

    const got = await service.inject({ method: 'GET', url: `/v1/links/${link.id}`, headers: setup.auth });
    expect(got.json()).toEqual(body);
    const page = await new JourneyClient(service, link.url).page();
    expect(page.status).toBe(410);
    expect(page.body).toContain('Este link expirou');
    expect(await eventsOf(link.id)).toEqual([]);

    // Already expired: as the journey simulator answers.
    const again = await simulateExpiry(link.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('link_expirado');
  });

  it('expires a link the customer opened and is filling in (ABERTO, EM_ANDAMENTO)', async () => {
    const opened = await newLink('11144477735');
    const client = new JourneyClient(service, opened.url);
    await client.page();
    const stored = () =>
      service.ctx.database.db.selectFrom('links').select('status').where('id', '=', opened.id).executeTakeFirstOrThrow();
    expect((await stored()).status).toBe('ABERTO');
    expect((await simulateExpiry(opened.id)).json().status).toBe('EXPIRADO');
    expect((await stored()).status).toBe('EXPIRADO');

    const inProgress = await newLink('39053344705');
    await new JourneyClient(service, inProgress.url).upToReview();
    const r = await simulateExpiry(inProgress.id);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().status).toBe('EXPIRADO');
    expect((await new JourneyClient(service, inProgress.url).page()).body).toContain('Este link expirou');
  });

  it('refuses links that can no longer expire, with the journey simulator’s codes', async () => {
    const cancelled = await newLink('00000000191');
    expect(
      (await service.inject({ method: 'POST', url: `/v1/links/${cancelled.id}/jornada/simular`, headers: setup.auth })).json()
        .status,
    ).toBe('CANCELADO');
    const done = await newLink('71428793860');
    expect(
      (await service.inject({ method: 'POST', url: `/v1/links/${done.id}/jornada/simular`, headers: setup.auth })).json().status,
    ).toBe('CONCLUIDO');
    for (const [id, code, status] of [
      [cancelled.id, 'link_finalizado', 'CANCELADO'],
      [done.id, 'jornada_concluida', 'CONCLUIDO'],
    ] as const) {
      const r = await simulateExpiry(id);
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().code).toBe(code);
      const got = await service.inject({ method: 'GET', url: `/v1/links/${id}`, headers: setup.auth });
      expect(got.json().status).toBe(status);
    }
  });

  it("answers 404 for another channel's link, an unknown or non-uuid id, and 401 without a token", async () => {
    const link = await newLink('86288366757');
    const stranger = await channelWith(service);
    const theirs = await simulateExpiry(link.id, stranger.auth);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe('nao_encontrado');
    expect((await simulateExpiry('019a7c3e-9a1b-7c3d-8e2f-1a2b3c4d5e6f')).statusCode).toBe(404);
    expect((await simulateExpiry('nao-e-uuid')).statusCode).toBe(404);
    expect((await service.inject({ method: 'POST', url: `/v1/links/${link.id}/expiracao/simular` })).statusCode).toBe(401);
    const got = await service.inject({ method: 'GET', url: `/v1/links/${link.id}`, headers: setup.auth });
    expect(got.json().status).toBe('CRIADO');
  });
});

describe('in REAL', () => {
  let real: TestService;
  beforeAll(async () => {
    real = await startTestService();
  });
  afterAll(() => real?.close());

  it('both helpers answer 404 nao_encontrado and change nothing, like the other sandbox helpers', async () => {
    const channel = await channelWithRegisteredInbox(real);
    const created = await createLinkVia(real, channel.auth, { cpf: '52998224725' });
    const link = created.json<{ id: string }>();
    // REAL cannot be configured yet (no bank connector): the same service, told it is REAL.
    const sandbox = real.ctx.config;
    real.ctx.config = { ...sandbox, ambiente: 'REAL' };
    try {
      const retries = await real.inject({
        method: 'POST',
        url: '/v1/webhooks/retentativas/simular',
        headers: channel.json,
        payload: JSON.stringify({ intervaloSegundos: 5 }),
      });
      expect(retries.statusCode, retries.body).toBe(404);
      expect(retries.json().code).toBe('nao_encontrado');
      const expiry = await real.inject({ method: 'POST', url: `/v1/links/${link.id}/expiracao/simular`, headers: channel.auth });
      expect(expiry.statusCode, expiry.body).toBe(404);
      expect(expiry.json().code).toBe('nao_encontrado');
    } finally {
      real.ctx.config = sandbox;
    }
    const stored = await real.ctx.database.db
      .selectFrom('webhooks')
      .innerJoin('links', 'links.channel_id', 'webhooks.channel_id')
      .select(['webhooks.intervalo_retentativa_segundos', 'links.status'])
      .where('links.id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ intervalo_retentativa_segundos: null, status: 'CRIADO' });
  });
});
