// GET /v1/links (docs/rules.md §3.11): a channel's own links newest first, in pages whose
// cursor neither skips nor repeats while links keep being created (ties of creation time
// included), every filter alone and together, isolation between channels (list, filters
// and cursor), every bad parameter with its code, and never a url or a link token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { linkToken } from '../helpers/links.ts';
import {
  confirmPhone,
  INELIGIBLE_CPF,
  makeLink,
  NO_SIGNING_CPF,
  open,
  simulateJourney,
  simulateProposal,
  type MadeLink,
} from '../helpers/link-journeys.ts';
import { sql } from 'kysely';
import { expireLinks } from '../../src/links/links.expiry.ts';
import { WALK_BUDGET } from '../../src/links/links-list.repository.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

interface ListedLink {
  id: string;
  status: string;
  cpfMascarado: string;
  referenciaExterna?: string;
  criadoEm: string;
  abertoEm?: string;
  proposta?: { numero: number; status: string };
  [key: string]: unknown;
}
interface Page {
  links: ListedLink[];
  proximoCursor?: string;
}

const clock = new ManualClock('2026-11-10T12:00:00.000Z');
let service: TestService;
let channelA: IssuedCredentials;
let channelB: IssuedCredentials;
const tokens: string[] = [];

beforeAll(async () => {
  service = await startTestService({ clock });
  channelA = await service.createChannel({ name: 'Canal A' });
  channelB = await service.createChannel({ name: 'Canal B' });
});
afterAll(() => service?.close());

// Tokens are asked for at each call: the tests move the clock by days.
const authOf = (channel: IssuedCredentials) => service.bearer(channel);

async function list(channel: IssuedCredentials, query: Record<string, string | number> = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return service.inject({ method: 'GET', url: `/v1/links${qs ? `?${qs}` : ''}`, headers: await authOf(channel) });
}

async function page(channel: IssuedCredentials, query: Record<string, string | number> = {}): Promise<Page> {
  const response = await list(channel, query);
  expect(response.statusCode, response.body).toBe(200);
  for (const token of tokens) expect(response.body).not.toContain(token);
  expect(response.body).not.toMatch(/\/c\/[A-Za-z0-9]{43}/);
  return response.json<Page>();
}

/** Every page from the top, `limite` at a time; `between` runs after each page. */
async function walk(
  channel: IssuedCredentials,
  query: Record<string, string | number>,
  between?: (pageNumber: number) => Promise<void>,
): Promise<ListedLink[]> {
  const seen: ListedLink[] = [];
  let cursor: string | undefined;
  for (let n = 1; ; n++) {
    const { links, proximoCursor } = await page(channel, { ...query, ...(cursor ? { cursor } : {}) });
    expect(links.length).toBeLessThanOrEqual(Number(query.limite ?? 20));
    seen.push(...links);
    await between?.(n);
    if (!proximoCursor) return seen;
    cursor = proximoCursor;
  }
}

const newestFirst = (a: ListedLink, b: ListedLink) => b.criadoEm.localeCompare(a.criadoEm) || b.id.localeCompare(a.id);

async function created(channel: IssuedCredentials, body: { cpf?: string; referenciaExterna?: string } = {}): Promise<MadeLink> {
  const link = await makeLink(service, await authOf(channel), body);
  tokens.push(linkToken(link.url));
  return link;
}

describe('GET /v1/links', () => {
  // Channel A's links, each in a known state; made once for the filter tests.
  const made: Record<string, MadeLink> = {};
  const at = (day: string) => clock.set(`2026-11-${day}T15:00:00.000Z`);

  beforeAll(async () => {
    const auth = () => authOf(channelA);
    // Old enough to expire: one left live (EXPIRADO only as reads report it), one stored EXPIRADO by the sweeper.
    at('01');
    made.expiredLive = await created(channelA, { referenciaExterna: 'loja-1' });
    made.expiredStored = await created(channelA, { referenciaExterna: 'loja-2' });
    clock.advance(1);
    at('09');
    made.criado = await created(channelA, { referenciaExterna: 'loja-1' });
    clock.advance(60);
    made.aberto = await created(channelA, { referenciaExterna: 'loja-1' });
    await open(service, made.aberto);
    clock.advance(60);
    made.emAndamento = await created(channelA, { referenciaExterna: 'loja-2' });
    await confirmPhone(service, made.emAndamento);
    clock.advance(60);
    made.cancelado = await created(channelA, { cpf: INELIGIBLE_CPF });
    expect(await simulateJourney(service, await auth(), made.cancelado)).toBe('CANCELADO');
    clock.advance(60);
    made.aguardando = await created(channelA, { referenciaExterna: 'loja-1' });
    expect(await simulateJourney(service, await auth(), made.aguardando)).toBe('CONCLUIDO');
    clock.advance(60);
    made.criada = await created(channelA, { cpf: NO_SIGNING_CPF, referenciaExterna: 'loja-2' });
    expect(await simulateJourney(service, await auth(), made.criada)).toBe('CONCLUIDO');
    clock.advance(60);
    made.aprovada = await created(channelA, { referenciaExterna: 'loja-1' });
    await simulateJourney(service, await auth(), made.aprovada);
    await simulateProposal(service, await auth(), made.aprovada, 'FORMALIZADA');
    await simulateProposal(service, await auth(), made.aprovada, 'APROVADA');
    // Nov 10: the sweeper stores one expiry (links of Nov 1 expired on Nov 8).
    at('10');
    const stored = await expireLinks(service.ctx);
    expect(stored).toBe(2);
    // expireLinks stored both; put one back to live so that it is EXPIRADO only by its time.
    await service.ctx.database.db.updateTable('links').set({ status: 'CRIADO' }).where('id', '=', made.expiredLive.id).execute();
    // Channel B has links of its own, with A's references.
    await created(channelB, { referenciaExterna: 'loja-1' });
    await created(channelB, { referenciaExterna: 'loja-2' });
  });

  it('lists the channel own links newest first, each as GET /v1/links/{id} shows it, never the url', async () => {
    const { links, proximoCursor } = await page(channelA);
    expect(proximoCursor).toBeUndefined();
    expect(links.map((l) => l.id)).toEqual(
      [
        made.aprovada,
        made.criada,
        made.aguardando,
        made.cancelado,
        made.emAndamento,
        made.aberto,
        made.criado,
        made.expiredStored,
        made.expiredLive,
      ].map((l) => l!.id),
    );
    const auth = await authOf(channelA);
    for (const link of links) {
      const one = await service.inject({ method: 'GET', url: `/v1/links/${link.id}`, headers: auth });
      expect(link).toEqual(one.json());
      expect(link).not.toHaveProperty('url');
      expect(link.cpfMascarado).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    }
    expect(links.map((l) => l.status)).toEqual([
      'CONCLUIDO',
      'CONCLUIDO',
      'CONCLUIDO',
      'CANCELADO',
      'EM_ANDAMENTO',
      'ABERTO',
      'CRIADO',
      'EXPIRADO',
      'EXPIRADO',
    ]);
    expect(links.map((l) => l.proposta?.status)).toEqual([
      'APROVADA',
      'CRIADA',
      'AGUARDANDO_FORMALIZACAO',
      ...Array(6).fill(undefined),
    ]);
  });

  it('filters by status as reads report it (EXPIRADO includes a live link whose time is up)', async () => {
    const ids = async (query: Record<string, string>) => (await page(channelA, query)).links.map((l) => l.id);
    expect(await ids({ status: 'EXPIRADO' })).toEqual([made.expiredStored!.id, made.expiredLive!.id]);
    expect(await ids({ status: 'CRIADO' })).toEqual([made.criado!.id]);
    expect(await ids({ status: 'ABERTO' })).toEqual([made.aberto!.id]);
    expect(await ids({ status: 'EM_ANDAMENTO' })).toEqual([made.emAndamento!.id]);
    expect(await ids({ status: 'CANCELADO' })).toEqual([made.cancelado!.id]);
    expect(await ids({ status: 'CONCLUIDO' })).toEqual([made.aprovada!.id, made.criada!.id, made.aguardando!.id]);
  });

  it('filters by proposal status, by reference, by creation period, and by all of them together', async () => {
    const ids = async (query: Record<string, string>) => (await page(channelA, query)).links.map((l) => l.id);
    expect(await ids({ propostaStatus: 'APROVADA' })).toEqual([made.aprovada!.id]);
    expect(await ids({ propostaStatus: 'CRIADA' })).toEqual([made.criada!.id]);
    expect(await ids({ propostaStatus: 'AGUARDANDO_FORMALIZACAO' })).toEqual([made.aguardando!.id]);
    expect(await ids({ propostaStatus: 'RECUSADA' })).toEqual([]);
    expect(await ids({ referenciaExterna: 'loja-2' })).toEqual([made.criada!.id, made.emAndamento!.id, made.expiredStored!.id]);
    expect(await ids({ referenciaExterna: '  loja-2 ' })).toEqual([
      made.criada!.id,
      made.emAndamento!.id,
      made.expiredStored!.id,
    ]);
    expect(await ids({ referenciaExterna: 'LOJA-2' })).toEqual([]);
    // desde inclusive, ate exclusive, on criadoEm.
    expect(await ids({ desde: made.aberto!.criadoEm, ate: made.cancelado!.criadoEm })).toEqual([
      made.emAndamento!.id,
      made.aberto!.id,
    ]);
    expect(await ids({ ate: '2026-11-02T00:00:00-03:00' })).toEqual([made.expiredStored!.id, made.expiredLive!.id]);
    expect(await ids({ desde: '2026-11-09T00:00:00Z', referenciaExterna: 'loja-1', status: 'CONCLUIDO' })).toEqual([
      made.aprovada!.id,
      made.aguardando!.id,
    ]);
    expect(await ids({ referenciaExterna: 'loja-1', propostaStatus: 'AGUARDANDO_FORMALIZACAO', status: 'CONCLUIDO' })).toEqual([
      made.aguardando!.id,
    ]);
    expect(await ids({ referenciaExterna: 'loja-2', propostaStatus: 'AGUARDANDO_FORMALIZACAO' })).toEqual([]);
    expect(await ids({ propostaStatus: 'APROVADA', status: 'EXPIRADO' })).toEqual([]);
    expect(await ids({ propostaStatus: 'CRIADA', desde: made.criada!.criadoEm, ate: made.aprovada!.criadoEm })).toEqual([
      made.criada!.id,
    ]);
  });

  it('pages through every filter with the cursor, in the same order as one page', async () => {
    const queries: Record<string, string>[] = [
      {},
      { status: 'CONCLUIDO' },
      { status: 'EXPIRADO' },
      { referenciaExterna: 'loja-1' },
      { propostaStatus: 'CRIADA' },
    ];
    for (const query of queries) {
      const whole = (await page(channelA, { ...query, limite: 100 })).links.map((l) => l.id);
      const paged = (await walk(channelA, { ...query, limite: 1 })).map((l) => l.id);
      expect(paged, JSON.stringify(query)).toEqual(whole);
    }
  });

  it('isolates channels: B never sees A links, by list, filter or cursor', async () => {
    const all = await walk(channelB, { limite: 1 });
    expect(all).toHaveLength(2);
    const aIds = new Set(Object.values(made).map((l) => l.id));
    expect(all.some((l) => aIds.has(l.id))).toBe(false);
    expect((await page(channelB, { referenciaExterna: 'loja-1' })).links).toHaveLength(1);
    expect((await page(channelB, { status: 'CONCLUIDO' })).links).toEqual([]);
    expect((await page(channelB, { propostaStatus: 'APROVADA' })).links).toEqual([]);
    // A's cursor, given to B, is refused: it is A's position, bound to A.
    const first = await page(channelA, { limite: 2 });
    expect(first.proximoCursor).toBeDefined();
    const stolen = await list(channelB, { limite: 2, cursor: first.proximoCursor! });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toMatchObject({ code: 'cursor_invalido' });
    expect(stolen.body).not.toContain(made.aprovada!.id);
  });

  it('refuses a forged cursor: its position changed, its tag changed, or made up', async () => {
    const { proximoCursor } = await page(channelA, { limite: 2 });
    const text = Buffer.from(proximoCursor!, 'base64url').toString('utf8');
    const [micros, id, tag] = text.split(':') as [string, string, string];
    const forge = (value: string) => Buffer.from(value, 'utf8').toString('base64url');
    const otherId = made.expiredLive!.id;
    for (const cursor of [
      forge(`${micros}:${otherId}:${tag}`),
      forge(`${BigInt(micros) + 1n}:${id}:${tag}`),
      forge(`${micros}:${id}:${'A'.repeat(22)}`),
      forge(`${micros}:${id}`),
      forge('0:00000000-0000-0000-0000-000000000000:AAAAAAAAAAAAAAAAAAAAAA'),
      'bm9wZQ',
      '!!!',
      'a'.repeat(201),
    ]) {
      const response = await list(channelA, { cursor });
      expect(response.statusCode, cursor).toBe(400);
      expect(response.json()).toMatchObject({ code: 'cursor_invalido', message: expect.stringContaining('proximoCursor') });
    }
  });

  it('answers each bad parameter with its code and a pt-BR message', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ limite: '0' }, 'limite_invalido'],
      [{ limite: '101' }, 'limite_invalido'],
      [{ limite: 'dez' }, 'limite_invalido'],
      [{ status: 'ATIVO' }, 'status_invalido'],
      [{ status: 'criado' }, 'status_invalido'],
      [{ propostaStatus: 'PAGA' }, 'proposta_status_invalido'],
      [{ referenciaExterna: 'x'.repeat(101) }, 'referencia_externa_invalida'],
      [{ referenciaExterna: '   ' }, 'referencia_externa_invalida'],
      [{ referenciaExterna: 'loja\u0000' }, 'referencia_externa_invalida'],
      [{ referenciaExterna: 'loja\u202e' }, 'referencia_externa_invalida'],
      [{ desde: 'ontem' }, 'desde_invalido'],
      [{ desde: '2026-11-01' }, 'desde_invalido'],
      [{ desde: '2026-06-30T23:59:60Z' }, 'desde_invalido'],
      [{ ate: '2026-02-30T00:00:00Z' }, 'ate_invalido'],
      [{ ate: '2016-12-31T23:59:60Z' }, 'ate_invalido'],
      [{ desde: '2026-11-10T00:00:00Z', ate: '2026-11-09T00:00:00Z' }, 'periodo_invalido'],
      [{ desde: '2026-11-10T00:00:00Z', ate: '2026-11-10T00:00:00Z' }, 'periodo_invalido'],
      [{ cursor: 'x' }, 'cursor_invalido'],
    ];
    for (const [query, code] of cases) {
      const response = await list(channelA, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      const body = response.json<{ code: string; message: string }>();
      expect(body.code, JSON.stringify(query)).toBe(code);
      expect(body.message).toMatch(/inválid/);
    }
  });

  it('needs a bearer token', async () => {
    const response = await service.inject({ method: 'GET', url: '/v1/links' });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /v1/links while links are being created', () => {
  it('never repeats nor skips a link that existed when the walk began, ties of creation time included', async () => {
    const channel = await service.createChannel({ name: 'Canal concorrente' });
    clock.set('2026-11-20T10:00:00.000Z');
    const before: MadeLink[] = [];
    // Groups of links created at one instant: the id orders them.
    for (let i = 0; i < 13; i++) {
      if (i % 4 === 0) clock.advance(1);
      before.push(await created(channel, { referenciaExterna: `r-${i % 3}` }));
    }
    const during: string[] = [];
    const seen = await walk(channel, { limite: 3 }, async (pageNumber) => {
      // Between pages, new links at the current instant (ties with the newest) and later.
      during.push((await created(channel, { referenciaExterna: 'r-0' })).id);
      if (pageNumber % 2 === 0) clock.advance(0.001);
      during.push((await created(channel, { referenciaExterna: 'r-1' })).id);
    });
    const ids = seen.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...seen].sort(newestFirst)).toEqual(seen);
    const beforeIds = before.map((l) => l.id);
    expect(beforeIds.every((id) => ids.includes(id))).toBe(true);
    // Whatever was created during the walk is at the head of a new walk, nowhere in the old pages.
    expect(ids.filter((id) => during.includes(id))).toEqual([]);
    const again = (await walk(channel, { limite: 7 })).map((l) => l.id);
    expect(new Set(again)).toEqual(new Set([...beforeIds, ...during]));
    expect(again.slice(0, during.length).sort()).toEqual([...during].sort());
  });

  it('pages concurrently with creations in flight without duplicates or gaps', async () => {
    const channel = await service.createChannel({ name: 'Canal paralelo' });
    clock.set('2026-11-21T10:00:00.000Z');
    const before = await Promise.all(Array.from({ length: 12 }, () => created(channel)));
    const creating = Promise.all(Array.from({ length: 12 }, () => created(channel)));
    const seen = await walk(channel, { limite: 4 });
    const during = await creating;
    const ids = seen.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...seen].sort(newestFirst)).toEqual(seen);
    for (const link of before) expect(ids).toContain(link.id);
    const all = new Set((await walk(channel, { limite: 100 })).map((l) => l.id));
    expect(all).toEqual(new Set([...before, ...during].map((l) => l.id)));
  });
});

describe('GET /v1/links with a filter that the walked index does not decide', () => {
  it('walks a bounded number of links per page: a short page with a cursor, then the match', async () => {
    const channel = await service.createChannel({ name: 'Canal volumoso' });
    clock.set('2026-11-25T10:00:00.000Z');
    const newest = clock.now();
    // More CRIADO links of one reference than a page walks, and an older CANCELADO one.
    const many = WALK_BUDGET + 100;
    await sql`
      insert into links (id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, referencia_externa, status,
                         expira_em, criado_em, aberto_em, updated_at)
      select gen_random_uuid(), ${channel.canalId}, 'SANDBOX', decode(md5('massa' || g), 'hex'), '\\x00'::bytea,
             decode(md5('cpf' || g), 'hex'), '***.456.789-**', 'massa', case when g = ${many} then 'CANCELADO' else 'CRIADO' end,
             ${newest}::timestamptz + interval '7 days' - g * interval '1 second', ${newest}::timestamptz - g * interval '1 second',
             null, ${newest}::timestamptz
      from generate_series(1, ${many}) as g`.execute(service.ctx.database.db);
    const first = await page(channel, { referenciaExterna: 'massa', status: 'CANCELADO', limite: 5 });
    expect(first.links).toEqual([]);
    expect(first.proximoCursor).toBeDefined();
    const second = await page(channel, {
      referenciaExterna: 'massa',
      status: 'CANCELADO',
      limite: 5,
      cursor: first.proximoCursor!,
    });
    expect(second.links.map((l) => l.status)).toEqual(['CANCELADO']);
    expect(second.proximoCursor).toBeUndefined();
    // The index decides a reference alone: full pages.
    const plain = await page(channel, { referenciaExterna: 'massa', limite: 100 });
    expect(plain.links).toHaveLength(100);
    // The walk over every page sees each link once.
    const criados = await walk(channel, { referenciaExterna: 'massa', status: 'CRIADO', limite: 100 });
    expect(criados).toHaveLength(many - 1);
    expect(new Set(criados.map((l) => l.id)).size).toBe(many - 1);
  });
});
