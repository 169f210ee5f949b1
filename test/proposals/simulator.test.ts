import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

describe('POST /v1/links/{id}/proposta/simular', () => {
  let service: TestService;
  let channel: IssuedCredentials;
  let auth: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService();
    channel = await service.createChannel();
    auth = await service.bearer(channel);
  });
  afterAll(() => service.close());

  /** A link whose proposal is AGUARDANDO_FORMALIZACAO (or CRIADA with the 604 CPF). */
  async function linkWithProposal(cpf = '12345678909'): Promise<string> {
    const link = (await createLinkVia(service, auth, { cpf })).json();
    const client = new JourneyClient(service, link.url);
    await client.upToReview();
    await client.post('proposta');
    return link.id;
  }

  const simulate = (id: string, status: unknown, headers = auth) =>
    service.inject({
      method: 'POST',
      url: `/v1/links/${id}/proposta/simular`,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ status }),
    });
  const proposalStatus = async (id: string) =>
    (await service.ctx.database.db.selectFrom('proposals').select('status').where('link_id', '=', id).executeTakeFirstOrThrow())
      .status;
  const eventTypes = async (id: string) =>
    (
      await service.ctx.database.db
        .selectFrom('events')
        .select('tipo')
        .where('link_id', '=', id)
        .orderBy('ocorrido_em')
        .orderBy('id')
        .execute()
    ).map((e) => e.tipo);

  async function moveTo(id: string, path: string[]) {
    for (const status of path) expect((await simulate(id, status)).json()).toEqual({ status, alterado: true });
  }

  it.each([
    // [start path, requested, expected outcome]
    ['CRIADA', [], 'FORMALIZADA', 'move'],
    ['CRIADA', [], 'APROVADA', 'invalid'],
    ['CRIADA', [], 'RECUSADA', 'move'],
    ['CRIADA', [], 'CANCELADA', 'move'],
    ['AGUARDANDO_FORMALIZACAO', [], 'FORMALIZADA', 'move'],
    ['AGUARDANDO_FORMALIZACAO', [], 'APROVADA', 'invalid'],
    ['AGUARDANDO_FORMALIZACAO', [], 'RECUSADA', 'move'],
    ['AGUARDANDO_FORMALIZACAO', [], 'CANCELADA', 'move'],
    ['FORMALIZADA', ['FORMALIZADA'], 'APROVADA', 'move'],
    ['FORMALIZADA', ['FORMALIZADA'], 'FORMALIZADA', 'same'],
    ['FORMALIZADA', ['FORMALIZADA'], 'RECUSADA', 'move'],
    ['FORMALIZADA', ['FORMALIZADA'], 'CANCELADA', 'move'],
    ['APROVADA', ['FORMALIZADA', 'APROVADA'], 'FORMALIZADA', 'invalid'],
    ['APROVADA', ['FORMALIZADA', 'APROVADA'], 'APROVADA', 'same'],
    ['APROVADA', ['FORMALIZADA', 'APROVADA'], 'RECUSADA', 'move'],
    ['APROVADA', ['FORMALIZADA', 'APROVADA'], 'CANCELADA', 'move'],
    ['RECUSADA', ['RECUSADA'], 'FORMALIZADA', 'invalid'],
    ['RECUSADA', ['RECUSADA'], 'CANCELADA', 'invalid'],
    ['RECUSADA', ['RECUSADA'], 'RECUSADA', 'same'],
    ['CANCELADA', ['CANCELADA'], 'APROVADA', 'invalid'],
    ['CANCELADA', ['CANCELADA'], 'RECUSADA', 'invalid'],
    ['CANCELADA', ['CANCELADA'], 'CANCELADA', 'same'],
  ] as const)('from %s (via %j) to %s: %s', async (from, path, to, outcome) => {
    const id = await linkWithProposal(from === 'CRIADA' ? '00000000604' : '12345678909');
    await moveTo(id, [...path]);
    expect(await proposalStatus(id)).toBe(from);
    const before = await eventTypes(id);
    const response = await simulate(id, to);
    const after = await eventTypes(id);
    if (outcome === 'move') {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: to, alterado: true });
      expect(after).toEqual([...before, `proposta.${to.toLowerCase()}`]);
      expect(await proposalStatus(id)).toBe(to);
      const link = (await service.inject({ method: 'GET', url: `/v1/links/${id}`, headers: auth })).json();
      expect(link.proposta.status).toBe(to);
    } else if (outcome === 'same') {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: to, alterado: false });
      expect(after).toEqual(before);
    } else {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        code: 'transicao_invalida',
        message: expect.any(String),
        requestId: response.headers['x-request-id'],
      });
      expect(after).toEqual(before);
      expect(await proposalStatus(id)).toBe(from);
    }
  });

  it('carries the proposal as it stands after the change, without personal data', async () => {
    const id = await linkWithProposal();
    await simulate(id, 'FORMALIZADA');
    const event = await service.ctx.database.db
      .selectFrom('events')
      .select('payload')
      .where('link_id', '=', id)
      .where('tipo', '=', 'proposta.formalizada')
      .executeTakeFirstOrThrow();
    const body = JSON.parse(event.payload);
    expect(Object.keys(body).sort()).toEqual(['ambiente', 'id', 'link', 'ocorridoEm', 'proposta', 'tipo']);
    expect(body.link).toEqual({ id, referenciaExterna: null });
    expect(body.proposta).toEqual({
      numero: expect.any(Number),
      status: 'FORMALIZADA',
      valor: expect.any(Number),
      parcelas: expect.any(Number),
      valorParcela: expect.any(Number),
    });
  });

  it('409 sem_proposta before the customer submits', async () => {
    const link = (await createLinkVia(service, auth, { cpf: '12345678909' })).json();
    const response = await simulate(link.id, 'FORMALIZADA');
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('sem_proposta');
  });

  it.each([['AGUARDANDO'], ['CRIADA'], ['formalizada'], [''], [42], [null]])('400 status_invalido for %j', async (status) => {
    const id = await linkWithProposal('00000000604');
    const response = await simulate(id, status);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('status_invalido');
    expect(await proposalStatus(id)).toBe('CRIADA');
  });

  it('400 status_invalido without status; requisicao_invalida for other bodies', async () => {
    const id = await linkWithProposal('00000000604');
    const post = (payload: string) =>
      service.inject({
        method: 'POST',
        url: `/v1/links/${id}/proposta/simular`,
        headers: { ...auth, 'content-type': 'application/json' },
        payload,
      });
    expect((await post('{}')).json().code).toBe('status_invalido');
    expect((await post('{"status":"FORMALIZADA","extra":1}')).json().code).toBe('requisicao_invalida');
    expect((await post('nope')).json().code).toBe('requisicao_invalida');
  });

  it('404 for another channel, an unknown link and a non-uuid id; 401 without token', async () => {
    const id = await linkWithProposal();
    const other = await service.createChannel({ name: 'Outro' });
    const otherAuth = await service.bearer(other);
    expect((await simulate(id, 'FORMALIZADA', otherAuth)).statusCode).toBe(404);
    expect((await simulate('01936b9e-4c7a-7d1e-9a3f-5b2c8d7e6f10', 'FORMALIZADA')).statusCode).toBe(404);
    expect((await simulate('abc', 'FORMALIZADA')).json().code).toBe('nao_encontrado');
    expect((await simulate(id, 'FORMALIZADA', {})).statusCode).toBe(401);
    expect(await proposalStatus(id)).toBe('AGUARDANDO_FORMALIZACAO');
  });

  it('commits the status and its event together: a failing event write leaves the status unchanged', async () => {
    const id = await linkWithProposal();
    const db = service.ctx.database.db;
    await sql`create function fail_formalizada() returns trigger language plpgsql as $$
      begin if new.tipo = 'proposta.formalizada' then raise exception 'simulated outbox failure'; end if; return new; end $$`.execute(
      db,
    );
    await sql`create trigger fail_formalizada before insert on events for each row execute function fail_formalizada()`.execute(
      db,
    );
    try {
      const response = await simulate(id, 'FORMALIZADA');
      expect(response.statusCode).toBe(500);
      expect(response.json().code).toBe('erro_interno');
      expect(response.body).not.toContain('simulated outbox failure');
      expect(await proposalStatus(id)).toBe('AGUARDANDO_FORMALIZACAO');
      expect(await eventTypes(id)).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);
    } finally {
      await sql`drop trigger fail_formalizada on events`.execute(db);
      await sql`drop function fail_formalizada()`.execute(db);
    }
    expect((await simulate(id, 'FORMALIZADA')).json()).toEqual({ status: 'FORMALIZADA', alterado: true });
  });

  it('concurrent simulations of one proposal apply one after the other', async () => {
    const id = await linkWithProposal();
    const responses = await Promise.all(Array.from({ length: 6 }, () => simulate(id, 'FORMALIZADA')));
    const bodies = responses.map((r) => r.json());
    expect(bodies.filter((b) => b.alterado === true)).toHaveLength(1);
    expect(bodies.filter((b) => b.alterado === false)).toHaveLength(5);
    expect((await eventTypes(id)).filter((t) => t === 'proposta.formalizada')).toHaveLength(1);
  });
});
