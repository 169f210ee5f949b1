// GET /v1/relatorios/funil (docs/rules.md §3.12): a known set of links in every state,
// counted by São Paulo day (a link created at 02:30 UTC is the day before's) and by
// reference (top N, the rest in `outros`, the links without one in `semReferencia`), a
// live link whose time is up counted EXPIRADO before the sweeper stores it, another
// channel's links never counted, the counts the triggers keep equal to a recount of the
// links and proposals (and to what the migration computes for links that existed before
// it), and every bad parameter with its code.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
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
import { expireLinks } from '../../src/links/links.expiry.ts';
import { countersNow, recount } from '../helpers/funnel-counters.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

const clock = new ManualClock('2026-11-09T12:00:00.000Z');
let service: TestService;
let channelA: IssuedCredentials;
let channelB: IssuedCredentials;

beforeAll(async () => {
  service = await startTestService({ clock });
  channelA = await service.createChannel({ name: 'Canal A' });
  channelB = await service.createChannel({ name: 'Canal B' });
});
afterAll(() => service?.close());

const auth = (channel: IssuedCredentials = channelA) => service.bearer(channel);

async function funnel(query: Record<string, string | number>, channel = channelA) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return service.inject({ method: 'GET', url: `/v1/relatorios/funil?${qs}`, headers: await auth(channel) });
}

const PROPOSALS_NONE = { CRIADA: 0, AGUARDANDO_FORMALIZACAO: 0, FORMALIZADA: 0, APROVADA: 0, RECUSADA: 0, CANCELADA: 0 };
const counts = (
  values: Partial<Record<'criados' | 'abertos' | 'emAndamento' | 'concluidos' | 'cancelados' | 'expirados', number>>,
  propostas: Partial<typeof PROPOSALS_NONE> = {},
) => ({
  criados: 0,
  abertos: 0,
  emAndamento: 0,
  concluidos: 0,
  cancelados: 0,
  expirados: 0,
  ...values,
  propostas: { ...PROPOSALS_NONE, ...propostas },
});

const at = (instant: string) => clock.set(instant);
const link = async (body: { cpf?: string; referenciaExterna?: string } = {}, channel = channelA): Promise<MadeLink> =>
  makeLink(service, await auth(channel), body);

describe('GET /v1/relatorios/funil', () => {
  beforeAll(async () => {
    // São Paulo's Nov 9, its last minutes in UTC: 02:30 UTC on Nov 10 is 23:30 on Nov 9 there.
    at('2026-11-09T12:00:00.000Z');
    const late9 = await link({ referenciaExterna: 'loja-1' }); // stays CRIADO: expires on Nov 16
    at('2026-11-10T02:30:00.000Z');
    const boundary = await link({ referenciaExterna: 'loja-1' });
    await open(service, boundary);
    // 03:00 UTC on Nov 10 is São Paulo's midnight: Nov 10.
    at('2026-11-10T03:00:00.000Z');
    await link({ referenciaExterna: 'loja-2' }); // CRIADO
    at('2026-11-10T15:00:00.000Z');
    await confirmPhone(service, await link({ referenciaExterna: 'loja-2' })); // EM_ANDAMENTO
    expect(await simulateJourney(service, await auth(), await link({ cpf: INELIGIBLE_CPF }))).toBe('CANCELADO');
    expect(await simulateJourney(service, await auth(), await link({ referenciaExterna: 'loja-1' }))).toBe('CONCLUIDO'); // AGUARDANDO
    expect(await simulateJourney(service, await auth(), await link({ cpf: NO_SIGNING_CPF, referenciaExterna: 'loja-3' }))).toBe(
      'CONCLUIDO',
    ); // CRIADA
    const approved = await link({ referenciaExterna: 'loja-1' });
    await simulateJourney(service, await auth(), approved);
    await simulateProposal(service, await auth(), approved, 'FORMALIZADA');
    await simulateProposal(service, await auth(), approved, 'APROVADA');
    const refused = await link();
    await simulateJourney(service, await auth(), refused);
    await simulateProposal(service, await auth(), refused, 'RECUSADA');
    // Nov 11: one opened, one never opened.
    at('2026-11-11T13:00:00.000Z');
    await open(service, await link({ referenciaExterna: 'loja-3' }));
    await link({ referenciaExterna: 'loja-4' });
    // Channel B: links of its own, with A's references, on the same days.
    await simulateJourney(service, await auth(channelB), await link({ referenciaExterna: 'loja-1' }, channelB));
    expect(late9.id).toBeDefined();
    // The sweeper ran at 02:45 UTC on Nov 17: it stored the expiry of São Paulo's Nov 9
    // links (7 days). At 20:00 UTC the two live links of Nov 10 have expired too, unswept.
    at('2026-11-17T02:45:00.000Z');
    expect(await expireLinks(service.ctx)).toBe(2);
    at('2026-11-17T20:00:00.000Z');
  });

  it('counts by São Paulo day, the link of 02:30 UTC on the day before, every day of the period listed', async () => {
    const response = await funnel({ de: '2026-11-08', ate: '2026-11-12' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      de: '2026-11-08',
      ate: '2026-11-12',
      fusoHorario: 'America/Sao_Paulo',
      agruparPor: 'dia',
      geradoEm: '2026-11-17T20:00:00.000Z',
    });
    expect(body.grupos).toEqual([
      { dia: '2026-11-08', ...counts({}) },
      // The link of Nov 9 (never opened) and the boundary one (opened): both expired, stored by the sweeper.
      { dia: '2026-11-09', ...counts({ criados: 2, abertos: 1, expirados: 2 }) },
      {
        dia: '2026-11-10',
        ...counts(
          // CRIADO and EM_ANDAMENTO expired (not yet swept: EXPIRADO as reads say); CANCELADO;
          // four CONCLUIDO (AGUARDANDO_FORMALIZACAO, CRIADA, APROVADA, RECUSADA).
          { criados: 7, abertos: 6, emAndamento: 0, concluidos: 4, cancelados: 1, expirados: 2 },
          { AGUARDANDO_FORMALIZACAO: 1, CRIADA: 1, APROVADA: 1, RECUSADA: 1 },
        ),
      },
      { dia: '2026-11-11', ...counts({ criados: 2, abertos: 1, expirados: 0 }) },
      { dia: '2026-11-12', ...counts({}) },
    ]);
    expect(body.total).toEqual(
      counts(
        { criados: 11, abertos: 8, concluidos: 4, cancelados: 1, expirados: 4 },
        { AGUARDANDO_FORMALIZACAO: 1, CRIADA: 1, APROVADA: 1, RECUSADA: 1 },
      ),
    );
  });

  it('counts a live link as in progress until its time is up', async () => {
    at('2026-11-12T12:00:00.000Z');
    try {
      const { grupos } = (await funnel({ de: '2026-11-10', ate: '2026-11-10' })).json();
      expect(grupos).toEqual([
        {
          dia: '2026-11-10',
          ...counts(
            { criados: 7, abertos: 6, emAndamento: 1, concluidos: 4, cancelados: 1, expirados: 0 },
            { AGUARDANDO_FORMALIZACAO: 1, CRIADA: 1, APROVADA: 1, RECUSADA: 1 },
          ),
        },
      ]);
    } finally {
      at('2026-11-17T20:00:00.000Z');
    }
  });

  it('groups by reference: the most used first, up to limite, the rest in outros, none in semReferencia', async () => {
    const all = (await funnel({ de: '2026-11-09', ate: '2026-11-11', agruparPor: 'referenciaExterna' })).json();
    expect(all.agruparPor).toBe('referenciaExterna');
    expect(all.grupos.map((g: { referenciaExterna: string }) => g.referenciaExterna)).toEqual([
      'loja-1',
      'loja-2',
      'loja-3',
      'loja-4',
    ]);
    expect(all.grupos[0]).toEqual({
      referenciaExterna: 'loja-1',
      ...counts({ criados: 4, abertos: 3, concluidos: 2, expirados: 2 }, { AGUARDANDO_FORMALIZACAO: 1, APROVADA: 1 }),
    });
    expect(all.semReferencia).toEqual(counts({ criados: 2, abertos: 2, concluidos: 1, cancelados: 1 }, { RECUSADA: 1 }));
    expect(all).not.toHaveProperty('outros');

    const top = (await funnel({ de: '2026-11-09', ate: '2026-11-11', agruparPor: 'referenciaExterna', limite: 2 })).json();
    expect(top.grupos.map((g: { referenciaExterna: string }) => g.referenciaExterna)).toEqual(['loja-1', 'loja-2']);
    // loja-2 and loja-3 both have two links: the tie goes by reference.
    expect(top.outros).toEqual({
      referencias: 2,
      ...counts({ criados: 3, abertos: 2, concluidos: 1 }, { CRIADA: 1 }),
    });
    expect(top.total).toEqual(all.total);
  });

  it('never counts another channel links', async () => {
    const b = (await funnel({ de: '2026-11-09', ate: '2026-11-11' }, channelB)).json();
    expect(b.total).toEqual(counts({ criados: 1, abertos: 1, concluidos: 1 }, { AGUARDANDO_FORMALIZACAO: 1 }));
    const byReference = (await funnel({ de: '2026-11-09', ate: '2026-11-11', agruparPor: 'referenciaExterna' }, channelB)).json();
    expect(byReference.grupos).toEqual([
      { referenciaExterna: 'loja-1', ...counts({ criados: 1, abertos: 1, concluidos: 1 }, { AGUARDANDO_FORMALIZACAO: 1 }) },
    ]);
  });

  it('keeps counts equal to a recount of the links and proposals, and to what the migrations compute', async () => {
    const db = service.ctx.database.db;
    // A change no path of the service makes (an operator's SQL): counted too.
    await sql`update links set status = 'CANCELADO' where status = 'CRIADO' and referencia_externa = 'loja-4'`.execute(db);
    const kept = await countersNow(db);
    expect(kept).toEqual(await recount(db));
    // The migration's own computation, from the links and proposals as they are.
    const migration = (file: string) =>
      fs.readFileSync(path.resolve(import.meta.dirname, '../../src/db/migrations', file), 'utf8');
    const counts = migration('0020_links_list_funnel.sql');
    const months = migration('0023_funnel_reference_months.sql');
    const backfill = [
      counts.slice(counts.indexOf('-- What existed before the counters')),
      months.slice(months.indexOf('-- What existed before the months'), months.indexOf("-- The ranking's former index")),
    ].join(';');
    for (const table of ['link_funnel_days', 'link_funnel_references', 'link_funnel_reference_months']) {
      await sql`delete from ${sql.table(table)}`.execute(db);
    }
    await sql`delete from proposal_funnel_days`.execute(db);
    await sql`delete from proposal_funnel_references`.execute(db);
    for (const statement of backfill.split(';').filter((s) => /\binsert\b/.test(s))) await sql.raw(statement).execute(db);
    expect(await countersNow(db)).toEqual(kept);
  });

  it('answers each bad parameter with its code and a pt-BR message', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ ate: '2026-11-10' }, 'de_invalido'],
      [{ de: '2026-11-10' }, 'ate_invalido'],
      [{ de: '2026-11-31', ate: '2026-12-01' }, 'de_invalido'],
      [{ de: '2026/11/01', ate: '2026-12-01' }, 'de_invalido'],
      [{ de: '2026-11-01T00:00:00Z', ate: '2026-12-01' }, 'de_invalido'],
      [{ de: '2016-12-31T23:59:60Z', ate: '2017-01-01' }, 'de_invalido'],
      [{ de: '2026-11-01', ate: '2027-02-29' }, 'ate_invalido'],
      [{ de: '2026-11-01', ate: 'amanhã' }, 'ate_invalido'],
      [{ de: '2026-11-10', ate: '2026-11-09' }, 'periodo_invalido'],
      [{ de: '2026-01-01', ate: '2027-01-02' }, 'periodo_invalido'],
      [{ de: '2026-11-01', ate: '2026-11-30', agruparPor: 'semana' }, 'agrupar_por_invalido'],
      [{ de: '2026-11-01', ate: '2026-11-30', agruparPor: 'referenciaExterna', limite: '0' }, 'limite_invalido'],
      [{ de: '2026-11-01', ate: '2026-11-30', agruparPor: 'referenciaExterna', limite: '101' }, 'limite_invalido'],
    ];
    for (const [query, code] of cases) {
      const response = await funnel(query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      const body = response.json<{ code: string; message: string }>();
      expect(body.code, JSON.stringify(query)).toBe(code);
      expect(body.message).toMatch(/inválid/);
    }
    // 366 days is the most: a leap year's whole.
    expect((await funnel({ de: '2028-01-01', ate: '2028-12-31' })).statusCode).toBe(200);
    const tooLong = await funnel({ de: '2027-01-01', ate: '2028-01-02' });
    expect(tooLong.json().message).toContain('366 dias');
    expect((await service.inject({ method: 'GET', url: '/v1/relatorios/funil?de=2026-11-01&ate=2026-11-02' })).statusCode).toBe(
      401,
    );
  });
});
