// The queue statements must reach delivery rows through their indexes whatever the
// table's size. The worker prepares them once per connection and PostgreSQL soon
// settles on a generic plan, in which the batch size is unknown: with a history of a
// few tens of thousands of rows, a claim once joined its batch to the whole table by
// a sequential scan and a hash (O(table) per claim: 2.5 times the PostgreSQL CPU per
// delivery in the drain benchmark). A generic plan is forced here, and the table's
// own counter of sequential scans must not move.
//
// The claim is also fair between channels (issue 14): each channel with due rows gets
// its share and its turns whatever another's backlog, a contained channel one attempt
// at a time across claims (workers), and the rows it reads grow with the batch, not
// with the backlog.
import { migratedImage } from '../helpers/pglite-image.ts';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type DB } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { deriveKeys } from '../../src/crypto/keys.ts';
import { systemClock } from '../../src/clock.ts';
import type { Config } from '../../src/config/config.ts';
import { createChannel } from '../../src/channels/channels.service.ts';
import { registerWebhook } from '../../src/webhooks/webhooks.service.ts';
import { claimDue } from '../../src/webhooks/delivery/sql/claim-due.ts';
import { recordResults } from '../../src/webhooks/delivery/sql/record-results.ts';
import { releaseClaims } from '../../src/webhooks/delivery/sql/release-claims.ts';
import { heldBack } from '../../src/webhooks/delivery/delivery-metrics.ts';
import { outcome } from '../../src/webhooks/delivery/retry-policy.ts';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/db.ts';

const HISTORY = 10_000;
const scans = async (db: DB) =>
  (
    await sql<{ relname: string; seq_scan: number; idx_tup_fetch: number }>`
      select relname, seq_scan::int, idx_tup_fetch::int from pg_stat_xact_user_tables
      where relname in ('deliveries', 'events') order by relname
    `.execute(db)
  ).rows;
const PENDING = 20_000;
// Two more channels with a few due rows each, newer than the whole backlog.
const SMALL = 20;

/** A fresh database on one connection (every statement on the same prepared plans), and what creating channels needs. */
async function openQueue() {
  const testDb = await createTestDatabase();
  const database = await openDatabase({ databaseUrl: testDb.url, dataDir: 'memory', poolSize: 1, image: await migratedImage() });
  await migrate(database);
  const deps = {
    database,
    keys: deriveKeys(randomBytes(32)),
    clock: systemClock,
    config: { ambiente: 'SANDBOX', allowInsecureWebhooks: true, publicBaseUrl: 'http://127.0.0.1:9' } as Config,
  };
  return { testDb, database, deps };
}

describe('delivery queue plans', () => {
  let testDb: TestDatabase;
  let database: Database;
  let big: string;
  let small: string[];
  let deps: Awaited<ReturnType<typeof openQueue>>['deps'];

  beforeAll(async () => {
    ({ testDb, database, deps } = await openQueue());
    const channel = await createChannel(deps, { name: 'Plans' });
    await registerWebhook(deps, channel.canalId, { url: 'http://127.0.0.1:9/hook' });
    big = channel.canalId;
    small = [];
    for (const name of ['Pequeno 1', 'Pequeno 2']) {
      const other = await createChannel(deps, { name });
      await registerWebhook(deps, other.canalId, { url: 'http://127.0.0.1:9/hook' });
      small.push(other.canalId);
    }
    const db = database.db;
    await sql`
      insert into events (id, channel_id, link_id, tipo, payload, ocorrido_em)
      select gen_random_uuid(), ${channel.canalId}, null, 'proposta.aprovada', '{"id":"x"}', now() - make_interval(secs => g)
      from generate_series(1, ${HISTORY + PENDING}::int) as g
    `.execute(db);
    await sql`
      insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, criado_em, entregue_em)
      select gen_random_uuid(), e.id, e.channel_id, e.tipo,
        case when n <= ${HISTORY}::int then 'ENTREGUE' else 'PENDENTE' end,
        case when n <= ${HISTORY}::int then 1 else 0 end,
        case when n <= ${HISTORY}::int then null else e.ocorrido_em end,
        e.ocorrido_em,
        case when n <= ${HISTORY}::int then e.ocorrido_em end
      from (select e.*, row_number() over (order by ocorrido_em) as n from events e) as e
    `.execute(db);
    for (const channelId of small) {
      await sql`
        insert into events (id, channel_id, link_id, tipo, payload, ocorrido_em)
        select gen_random_uuid(), ${channelId}, null, 'proposta.aprovada', '{"id":"x"}', now() - make_interval(secs => g) / 100
        from generate_series(1, ${SMALL}::int) as g
      `.execute(db);
      await sql`
        insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, criado_em)
        select gen_random_uuid(), id, channel_id, tipo, 'PENDENTE', 0, ocorrido_em, ocorrido_em from events where channel_id = ${channelId}
      `.execute(db);
    }
    await sql`analyze`.execute(db);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  // Custom plans know the batch size and still chose the scan on a table this size;
  // generic plans do not know it. Both must go through the indexes.
  it.each(['force_custom_plan', 'force_generic_plan'])(
    'claims, records and gives back through the indexes (%s)',
    async (mode) => {
      const delivered = await countDelivered();
      const seqScans = await database.db.transaction().execute(async (tx) => {
        await sql`select set_config('plan_cache_mode', ${mode}, true)`.execute(tx);
        // Counted from here: this view also holds the not yet reported scans of earlier
        // transactions of the connection (the fill above), and they are reported only
        // between transactions.
        const before = await scans(tx);
        const now = new Date();
        const first = await claimDue(tx, now, 500, 60);
        // Three channels with due rows: a third of the batch each at most. The small
        // channels' rows are the newest of all, and still all in the batch.
        expect(count(first.rows)).toEqual({ [big]: 167, [small[0]!]: SMALL, [small[1]!]: SMALL });
        expect(first.more).toBe(true);
        const afterFirst = await scans(tx);
        // Contained, the big channel gets no probe while its rows are under live leases
        // (counted through the queue index, within the leases' window), and the metrics
        // see it at its cap.
        const probe = await claimDue(tx, now, 500, 60, { contained: [big] });
        expect(probe).toEqual({ rows: [], held: [big], more: false });
        // (The metrics' count of held-back rows reads most of this table, all due: a
        // sequential scan there is the planner's right choice, and is left out below.)
        const beforeMetrics = await scans(tx);
        const held = await heldBack(tx, now, 100, 60);
        const metricsScans = (await scans(tx))[0]!.seq_scan - beforeMetrics[0]!.seq_scan;
        expect(held).toMatchObject({ contained: 0, heldContained: 0 });
        expect(held.heldByCap).toBeGreaterThan(10_000);
        // The busy path: the next claim carries the previous batch's results. Alone
        // with due rows now, the big channel gets the whole batch.
        const results = first.rows.map((c) => outcome(c, { ok: true, status: 200, latencyMs: 3 }, now, [60]));
        const second = await claimDue(tx, now, 500, 60, { record: results.slice(0, 150) });
        expect(count(second.rows)).toEqual({ [big]: 500 });
        expect(await recordResults(tx, results.slice(150))).toBe(first.rows.length - 150);
        expect(await releaseClaims(tx, second.rows, now)).toBe(500);
        const after = await scans(tx);
        return {
          seqScans: after.map((row, i) => ({
            relname: row.relname,
            seq_scan: row.seq_scan - before[i]!.seq_scan - (row.relname === 'deliveries' ? metricsScans : 0),
          })),
          // Rows the first claim read through indexes: about the batch and each channel's
          // share of it, never the 20,000-row backlog.
          fetched: afterFirst[0]!.idx_tup_fetch - before[0]!.idx_tup_fetch,
        };
      });
      expect(seqScans.seqScans).toEqual([
        { relname: 'deliveries', seq_scan: 0 },
        { relname: 'events', seq_scan: 0 },
      ]);
      expect(seqScans.fetched).toBeLessThan(4 * 500);
      expect(await countDelivered()).toBe(delivered + 167 + 2 * SMALL);
      // Put the small channels' rows back as they were, for the next case.
      await sql`update deliveries set status = 'PENDENTE', next_attempt_at = criado_em, entregue_em = null
                where channel_id <> ${big}`.execute(database.db);
    },
  );

  // A role that may not ANALYZE claims `ordered` (see claimDue): the oldest due rows
  // first, with the planner settings confined to the claim's own transaction.
  it('ordered claims take the oldest due rows first and leave the settings as they were', async () => {
    const { rows: claimed } = await claimDue(database.db, new Date(), 300, 60, { ordered: true });
    expect(count(claimed)).toEqual({ [big]: 100, [small[0]!]: SMALL, [small[1]!]: SMALL });
    const times = claimed.filter((c) => c.channelId === big).map((c) => c.eventAt);
    const { rows } = await sql<{ oldest: number; sort: string }>`
      select (extract(epoch from min(next_attempt_at)) * 1000)::float8 as oldest, current_setting('enable_sort') as sort
      from deliveries where status = 'PENDENTE' and lease_id is null and channel_id = ${big}
    `.execute(database.db);
    expect(Math.max(...times)).toBeLessThanOrEqual(rows[0]!.oldest);
    expect(rows[0]!.sort).toBe('on');
    expect(await releaseClaims(database.db, claimed, new Date())).toBe(140);
  });

  it('takes every channel with due rows in turn, oldest first within each', async () => {
    const oldest = async (channelId: string) => (await oldestDue(channelId, 10, new Date())).sort();
    const expected = { [big]: await oldest(big), [small[0]!]: await oldest(small[0]!), [small[1]!]: await oldest(small[1]!) };
    const { rows: claimed } = await claimDue(database.db, new Date(), 30, 60);
    const perChannel = Object.groupBy(claimed, (c) => c.channelId);
    expect(Object.fromEntries(Object.entries(perChannel).map(([k, v]) => [k, v!.map((c) => c.id).sort()]))).toEqual(expected);
    expect(await releaseClaims(database.db, claimed, new Date())).toBe(30);
  });

  it('gives every channel its share of a batch, and a channel alone the whole batch', async () => {
    const now = new Date();
    const first = await claimDue(database.db, now, 100, 60);
    expect(count(first.rows)).toEqual({ [big]: 34, [small[0]!]: SMALL, [small[1]!]: SMALL });
    expect(first.more).toBe(true);
    // The small channels' rows are claimed (leased, not due): the big one is alone.
    const second = await claimDue(database.db, now, 100, 60);
    expect(count(second.rows)).toEqual({ [big]: 100 });
    // Rows not claimed were not attempted: their attempt count has not moved.
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from deliveries where status = 'PENDENTE' and lease_id is null and tentativas > 0
    `.execute(database.db);
    expect(rows[0]!.n).toBe(0);
    await releaseClaims(database.db, [...first.rows, ...second.rows], now);
  });

  it('gives a contained channel one probing attempt at a time', async () => {
    const now = new Date();
    await sql`insert into delivery_channels (channel_id, failures, contained_since, updated_at) values (${big}, 3, ${now}, ${now})`.execute(
      database.db,
    );
    const first = await claimDue(database.db, now, 100, 60);
    expect(count(first.rows)).toEqual({ [big]: 1, [small[0]!]: SMALL, [small[1]!]: SMALL });
    const second = await claimDue(database.db, now, 100, 60);
    expect(second).toEqual({ rows: [], held: [big], more: false });
    // Its probe's result, recorded with the next claim, makes room for the next probe.
    const probe = first.rows.find((c) => c.channelId === big)!;
    const third = await claimDue(database.db, now, 100, 60, {
      record: [outcome(probe, { ok: false, latencyMs: 10_000, error: 'tempo esgotado' }, now, [0])],
    });
    expect(count(third.rows)).toEqual({ [big]: 1 });
    await releaseClaims(database.db, [...first.rows, ...third.rows], now);
    await releaseClaims(database.db, first.rows, now);
    await sql`delete from delivery_channels`.execute(database.db);
  });

  // Two claims side by side (two workers, or one worker's two claims during a backlog):
  // the second skips what the first locked. Were the first to lock a row it does not
  // take, that row would go out after the second claim's newer rows, a batch late.
  it.runIf(usingPostgres())('locks only the rows it takes: a claim beside it takes the very next ones', async () => {
    const now = new Date();
    const due = await oldestDue(big, 20, now);
    const onlyBig = { limits: new Map(small.map((channelId) => [channelId, 0])) };
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    const [first, second] = await sideBySide(
      (tx) => claimDue(tx, now, 10, 60, onlyBig),
      (db) => claimDue(db, now, 10, 60, onlyBig),
    );
    expect(ids(first.rows)).toEqual(due.slice(0, 10).sort());
    expect(ids(second.rows)).toEqual(due.slice(10, 20).sort());
    expect([first.more, second.more]).toEqual([true, true]);
    expect(await releaseClaims(database.db, [...first.rows, ...second.rows], now)).toBe(20);
  });

  // The same with more channels than the batch has rows and a contained channel's probe:
  // the probe and a row of each channel would pass the batch, and the statement must stop
  // at it instead of locking one more row that it then leaves.
  it.runIf(usingPostgres())('stops at the batch with a probe and more channels than rows', async () => {
    const now = new Date();
    const expected = { [small[0]!]: await oldestDue(small[0]!, 3, now), [small[1]!]: await oldestDue(small[1]!, 3, now) };
    const [first, second] = await sideBySide(
      (tx) => claimDue(tx, now, 2, 60, { contained: [big] }),
      (db) => claimDue(db, now, 4, 60, { limits: new Map([[big, 0]]) }),
    );
    expect(first.rows).toHaveLength(2);
    expect(first.more).toBe(true);
    // Each small channel's rows, both claims together: its oldest, with no gap.
    for (const channelId of small) {
      const taken = [...first.rows, ...second.rows].filter((r) => r.channelId === channelId).map((r) => r.id);
      expect(taken.sort(), channelId).toEqual(expected[channelId]!.slice(0, taken.length).sort());
    }
    expect(second.rows).toHaveLength(4);
    await releaseClaims(database.db, [...first.rows, ...second.rows], now);
  });

  /** The ids of a channel's `n` oldest due rows, oldest first. */
  const oldestDue = async (channelId: string, n: number, now: Date) =>
    (
      await sql<{ id: string }>`
        select id from deliveries where channel_id = ${channelId} and status = 'PENDENTE' and next_attempt_at <= ${now}
        order by next_attempt_at limit ${n}
      `.execute(database.db)
    ).rows.map((r) => r.id);

  /** `first` inside a transaction, then `second` on another connection while it is still uncommitted (its locks held). */
  async function sideBySide<A, B>(first: (tx: DB) => Promise<A>, second: (db: DB) => Promise<B>): Promise<[A, B]> {
    const beside = await openDatabase({ databaseUrl: testDb.url, dataDir: 'memory', poolSize: 1, image: await migratedImage() });
    try {
      return await database.db.transaction().execute(async (tx) => {
        const a = await first(tx);
        return [a, await second(beside.db)];
      });
    } finally {
      await beside.close();
    }
  }

  const count = (rows: { channelId: string }[]) =>
    Object.fromEntries(Object.entries(Object.groupBy(rows, (c) => c.channelId)).map(([k, v]) => [k, v!.length]));

  const countDelivered = async () =>
    (await sql<{ n: number }>`select count(*)::int as n from deliveries where status = 'ENTREGUE'`.execute(database.db)).rows[0]!
      .n;
});

// A prepared statement keeps the plan PostgreSQL settled on, for the connection's life: a
// claim first planned while the queue was nearly empty (a new install, the quiet before a
// burst) must still walk the indexes once the table has grown. One "exists" in the claim
// became, planned that way, a sequential scan of every delivery in every claim.
describe('a claim planned while the queue was small', () => {
  let testDb: TestDatabase;
  let database: Database;
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('still goes through the indexes after the table grows', async () => {
    const opened = await openQueue();
    ({ testDb, database } = opened);
    const db = database.db;
    // Nor JIT: it compiles anew at each execution of a plan estimated dear (see database.ts).
    if (usingPostgres()) expect((await sql<{ jit: string }>`show jit`.execute(db)).rows[0]!.jit).toBe('off');
    const channel = await createChannel(opened.deps, { name: 'Pequena' });
    await registerWebhook(opened.deps, channel.canalId, { url: 'http://127.0.0.1:9/hook' });
    const queue = async (n: number, status: 'PENDENTE' | 'ENTREGUE') => {
      await sql`
        insert into events (id, channel_id, link_id, tipo, payload, ocorrido_em)
        select gen_random_uuid(), ${channel.canalId}, null, 'proposta.aprovada', '{"id":"x"}', now() - make_interval(secs => g)
        from generate_series(1, ${n}::int) as g
      `.execute(db);
      await sql`
        insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, criado_em)
        select gen_random_uuid(), e.id, e.channel_id, e.tipo, ${status}, 0,
          case when ${status} = 'PENDENTE' then e.ocorrido_em end, e.ocorrido_em
        from events e where not exists (select 1 from deliveries d where d.event_id = e.id)
      `.execute(db);
    };
    // A first burst, the statistics saying so, and every plan generic from the start
    // (the plan a busy connection ends up with), on the pool's one connection.
    await queue(2_000, 'PENDENTE');
    await sql`analyze`.execute(db);
    await sql`set plan_cache_mode = force_generic_plan`.execute(db);
    const now = () => new Date();
    const small = await claimDue(db, now(), 10, 60);
    await claimDue(db, now(), 10, 60, {
      record: small.rows.map((c) => outcome(c, { ok: true, status: 200, latencyMs: 3 }, now(), [60])),
    });

    // The table grows; its statistics are not refreshed (autovacuum would come later).
    await queue(30_000, 'ENTREGUE');
    await queue(5_000, 'PENDENTE');
    const seqScans = await db.transaction().execute(async (tx) => {
      const before = await scans(tx);
      const claimed = await claimDue(tx, now(), 100, 60);
      expect(claimed.rows).toHaveLength(100);
      await claimDue(tx, now(), 100, 60, {
        record: claimed.rows.map((c) => outcome(c, { ok: true, status: 200, latencyMs: 3 }, now(), [60])),
      });
      const after = await scans(tx);
      return after.map((row, i) => ({ relname: row.relname, seq_scan: row.seq_scan - before[i]!.seq_scan }));
    });
    expect(seqScans).toEqual([
      { relname: 'deliveries', seq_scan: 0 },
      { relname: 'events', seq_scan: 0 },
    ]);
  }, 60_000);
});
