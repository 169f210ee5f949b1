// The queue statements must reach delivery rows through their indexes whatever the
// table's size. The worker prepares them once per connection and PostgreSQL soon
// settles on a generic plan, in which the batch size is unknown: with a history of a
// few tens of thousands of rows, a claim once joined its batch to the whole table by
// a sequential scan and a hash (O(table) per claim: 2.5 times the PostgreSQL CPU per
// delivery in the drain benchmark). A generic plan is forced here, and the table's
// own counter of sequential scans must not move.
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
import { claimDue, outcome, recordResults, releaseClaims } from '../../src/webhooks/delivery/attempts.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

const HISTORY = 10_000;
const scans = async (db: DB) =>
  (
    await sql<{ relname: string; seq_scan: number }>`
      select relname, seq_scan::int from pg_stat_xact_user_tables where relname in ('deliveries', 'events') order by relname
    `.execute(db)
  ).rows;
const PENDING = 20_000;

describe('delivery queue plans', () => {
  let testDb: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase({ databaseUrl: testDb.url, dataDir: 'memory', poolSize: 1 });
    await migrate(database);
    const deps = {
      database,
      keys: deriveKeys(randomBytes(32)),
      clock: systemClock,
      config: { ambiente: 'SANDBOX', allowInsecureWebhooks: true, publicBaseUrl: 'http://127.0.0.1:9' } as Config,
    };
    const channel = await createChannel(deps, { name: 'Plans' });
    await registerWebhook(deps, channel.canalId, { url: 'http://127.0.0.1:9/hook' });
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
        expect(first).toHaveLength(500);
        // The busy path: the next claim carries the previous batch's results.
        const results = first.map((c) => outcome(c, { ok: true, status: 200, latencyMs: 3 }, now, [60]));
        const second = await claimDue(tx, now, 500, 60, { record: results.slice(0, 400) });
        expect(second).toHaveLength(500);
        expect(await recordResults(tx, results.slice(400))).toBe(100);
        expect(await releaseClaims(tx, second, now)).toBe(500);
        const after = await scans(tx);
        return after.map((row, i) => ({ relname: row.relname, seq_scan: row.seq_scan - before[i]!.seq_scan }));
      });
      expect(seqScans).toEqual([
        { relname: 'deliveries', seq_scan: 0 },
        { relname: 'events', seq_scan: 0 },
      ]);
      expect(await countDelivered()).toBe(delivered + 500);
    },
  );

  // A role that may not ANALYZE claims `ordered` (see claimDue): the oldest due rows
  // first, with the planner settings confined to the claim's own transaction.
  it('ordered claims take the oldest due rows first and leave the settings as they were', async () => {
    const claimed = await claimDue(database.db, new Date(), 300, 60, { ordered: true });
    expect(claimed).toHaveLength(300);
    const times = claimed.map((c) => c.eventAt);
    const { rows } = await sql<{ oldest: number; sort: string }>`
      select (extract(epoch from min(next_attempt_at)) * 1000)::float8 as oldest, current_setting('enable_sort') as sort
      from deliveries where status = 'PENDENTE' and lease_id is null
    `.execute(database.db);
    expect(Math.max(...times)).toBeLessThanOrEqual(rows[0]!.oldest);
    expect(rows[0]!.sort).toBe('on');
    expect(await releaseClaims(database.db, claimed, new Date())).toBe(300);
  });

  const countDelivered = async () =>
    (await sql<{ n: number }>`select count(*)::int as n from deliveries where status = 'ENTREGUE'`.execute(database.db)).rows[0]!
      .n;
});
