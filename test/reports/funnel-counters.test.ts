// The funnel's counters (kept by the statement triggers of migration 0020) against a
// direct count of the links and proposals, after rounds of random changes made the way
// an operator's SQL could make them: many rows per statement, creations and deletions,
// status and opening changes, references and creation days moved (São Paulo midnight
// included), proposals created, moved and deleted, and a transaction rolled back. Then
// the funnel's answers by reference against the same direct count. The seed is printed
// on failure (FUNNEL_SEED=… reruns it). On PostgreSQL, where other connections write
// while the funnel reads, one answer's groups add up to its total.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { countersNow, recount } from '../helpers/funnel-counters.ts';
import { describeOnPostgres } from '../helpers/db.ts';
import { LINK_STATUSES } from '../../src/links/link-states.ts';
import { PROPOSAL_STATUSES } from '../../src/db/tables.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

const clock = new ManualClock('2026-11-20T12:00:00.000Z');
let service: TestService;
let channels: IssuedCredentials[];
const seed = Number(process.env.FUNNEL_SEED ?? Math.floor(Math.random() * 2 ** 31));

beforeAll(async () => {
  service = await startTestService({ clock });
  channels = [await service.createChannel({ name: 'Canal A' }), await service.createChannel({ name: 'Canal B' })];
});
afterAll(() => service?.close());

/** mulberry32: a small seeded generator, so that a failure can be replayed. */
function generator(start: number) {
  let state = start >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const some = <T>(values: readonly T[], share: number): T[] => values.filter(() => next() < share);
  return { next, pick, some };
}

// Instants around São Paulo's midnights (03:00 UTC), on a few days.
const INSTANTS = [
  '2026-11-10T02:59:59.999Z',
  '2026-11-10T03:00:00.000Z',
  '2026-11-10T15:00:00.000Z',
  '2026-11-11T02:30:00.000Z',
  '2026-11-11T03:00:00.001Z',
  '2026-11-12T20:00:00.000Z',
  '2026-11-14T12:00:00.000Z',
];
const REFERENCES = ['loja-1', 'loja-2', 'loja-3', 'promotor com espaço', null];

describe('funnel counters after random changes', () => {
  it('equal a direct count of the links and proposals, and the funnel answers it', async () => {
    const db = service.ctx.database.db;
    const random = generator(seed);
    const live: string[] = [];

    const insertLinks = async (count: number) => {
      const rows = Array.from({ length: count }, () => ({
        id: randomUUID(),
        channel: random.pick(channels).canalId,
        reference: random.pick(REFERENCES),
        status: random.pick(LINK_STATUSES),
        created: random.pick(INSTANTS),
        opened: random.next() < 0.5,
      }));
      // Far-off expiry: the funnel then reports every stored status as it is.
      await sql`
        insert into links (id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, referencia_externa,
                           status, expira_em, criado_em, aberto_em, updated_at)
        select t.id, t.channel, 'SANDBOX', decode(md5(t.id::text), 'hex'), '\\x00', '\\x00', '***.456.789-**', t.reference,
               t.status, t.created + interval '100 years', t.created, case when t.opened then t.created + interval '1 hour' end,
               t.created
        from unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.channel)}::uuid[], ${rows.map((r) => r.reference)}::text[],
                    ${rows.map((r) => r.status)}::text[], ${rows.map((r) => r.created)}::timestamptz[],
                    ${rows.map((r) => r.opened)}::boolean[]) as t(id, channel, reference, status, created, opened)
      `.execute(db);
      live.push(...rows.map((r) => r.id));
    };
    const withProposal = async (): Promise<Set<string>> =>
      new Set((await sql<{ id: string }>`select link_id as id from proposals`.execute(db)).rows.map((r) => r.id));

    const changes: Array<() => Promise<void>> = [
      () => insertLinks(1 + Math.floor(random.next() * 12)),
      async () => {
        const chosen = random.some(live, 0.3);
        await sql`update links l set status = t.status from unnest(${chosen}::uuid[], ${chosen.map(() => random.pick(LINK_STATUSES))}::text[])
                  as t(id, status) where l.id = t.id`.execute(db);
      },
      async () => {
        const chosen = random.some(live, 0.3);
        await sql`update links set aberto_em = case when aberto_em is null then criado_em + interval '2 hours' end
                  where id = any(${chosen}::uuid[])`.execute(db);
      },
      async () => {
        const chosen = random.some(live, 0.2);
        await sql`update links l set referencia_externa = t.reference
                  from unnest(${chosen}::uuid[], ${chosen.map(() => random.pick(REFERENCES))}::text[]) as t(id, reference)
                  where l.id = t.id`.execute(db);
      },
      async () => {
        const chosen = random.some(live, 0.1);
        await sql`update links l set criado_em = t.created
                  from unnest(${chosen}::uuid[], ${chosen.map(() => random.pick(INSTANTS))}::timestamptz[]) as t(id, created)
                  where l.id = t.id`.execute(db);
      },
      async () => {
        // Nothing counted changes: the triggers must add nothing.
        await sql`update links set updated_at = updated_at + interval '1 second' where id = any(${random.some(live, 0.5)}::uuid[])`.execute(
          db,
        );
      },
      async () => {
        const taken = await withProposal();
        const chosen = random.some(
          live.filter((id) => !taken.has(id)),
          0.3,
        );
        await sql`
          insert into proposals (link_id, channel_id, status, valor_centavos, parcelas, valor_parcela_centavos, criada_em, updated_at)
          select l.id, l.channel_id, t.status, 100000, 12, 9000, l.criado_em, l.criado_em
          from unnest(${chosen}::uuid[], ${chosen.map(() => random.pick(PROPOSAL_STATUSES))}::text[]) as t(id, status)
          join links l on l.id = t.id`.execute(db);
      },
      async () => {
        const chosen = random.some([...(await withProposal())], 0.4);
        await sql`update proposals p set status = t.status
                  from unnest(${chosen}::uuid[], ${chosen.map(() => random.pick(PROPOSAL_STATUSES))}::text[]) as t(id, status)
                  where p.link_id = t.id`.execute(db);
      },
      async () => {
        await sql`delete from proposals where link_id = any(${random.some([...(await withProposal())], 0.15)}::uuid[])`.execute(
          db,
        );
      },
      async () => {
        const taken = await withProposal();
        const chosen = random.some(
          live.filter((id) => !taken.has(id)),
          0.1,
        );
        await sql`delete from links where id = any(${chosen}::uuid[])`.execute(db);
        for (const id of chosen) live.splice(live.indexOf(id), 1);
      },
    ];

    await insertLinks(40);
    for (let round = 0; round < 60; round++) await random.pick(changes)();
    // Changes rolled back leave no count behind.
    await db
      .transaction()
      .execute(async (tx) => {
        await sql`update links set status = 'CANCELADO', referencia_externa = 'desfeito'`.execute(tx);
        await sql`delete from proposals`.execute(tx);
        throw new Error('rollback');
      })
      .catch((error: unknown) => {
        if ((error as Error).message !== 'rollback') throw error;
      });
    for (let round = 0; round < 30; round++) await random.pick(changes)();

    expect(await countersNow(db), `FUNNEL_SEED=${seed}`).toEqual(await recount(db));

    // The funnel by reference, every reference shown, against the same direct count.
    clock.set('2026-11-20T12:00:00.000Z');
    for (const channel of channels) {
      const response = await service.inject({
        method: 'GET',
        url: '/v1/relatorios/funil?de=2026-11-09&ate=2026-11-15&agruparPor=referenciaExterna&limite=100',
        headers: await service.bearer(channel),
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{
        total: { criados: number; concluidos: number; propostas: Record<string, number> };
        grupos: Array<{
          referenciaExterna: string;
          criados: number;
          abertos: number;
          concluidos: number;
          propostas: Record<string, number>;
        }>;
        semReferencia?: { criados: number };
      }>();
      const { rows } = await sql<{ referencia: string; criados: number; abertos: number; concluidos: number; aprovadas: number }>`
        select coalesce(l.referencia_externa, '') as referencia, count(*)::int as criados, count(l.aberto_em)::int as abertos,
               count(*) filter (where l.status = 'CONCLUIDO')::int as concluidos,
               count(p.numero) filter (where p.status = 'APROVADA')::int as aprovadas
        from links l left join proposals p on p.link_id = l.id
        where l.channel_id = ${channel.canalId}
        group by 1 order by criados desc, coalesce(l.referencia_externa, '') collate "C"`.execute(db);
      const expected = rows.filter((r) => r.referencia !== '');
      expect(
        body.grupos.map((g) => [g.referenciaExterna, g.criados, g.abertos, g.concluidos, g.propostas.APROVADA]),
        `FUNNEL_SEED=${seed}`,
      ).toEqual(expected.map((r) => [r.referencia, r.criados, r.abertos, r.concluidos, r.aprovadas]));
      expect(body.semReferencia?.criados ?? 0).toBe(rows.find((r) => r.referencia === '')?.criados ?? 0);
      expect(body.total.criados).toBe(rows.reduce((sum, r) => sum + r.criados, 0));
    }
  });
});

describeOnPostgres('one funnel answer is one snapshot', () => {
  it('adds its groups up to its total while links are created and change state', async () => {
    const db = service.ctx.database.db;
    const channel = channels[0]!;
    const headers = await service.bearer(channel);
    let writing = true;
    let writes = 0;
    // Another connection's changes, one statement after another, all the time the funnel reads.
    const writer = (async () => {
      while (writing) {
        await sql`
          insert into links (id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, referencia_externa,
                             status, expira_em, criado_em, aberto_em, updated_at)
          select id, ${channel.canalId}, 'SANDBOX', decode(md5(id::text), 'hex'), '\\x00', '\\x00', '***.456.789-**',
                 (array['loja-1', 'loja-2', null])[1 + (random() * 2)::int], 'CRIADO', now() + interval '100 years',
                 '2026-11-12T15:00:00Z', null, now()
          from (select gen_random_uuid() as id) as g`.execute(db);
        await sql`update links set status = case status when 'CRIADO' then 'CANCELADO' else 'CRIADO' end,
                    aberto_em = coalesce(aberto_em, now())
                  where channel_id = ${channel.canalId} and status in ('CRIADO', 'CANCELADO')
                    and id in (select id from links where channel_id = ${channel.canalId} order by random() limit 3)`.execute(db);
        writes += 1;
      }
    })();
    const columns = ['criados', 'abertos', 'emAndamento', 'concluidos', 'cancelados', 'expirados'] as const;
    type Counts = Record<(typeof columns)[number], number>;
    try {
      for (let i = 0; i < 40; i++) {
        const response = await service.inject({
          method: 'GET',
          url: '/v1/relatorios/funil?de=2026-11-09&ate=2026-11-15&agruparPor=referenciaExterna&limite=100',
          headers,
        });
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json<{ total: Counts; grupos: Counts[]; semReferencia?: Counts; outros?: Counts }>();
        expect(body.outros).toBeUndefined();
        for (const column of columns) {
          const parts = [...body.grupos, ...(body.semReferencia ? [body.semReferencia] : [])];
          expect(
            parts.reduce((sum, g) => sum + g[column], 0),
            `${column} in answer ${i}`,
          ).toBe(body.total[column]);
        }
      }
    } finally {
      writing = false;
      await writer;
    }
    expect(writes).toBeGreaterThan(0);
  });
});
