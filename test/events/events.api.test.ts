// GET /v1/eventos and GET /v1/eventos/{id} (docs/rules.md §4): newest first, bodies as the
// webhooks carry them and byte for byte on the single read, a cursor that neither skips
// nor repeats while events keep arriving (also an event whose transaction commits after
// later ones, on PostgreSQL), every filter, every bad parameter, another channel's events
// invisible, and a link's state rebuilt from this API alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { describeOnPostgres } from '../helpers/db.ts';
import { waitFor } from '../helpers/wait.ts';
import { channelWithRegisteredInbox, serviceWithInboxChannel, type InboxSetup } from '../sandbox/support.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { proposalEvent } from '../../src/events/event-body.ts';

let service: TestService;
let setup: InboxSetup;

beforeAll(async () => {
  ({ service, setup } = await serviceWithInboxChannel());
});
afterAll(() => service?.close());

interface Body {
  id: string;
  tipo: string;
  ocorridoEm: string;
  link: { id: string; referenciaExterna: string | null };
  proposta: { numero?: number; status?: string };
}

const get = (url: string, auth = setup.auth) => service.inject({ method: 'GET', url, headers: auth });

/** A link taken by the journey simulation to a proposal, then through `statuses`: 2 + statuses.length events. */
async function proposalWithEvents(auth: Record<string, string>, statuses: string[] = [], cpf = VALID_CPFS[0]!) {
  const created = await createLinkVia(service, auth, { cpf, referenciaExterna: `pedido-${Math.random().toString(36).slice(2)}` });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json<{ id: string }>().id;
  expect((await service.inject({ method: 'POST', url: `/v1/links/${id}/jornada/simular`, headers: auth })).statusCode).toBe(200);
  for (const status of statuses) {
    const moved = await service.inject({
      method: 'POST',
      url: `/v1/links/${id}/proposta/simular`,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ status }),
    });
    expect(moved.statusCode, moved.body).toBe(200);
  }
  return id;
}

const storedIds = async (channelId: string) =>
  (await service.ctx.database.db.selectFrom('events').select('id').where('channel_id', '=', channelId).execute()).map(
    (e) => e.id,
  );

/** Every page from the top (or until `stopAt` is met), `limite` at a time; `between` runs after each page. */
async function walk(options: {
  limite: number;
  auth?: Record<string, string>;
  query?: string;
  cursor?: string;
  stopAt?: Set<string>;
  between?: () => Promise<void>;
}) {
  const seen: Body[] = [];
  let cursor = options.cursor;
  for (;;) {
    const qs = new URLSearchParams({ limite: String(options.limite), ...(cursor ? { cursor } : {}) }).toString();
    const page = await get(`/v1/eventos?${qs}${options.query ? `&${options.query}` : ''}`, options.auth);
    expect(page.statusCode, page.body).toBe(200);
    const { eventos, proximoCursor } = page.json<{ eventos: Body[]; proximoCursor?: string }>();
    expect(eventos.length).toBeLessThanOrEqual(options.limite);
    for (const e of eventos) {
      if (options.stopAt?.has(e.id)) return seen;
      seen.push(e);
    }
    await options.between?.();
    if (!proximoCursor) return seen;
    cursor = proximoCursor;
  }
}

/** Waits until the head of the list shows every event the channel has stored. */
async function settled(channelId: string, auth = setup.auth) {
  const ids = await storedIds(channelId);
  await waitFor(async () => (await walk({ limite: 100, auth })).length === ids.length, { what: 'every stored event listed' });
  return ids;
}

describe('GET /v1/eventos', () => {
  it('lists the bodies the webhooks carry, newest first; the single read is byte for byte what was signed', async () => {
    const linkId = await proposalWithEvents(setup.auth, ['FORMALIZADA']);
    await settled(setup.channel.canalId);
    const page = await get(`/v1/eventos?linkId=${linkId}`);
    expect(page.statusCode).toBe(200);
    const { eventos, proximoCursor } = page.json<{ eventos: Body[]; proximoCursor?: string }>();
    expect(proximoCursor).toBeUndefined();
    expect(eventos.map((e) => e.tipo)).toEqual(['proposta.formalizada', 'proposta.aguardando_formalizacao', 'proposta.criada']);
    for (const e of eventos) {
      const stored = await service.ctx.database.db
        .selectFrom('events')
        .select('payload')
        .where('id', '=', e.id)
        .executeTakeFirstOrThrow();
      expect(e).toEqual(JSON.parse(stored.payload));
      const one = await get(`/v1/eventos/${e.id}`);
      expect(one.statusCode).toBe(200);
      expect(one.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(one.body).toBe(stored.payload);
    }
  });

  it('pages with a cursor that neither skips nor repeats while new events keep arriving', async () => {
    const { channel, auth } = await channelWithRegisteredInbox(service);
    for (let i = 0; i < 6; i++) await proposalWithEvents(auth, ['FORMALIZADA']);
    const before = await settled(channel.canalId, auth);
    expect(before).toHaveLength(18);
    let arrivals = 0;
    const first = await walk({
      limite: 4,
      auth,
      // New events between every two pages: they land at the head, never in the pages still to read.
      between: async () => {
        arrivals += 1;
        await proposalWithEvents(auth);
      },
    });
    const firstIds = first.map((e) => e.id);
    expect(new Set(firstIds).size).toBe(firstIds.length);
    for (const id of before) expect(firstIds).toContain(id);
    // A second walk from the top, down to what the first one saw, finds everything else.
    const all = await storedIds(channel.canalId);
    await waitFor(async () => (await walk({ limite: 100, auth })).length === all.length, { what: 'the arrivals listed' });
    const second = await walk({ limite: 3, auth, stopAt: new Set(firstIds) });
    const union = [...second.map((e) => e.id), ...firstIds];
    expect(new Set(union).size).toBe(union.length);
    expect(union.toSorted()).toEqual(all.toSorted());
    expect(arrivals).toBeGreaterThanOrEqual(4);
  });

  it('filters by tipo, linkId, desde/ate and whether the event was delivered, together', async () => {
    const { channel, auth } = await channelWithRegisteredInbox(service);
    const a = await proposalWithEvents(auth, ['FORMALIZADA', 'APROVADA']);
    const b = await proposalWithEvents(auth, ['CANCELADA']);
    await settled(channel.canalId, auth);
    const list = async (query: string) =>
      (await walk({ limite: 100, auth, query })).map((e) => `${e.link.id === a ? 'a' : 'b'}:${e.tipo}`);

    expect(await list('tipo=proposta.criada')).toEqual(['b:proposta.criada', 'a:proposta.criada']);
    expect(await list(`linkId=${b}`)).toEqual([
      'b:proposta.cancelada',
      'b:proposta.aguardando_formalizacao',
      'b:proposta.criada',
    ]);
    expect(await list(`linkId=${a.toUpperCase()}&tipo=proposta.aprovada`)).toEqual(['a:proposta.aprovada']);

    const times = await service.ctx.database.db
      .selectFrom('events')
      .select(['ocorrido_em', 'tipo', 'link_id'])
      .where('channel_id', '=', channel.canalId)
      .orderBy('ocorrido_em')
      .execute();
    const aprovada = times.find((t) => t.tipo === 'proposta.aprovada')!.ocorrido_em;
    const since = await list(`desde=${aprovada.toISOString()}`);
    expect(since).toContain('a:proposta.aprovada');
    expect(since).not.toContain('a:proposta.formalizada');
    const until = await list(`ate=${aprovada.toISOString()}&linkId=${a}`);
    expect(until).toEqual(['a:proposta.formalizada', 'a:proposta.aguardando_formalizacao', 'a:proposta.criada']);

    // Every event of this channel goes to its inbox: once delivered, entregue=true lists them all.
    await waitFor(async () => (await list('entregue=true')).length === 7, { what: 'the seven events delivered' });
    expect(await list('entregue=false')).toEqual([]);
    // A channel without a webhook has nothing delivered.
    const bare = await service.createChannel();
    const bareAuth = await service.bearer(bare);
    await proposalWithEvents(bareAuth);
    await settled(bare.canalId, bareAuth);
    expect((await walk({ limite: 100, auth: bareAuth, query: 'entregue=false' })).map((e) => e.tipo)).toEqual([
      'proposta.aguardando_formalizacao',
      'proposta.criada',
    ]);
    expect(await walk({ limite: 100, auth: bareAuth, query: 'entregue=true' })).toEqual([]);
  });

  it('rebuilds each link’s proposal status from the events alone', async () => {
    const { channel, auth } = await channelWithRegisteredInbox(service);
    const links = [
      await proposalWithEvents(auth, ['FORMALIZADA', 'APROVADA']),
      await proposalWithEvents(auth, ['RECUSADA']),
      await proposalWithEvents(auth),
      await proposalWithEvents(auth, [], '00000000604'),
    ];
    await settled(channel.canalId, auth);
    const rebuilt = new Map<string, string>();
    for (const e of (await walk({ limite: 5, auth })).toReversed()) rebuilt.set(e.link.id, e.proposta.status!);
    for (const id of links) {
      const link = (await get(`/v1/links/${id}`, auth)).json<{ proposta: { status: string } }>();
      expect(rebuilt.get(id)).toBe(link.proposta.status);
    }
  });

  it('refuses each bad parameter with its own code and a pt-BR message, and writes nothing', async () => {
    const cases: Array<[string, string]> = [
      ['cursor=nao-e-cursor', 'cursor_invalido'],
      [`cursor=${Buffer.from('1:x').toString('base64url')}`, 'cursor_invalido'],
      [`cursor=${'a'.repeat(300)}`, 'cursor_invalido'],
      ['limite=0', 'limite_invalido'],
      ['limite=101', 'limite_invalido'],
      ['limite=dez', 'limite_invalido'],
      ['tipo=webhook.teste', 'tipo_invalido'],
      ['tipo=proposta.qualquer', 'tipo_invalido'],
      ['linkId=123', 'link_id_invalido'],
      ['desde=ontem', 'desde_invalido'],
      ['desde=2026-11-22T14:00:00', 'desde_invalido'],
      ['ate=2026-13-01T00:00:00Z', 'ate_invalido'],
      ['desde=2026-11-22T15:00:00Z&ate=2026-11-22T14:00:00Z', 'periodo_invalido'],
      ['desde=2026-11-22T15:00:00Z&ate=2026-11-22T15:00:00Z', 'periodo_invalido'],
      ['entregue=talvez', 'entregue_invalido'],
    ];
    const count = async () =>
      (
        await service.ctx.database.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await count();
    for (const [query, code] of cases) {
      const r = await get(`/v1/eventos?${query}`);
      expect(r.statusCode, query).toBe(400);
      expect(r.json().code, query).toBe(code);
      expect(r.json().message, query).toMatch(/^[A-ZÁÉ][^\n]{10,}/);
    }
    expect(await count()).toBe(before);
  });

  it('never shows another channel’s events: not in the list, 404 on the single read', async () => {
    const mine = await proposalWithEvents(setup.auth);
    await settled(setup.channel.canalId);
    const [event] = (await get(`/v1/eventos?linkId=${mine}`)).json<{ eventos: Body[] }>().eventos;
    const other = await service.createChannel();
    const otherAuth = await service.bearer(other);
    expect((await get('/v1/eventos?limite=100', otherAuth)).json()).toEqual({ eventos: [] });
    expect((await get(`/v1/eventos?linkId=${mine}`, otherAuth)).json()).toEqual({ eventos: [] });
    for (const id of [event!.id, '0190f0c4-0000-7000-8000-000000000000', 'nao-e-uuid']) {
      const r = await get(`/v1/eventos/${id}`, otherAuth);
      expect(r.statusCode, id).toBe(404);
      expect(r.json().code).toBe('nao_encontrado');
    }
    expect((await service.inject({ method: 'GET', url: '/v1/eventos' })).statusCode).toBe(401);
  });
});

describeOnPostgres('GET /v1/eventos with a transaction that commits late (PostgreSQL)', () => {
  it('never skips an event whose transaction commits after later ones were listed', async () => {
    const { channel, auth } = await channelWithRegisteredInbox(service);
    const linkId = await proposalWithEvents(auth);
    await settled(channel.canalId, auth);

    // A transaction records an event stamped "now" and stays open…
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let recorded!: () => void;
    const inside = new Promise<void>((resolve) => (recorded = resolve));
    const late = proposalEvent({
      tipo: 'proposta.formalizada',
      at: new Date(),
      ambiente: 'SANDBOX',
      link: { id: linkId, referenciaExterna: null },
      proposta: { numero: 1, status: 'FORMALIZADA', valor: 1000, parcelas: 12, valorParcela: 90 },
    });
    const transaction = service.ctx.database.db.transaction().execute(async (tx) => {
      await recordEvent(tx, channel.canalId, late);
      recorded();
      await held;
    });
    await inside;
    // …while newer events commit and the first page is read.
    await proposalWithEvents(auth);
    const firstPage = (await get('/v1/eventos?limite=2', auth)).json<{ eventos: Body[]; proximoCursor?: string }>();
    expect(firstPage.eventos.map((e) => e.id)).not.toContain(late.id);
    release();
    await transaction;

    const rest = firstPage.proximoCursor ? await walk({ limite: 2, auth, cursor: firstPage.proximoCursor }) : [];
    const seen = new Set([...firstPage.eventos, ...rest].map((e) => e.id));
    const all = await storedIds(channel.canalId);
    await waitFor(async () => (await walk({ limite: 100, auth })).length === all.length, { what: 'everything listed' });
    const head = await walk({ limite: 2, auth, stopAt: seen });
    const union = [...head.map((e) => e.id), ...seen];
    expect(new Set(union).size).toBe(union.length);
    expect(union.toSorted()).toEqual(all.toSorted());
    expect(head.map((e) => e.id)).toContain(late.id);
  });
});
