import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia } from '../helpers/links.ts';
import { JourneyClient, heading } from '../helpers/journey.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';
import { sandboxOffers } from '../../src/bank/sandbox-bank.ts';

describe('hosted journey over HTTP (no JavaScript)', () => {
  let service: TestService;
  let channel: IssuedCredentials;
  let auth: Record<string, string>;
  const clock = new ManualClock();

  beforeAll(async () => {
    service = await startTestService({ clock });
    channel = await service.createChannel();
    auth = await service.bearer(channel);
  });
  afterAll(() => service.close());

  async function newJourney(cpf: string, extra: Record<string, unknown> = {}) {
    const created = await createLinkVia(service, auth, { cpf, referenciaExterna: 'ref-jornada', ...extra });
    expect(created.statusCode).toBe(201);
    const link = created.json();
    return { link, client: new JourneyClient(service, link.url) };
  }

  const linkState = async (id: string) => (await service.inject({ method: 'GET', url: `/v1/links/${id}`, headers: auth })).json();
  const eventsOf = async (linkId: string) =>
    (
      await service.ctx.database.db
        .selectFrom('events')
        .select(['tipo', 'payload'])
        .where('link_id', '=', linkId)
        .orderBy('ocorrido_em')
        .orderBy('id')
        .execute()
    ).map((e) => ({ tipo: e.tipo, body: JSON.parse(e.payload) }));

  it('takes a normal CPF from the first open to a proposal awaiting signature', async () => {
    const { link, client } = await newJourney('12345678909', { celular: '11987654321' });
    expect((await linkState(link.id)).status).toBe('CRIADO');

    const start = await client.page();
    expect(start.status).toBe(200);
    expect(start.body).toContain('<html lang="pt-BR">');
    expect(start.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(start.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(start.headers['referrer-policy']).toBe('no-referrer');
    expect(start.headers['x-content-type-options']).toBe('nosniff');
    const opened = await linkState(link.id);
    expect(opened.status).toBe('ABERTO');
    expect(opened.abertoEm).toBe(clock.now().toISOString());

    expect((await client.post('comecar')).status).toBe(303);
    const phone = await client.page();
    expect(phone.body).toContain('value="(11) 9****-4321"');
    // The masked suggestion submitted as is means "use the suggested number".
    expect((await client.post('celular', { celular: '(11) 9****-4321' })).status).toBe(303);
    const code = await client.page();
    expect(code.body).toContain('123456');

    const wrong = await client.post('codigo', { codigo: '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toContain('Código incorreto. Você tem mais 4 tentativas.');
    expect((await client.post('codigo', { codigo: '123456' })).status).toBe(303);
    expect((await linkState(link.id)).status).toBe('EM_ANDAMENTO');

    const noConsent = await client.post('consulta', {});
    expect(noConsent.status).toBe(422);
    expect(noConsent.body).toContain('marque a autorização');
    expect((await client.post('consulta', { autorizo: 'sim' })).status).toBe(303);

    const offersPage = await client.page();
    const offers = sandboxOffers(service.ctx.keys, '12345678909');
    for (const offer of offers) expect(offersPage.body).toContain(`value="${offer.id}"`);
    expect(offersPage.body).toMatch(/R\$ [\d.]+,\d\d/);
    expect(offersPage.body).toMatch(/CET/);
    expect((await client.post('oferta', { oferta: 'nao-existe' })).status).toBe(422);
    expect((await client.post('oferta', { oferta: offers[1]!.id })).status).toBe(303);

    const bad = await client.post('dados', { nome: 'Maria', dataNascimento: '31/02/1990', email: 'maria@', chavePix: 'xyz' });
    expect(bad.status).toBe(422);
    expect(bad.body).toContain('Informe nome e sobrenome');
    expect(bad.body).toContain('Data inválida');
    expect(bad.body).toContain('E-mail inválido');
    expect(bad.body).toContain('Chave Pix inválida');
    expect(bad.body).toContain('value="maria@"');
    const minor = await client.post('dados', {
      nome: 'Maria Silva',
      dataNascimento: '2015-01-01',
      email: 'maria@exemplo.com',
      chavePix: '11987654321',
    });
    expect(minor.body).toContain('18 anos ou mais');
    expect(
      (
        await client.post('dados', {
          nome: 'Maria da Silva',
          dataNascimento: '10/05/1990',
          email: 'Maria@Exemplo.com',
          chavePix: '(11) 98765-4321',
        })
      ).status,
    ).toBe(303);

    const review = await client.page();
    expect(heading(review.body)).toBe('Revise e envie sua proposta');
    expect(review.body).toContain('maria@exemplo.com');
    expect(review.body).toContain('+5511987654321');

    expect((await client.post('proposta')).status).toBe(303);
    const result = await client.page();
    const state = await linkState(link.id);
    expect(state.status).toBe('CONCLUIDO');
    expect(state.proposta).toEqual({
      numero: expect.any(Number),
      status: 'AGUARDANDO_FORMALIZACAO',
      criadaEm: expect.any(String),
    });
    expect(heading(result.body)).toBe(`Proposta nº ${state.proposta.numero}`);
    expect(result.body).toContain('Assinar contrato');

    const events = await eventsOf(link.id);
    expect(events.map((e) => e.tipo)).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);
    expect(events[0]!.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      tipo: 'proposta.criada',
      ocorridoEm: expect.any(String),
      ambiente: 'SANDBOX',
      link: { id: link.id, referenciaExterna: 'ref-jornada' },
      proposta: {
        numero: state.proposta.numero,
        status: 'CRIADA',
        valor: offers[1]!.valor,
        parcelas: offers[1]!.parcelas,
        valorParcela: offers[1]!.valorParcela,
      },
    });
    expect(events[1]!.body.proposta.status).toBe('AGUARDANDO_FORMALIZACAO');
    // No personal data in any event.
    const text = JSON.stringify(events);
    for (const personal of ['12345678909', '456.789', 'Maria', 'maria@', '98765']) expect(text).not.toContain(personal);

    // Reloads and repeated submits change nothing.
    for (const action of ['proposta', 'dados', 'codigo', 'comecar'])
      expect((await client.post(action, { codigo: '123456' })).status).toBe(303);
    await client.page();
    expect((await eventsOf(link.id)).length).toBe(2);
    const count = await service.ctx.database.db
      .selectFrom('proposals')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('link_id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('a double submit of the proposal creates one proposal and one set of events', async () => {
    const { link, client } = await newJourney('52998224725');
    await client.upToReview();
    const results = await Promise.all([client.post('proposta'), client.post('proposta'), client.post('proposta')]);
    expect(results.map((r) => r.status)).toEqual([303, 303, 303]);
    expect((await eventsOf(link.id)).map((e) => e.tipo)).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);
  });

  it('five wrong codes require a new code', async () => {
    const { client } = await newJourney('11144477735');
    await client.page();
    await client.post('comecar');
    await client.post('celular', { celular: '21987654321' });
    for (let i = 0; i < 5; i++) expect((await client.post('codigo', { codigo: '999999' })).status).toBe(422);
    const locked = await client.post('codigo', { codigo: '123456' });
    expect(locked.status).toBe(422);
    expect(locked.body).toContain('Peça um novo código');
    expect((await client.post('reenviar')).status).toBe(303);
    expect(heading((await client.page()).body)).toBe('Confirme seu celular');
    await client.post('celular', { celular: '21987654321' });
    expect((await client.post('codigo', { codigo: '123456' })).status).toBe(303);
    expect(heading((await client.page()).body)).toBe('Consulte suas ofertas');
  });

  it('comes back to the same step after closing the page', async () => {
    const { client } = await newJourney('39053344705');
    await client.page();
    await client.post('comecar');
    await client.post('celular', { celular: '11987654321' });
    const again = new JourneyClient(service, `${service.baseUrl}${client.path}`);
    expect(heading((await again.page()).body)).toBe('Digite o código recebido');
  });

  it.each([
    ['00000000191', 'consulta', 'não é elegível'],
    ['00000000353', 'consulta', 'não tem ofertas'],
    ['00000000272', 'celular', 'não conseguiu enviar o código'],
  ])('CPF %s ends the journey at the %s step and cancels the link', async (cpf, _step, text) => {
    const { link, client } = await newJourney(cpf);
    await client.page();
    await client.post('comecar');
    await client.post('celular', { celular: '11987654321' });
    if (cpf !== '00000000272') {
      await client.post('codigo', { codigo: '123456' });
      await client.post('consulta', { autorizo: 'sim' });
    }
    const page = await client.page();
    expect(page.body).toContain(text);
    expect(page.body).not.toContain('<form');
    const state = await linkState(link.id);
    expect(state.status).toBe('CANCELADO');
    expect(state.proposta).toBeUndefined();
    expect(await eventsOf(link.id)).toEqual([]);
  });

  it('CPF 00000000515: the bank refuses the proposal, proposta.falha, and the customer may try again', async () => {
    const { link, client } = await newJourney('00000000515');
    await client.upToReview({ offer: 'oferta-1' });
    expect((await client.post('proposta')).status).toBe(303);
    const review = await client.page();
    expect(review.body).toContain('O banco não aceitou a proposta');
    expect(review.body).toContain('Tentar novamente');
    expect((await client.post('proposta')).status).toBe(303);
    const state = await linkState(link.id);
    expect(state.status).toBe('EM_ANDAMENTO');
    expect(state.proposta).toBeUndefined();
    const events = await eventsOf(link.id);
    expect(events.map((e) => e.tipo)).toEqual(['proposta.falha', 'proposta.falha']);
    const offer = sandboxOffers(service.ctx.keys, '00000000515')[0]!;
    expect(events[0]!.body.proposta).toEqual({ valor: offer.valor, parcelas: offer.parcelas, valorParcela: offer.valorParcela });
    expect(events[0]!.body.motivo).toEqual(expect.any(String));
    expect(events[0]!.body.link).toEqual({ id: link.id, referenciaExterna: 'ref-jornada' });
  });

  it('CPF 00000000604: proposal created without a signing link stays CRIADA', async () => {
    const { link, client } = await newJourney('00000000604');
    await client.upToReview();
    await client.post('proposta');
    const result = await client.page();
    expect(result.body).toContain('O link de assinatura ainda não está pronto');
    expect(result.body).not.toContain('Assinar contrato');
    const state = await linkState(link.id);
    expect(state.status).toBe('CONCLUIDO');
    expect(state.proposta.status).toBe('CRIADA');
    expect((await eventsOf(link.id)).map((e) => e.tipo)).toEqual(['proposta.criada']);
  });

  it('an expired link shows a page saying so, never the journey', async () => {
    const { client } = await newJourney('71428793860');
    await client.page();
    clock.advance(7 * 24 * 3600);
    const page = await client.page();
    expect(page.status).toBe(410);
    expect(page.body).toContain('Este link expirou');
    expect(page.body).not.toContain('<form');
    expect((await client.post('comecar')).status).toBe(303);
    clock.advance(-7 * 24 * 3600);
    auth = await service.bearer(channel);
  });

  it('an unknown or malformed token is a 404 page', async () => {
    for (const path of ['/c/naoexiste', `/c/${'A'.repeat(43)}`]) {
      const r = await service.inject({ method: 'GET', url: path });
      expect(r.statusCode).toBe(404);
      expect(r.headers['content-type']).toContain('text/html');
      expect(r.body).toContain('Link inválido');
    }
  });

  it('refuses a form post from another site', async () => {
    const { client } = await newJourney('86288366757');
    await client.page();
    const r = await service.inject({
      method: 'POST',
      url: `${client.path}/comecar`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      payload: '',
    });
    expect(r.statusCode).toBe(403);
    expect(heading((await client.page()).body)).toBe('Contrate seu empréstimo consignado');
  });

  it('logs the route of the hosted page, never its token', async () => {
    const { client } = await newJourney('12345678909');
    await client.page();
    const token = client.path.split('/').pop()!;
    expect(service.logs.some((l) => l.includes('"route":"/c/:token"'))).toBe(true);
    expect(service.logs.join('\n')).not.toContain(token);
  });
});
