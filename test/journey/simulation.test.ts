// POST /v1/links/{id}/jornada/simular (docs/rules.md §6): the customer's journey run
// over the API through the hosted pages' own steps. Every CPF scenario, every error, a
// retried or concurrent call never making a second proposal, a journey begun in the
// browser finished over the API, and the events it causes arriving signed at the
// channel's inbox (delivered by the real worker).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { createLinkVia } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { waitFor } from '../helpers/wait.ts';
import { listEvents, serviceWithInboxChannel, type InboxSetup } from '../sandbox/support.ts';
import { simulateJourney } from '../../src/journey/simulation.service.ts';
import { AppError } from '../../src/errors.ts';

let service: TestService;
let setup: InboxSetup;

beforeAll(async () => {
  ({ service, setup } = await serviceWithInboxChannel());
});
afterAll(() => service?.close());

async function newLink(cpf: string, auth = setup.auth, extra: Record<string, unknown> = {}) {
  const created = await createLinkVia(service, auth, { cpf, ...extra });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ id: string; url: string }>();
}

const simulate = (id: string, auth = setup.auth, payload?: string) =>
  service.inject({
    method: 'POST',
    url: `/v1/links/${id}/jornada/simular`,
    headers: payload === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload }),
  });

const eventsOf = async (linkId: string) =>
  (
    await service.ctx.database.db
      .selectFrom('events')
      .select('tipo')
      .where('link_id', '=', linkId)
      .orderBy('ocorrido_em')
      .orderBy('id')
      .execute()
  ).map((e) => e.tipo);

const proposalsOf = async (linkId: string) =>
  service.ctx.database.db.selectFrom('proposals').select(['numero', 'status']).where('link_id', '=', linkId).execute();

describe('POST /v1/links/{id}/jornada/simular', () => {
  it('takes a normal CPF from CRIADO to a proposal awaiting signature, as the hosted pages would', async () => {
    const link = await newLink('52998224725');
    const r = await simulate(link.id);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({
      id: link.id,
      status: 'CONCLUIDO',
      ambiente: 'SANDBOX',
      proposta: { numero: expect.any(Number), status: 'AGUARDANDO_FORMALIZACAO', criadaEm: expect.any(String) },
    });
    expect(body.url).toBeUndefined();
    expect(body.abertoEm).toEqual(expect.any(String));
    expect(await eventsOf(link.id)).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);
    // The same answer GET gives.
    const got = await service.inject({ method: 'GET', url: `/v1/links/${link.id}`, headers: setup.auth });
    expect(got.json()).toEqual(body);
    // The hosted page now shows the result, like after a browser journey.
    const page = await new JourneyClient(service, link.url).page();
    expect(page.body).toContain(String(body.proposta.numero));
  });

  it.each([
    ['00000000191', 'inelegivel'],
    ['00000000272', 'sms_recusado'],
    ['00000000353', 'sem_oferta'],
  ])('CPF %s ends the journey (%s): the link is CANCELADO and no event is recorded', async (cpf, reason) => {
    const link = await newLink(cpf);
    const r = await simulate(link.id);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ id: link.id, status: 'CANCELADO' });
    expect(r.json().proposta).toBeUndefined();
    expect(await eventsOf(link.id)).toEqual([]);
    const journey = await service.ctx.database.db
      .selectFrom('journeys')
      .select('end_reason')
      .where('link_id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(journey.end_reason).toBe(reason);
    // Final: a second call says so.
    const again = await simulate(link.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'link_finalizado', message: expect.stringContaining('CANCELADO') });
  });

  it('CPF …515: proposta.falha, the link stays open, and each call tries once more', async () => {
    const link = await newLink('00000000515');
    const first = await simulate(link.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'EM_ANDAMENTO' });
    expect(first.json().proposta).toBeUndefined();
    expect(await eventsOf(link.id)).toEqual(['proposta.falha']);
    const second = await simulate(link.id);
    expect(second.statusCode).toBe(200);
    expect(second.json().status).toBe('EM_ANDAMENTO');
    expect(await eventsOf(link.id)).toEqual(['proposta.falha', 'proposta.falha']);
    expect(await proposalsOf(link.id)).toEqual([]);
  });

  it('CPF …604: the proposal is created without a signing link, only proposta.criada', async () => {
    const link = await newLink('00000000604');
    const r = await simulate(link.id);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'CONCLUIDO', proposta: { status: 'CRIADA' } });
    expect(await eventsOf(link.id)).toEqual(['proposta.criada']);
  });

  it('a retried call never creates a second proposal: 409 jornada_concluida, nothing changes', async () => {
    const link = await newLink('11144477735');
    expect((await simulate(link.id)).statusCode).toBe(200);
    const again = await simulate(link.id, setup.auth, '{}');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'jornada_concluida', message: expect.stringContaining('proposta/simular') });
    expect(await proposalsOf(link.id)).toHaveLength(1);
    expect(await eventsOf(link.id)).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);
  });

  it('concurrent calls on one link make one proposal and each event once', async () => {
    const link = await newLink('39053344705');
    const answers = await Promise.all([simulate(link.id), simulate(link.id), simulate(link.id)]);
    for (const a of answers) expect([200, 409], a.body).toContain(a.statusCode);
    expect(answers.some((a) => a.statusCode === 200)).toBe(true);
    await waitFor(async () => (await proposalsOf(link.id))[0]?.status === 'AGUARDANDO_FORMALIZACAO', {
      what: 'the proposal to await signature',
    });
    expect(await proposalsOf(link.id)).toHaveLength(1);
    expect(await eventsOf(link.id)).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);
  });

  it('finishes a journey the customer began in the browser, from the step they reached', async () => {
    const link = await newLink('71428793860', setup.auth, { celular: '31987654321' });
    const client = new JourneyClient(service, link.url);
    await client.page();
    await client.post('comecar');
    await client.post('celular', { celular: '(21) 98765-4321' });
    // Five wrong codes used up the attempts: the simulation asks for a new code first.
    for (let i = 0; i < 5; i++) expect((await client.post('codigo', { codigo: '000000' })).status).toBe(422);
    const r = await simulate(link.id);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'CONCLUIDO', proposta: { status: 'AGUARDANDO_FORMALIZACAO' } });
  });

  it('then the simulator moves the proposal through every status, with HTTP calls only', async () => {
    const link = await newLink('86288366757');
    expect((await simulate(link.id)).statusCode).toBe(200);
    for (const status of ['FORMALIZADA', 'APROVADA']) {
      const moved = await service.inject({
        method: 'POST',
        url: `/v1/links/${link.id}/proposta/simular`,
        headers: { ...setup.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ status }),
      });
      expect(moved.json()).toEqual({ status, alterado: true });
    }
    expect(await eventsOf(link.id)).toEqual([
      'proposta.criada',
      'proposta.aguardando_formalizacao',
      'proposta.formalizada',
      'proposta.aprovada',
    ]);
  });

  it('the events it causes arrive at the channel’s inbox, signed', async () => {
    const link = await newLink('12345678909');
    expect((await simulate(link.id)).statusCode).toBe(200);
    const mine = async () =>
      (await listEvents(service, setup.token)).eventos.filter(
        (e) => (e.corpo as { link?: { id?: string } }).link?.id === link.id,
      );
    await waitFor(async () => (await mine()).length >= 2, { what: 'both events of the link at the inbox' });
    const arrived = await mine();
    // Delivered concurrently: in either order.
    expect(arrived.map((e) => e.tipo).toSorted()).toEqual(['proposta.aguardando_formalizacao', 'proposta.criada']);
    for (const e of arrived) expect(e.assinaturaValida).toBe(true);
  });

  it('refuses an expired link with link_expirado', async () => {
    const link = await newLink('52998224725');
    await service.ctx.database.db
      .updateTable('links')
      .set({ expira_em: new Date(Date.now() - 1000) })
      .where('id', '=', link.id)
      .execute();
    const r = await simulate(link.id);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ code: 'link_expirado', message: expect.stringContaining('expirou') });
    expect(await eventsOf(link.id)).toEqual([]);
  });

  it('is 404 for another channel’s link, an unknown id and an id that is not a uuid', async () => {
    const link = await newLink('52998224725');
    const other = await service.bearer(await service.createChannel());
    for (const [id, auth] of [
      [link.id, other],
      ['0190f0c4-0000-7000-8000-000000000000', setup.auth],
      ['nao-e-uuid', setup.auth],
    ] as const) {
      const r = await simulate(id, auth);
      expect(r.statusCode, `${id}`).toBe(404);
      expect(r.json().code).toBe('nao_encontrado');
    }
    // The other channel's call changed nothing.
    expect((await service.inject({ method: 'GET', url: `/v1/links/${link.id}`, headers: setup.auth })).json().status).toBe(
      'CRIADO',
    );
  });

  it('needs a Bearer token', async () => {
    const link = await newLink('52998224725');
    const r = await service.inject({ method: 'POST', url: `/v1/links/${link.id}/jornada/simular` });
    expect(r.statusCode).toBe(401);
    expect(r.json().code).toBe('unauthorized');
  });

  it('answers 404 nao_encontrado in REAL, like the proposal simulator', async () => {
    const link = await newLink('52998224725');
    const real = { ...service.ctx, config: { ...service.ctx.config, ambiente: 'REAL' as const } };
    const error = await simulateJourney(real, setup.channel.canalId, link.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 404, code: 'nao_encontrado' });
    expect(await eventsOf(link.id)).toEqual([]);
  });
});
