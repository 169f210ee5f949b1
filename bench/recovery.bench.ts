// Bulk recovery (PostgreSQL): POST /v1/webhooks/entregas/reenviar on 100,000 FALHOU
// deliveries of one channel. Measured: the whole recovery and its longest transaction
// (the service requeues in batches, each its own statement), and the latency of the
// query GET /v1/webhooks runs for the channel's health while it goes on. Baseline, in
// the same run and database: the same requeue as one statement (one transaction).
import os from 'node:os';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { endpointHealth } from '../src/webhooks/webhooks.repository.ts';
import { requeueFailed } from '../src/webhooks/deliveries.repository.ts';
import { RECOVERY_BATCH } from '../src/webhooks/deliveries.service.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { channelWithWebhook } from './lib/channel.ts';
import { percentiles, type Percentiles } from './lib/webhooks/noisy.ts';
import type { BenchSuite, SuiteContext, SuitePart, SuiteRow } from './lib/types.ts';

const ROWS = 100_000;
const TARGET = 'longest transaction ≤ 0.1× one statement; health read p99 ≤ 2× the one-statement run';
const PART: SuitePart = {
  id: 'bulk-recovery',
  name: `requeue ${ROWS.toLocaleString('en-US')} FALHOU deliveries`,
  target: TARGET,
};

export const suites: BenchSuite[] = [
  {
    id: 'recovery',
    name: 'Bulk recovery',
    backends: ['postgres'],
    parts: [PART],
    async run(ctx) {
      const result = await measure(ctx);
      return {
        title: `Bulk recovery: ${ROWS.toLocaleString('en-US')} FALHOU deliveries of one channel back to the queue (PostgreSQL on this machine)`,
        rows: [result.row],
        notes: result.notes,
        raw: result.raw,
      };
    },
  },
];

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const pText = (p: Percentiles) => `p50 ${ms(p.p50)} · p99 ${ms(p.p99)} ms`;

async function fill(url: string, channelId: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: 'consigna-bench-fill' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('set synchronous_commit = off');
    await client.query(
      `with e as (
         insert into events (id, channel_id, tipo, payload, ocorrido_em)
         select gen_random_uuid(), $1, 'proposta.aprovada', '{"n":' || g || '}', now() - make_interval(secs => $2::int - g)
         from generate_series(1, $2::int) as g
         returning id, ocorrido_em
       )
       insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, last_http_status, last_error, last_attempt_at, criado_em)
       select gen_random_uuid(), e.id, $1, 'proposta.aprovada', 'FALHOU', 7, 503, 'HTTP 503', e.ocorrido_em, e.ocorrido_em from e`,
      [channelId, ROWS],
    );
    await client.query('vacuum analyze deliveries');
  } finally {
    await client.end();
  }
}

/** The health query of GET /v1/webhooks in a loop until `done`, timed. */
async function probe(database: Database, channelId: string, done: () => boolean): Promise<Percentiles> {
  const times: number[] = [];
  while (!done()) {
    const started = performance.now();
    await endpointHealth(database.db, [channelId]);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return percentiles(times.length > 0 ? times : [0]);
}

async function backToFailed(database: Database, channelId: string): Promise<void> {
  await sql`update deliveries set status = 'FALHOU', tentativas = 7, next_attempt_at = null where channel_id = ${channelId}`.execute(
    database.db,
  );
  await sql`vacuum analyze deliveries`.execute(database.db);
}

async function measure(ctx: SuiteContext): Promise<{ row: SuiteRow; notes: string[]; raw: Record<string, unknown> }> {
  const benchDb = await createBenchDatabase(ctx.adminUrl);
  ctx.log(`recovery: database ${benchDb.name}`);
  const database = await openDatabase({ databaseUrl: benchDb.url, poolSize: 4 });
  try {
    await migrate(database);
    const channel = { canalId: await channelWithWebhook(database, 'Bench recovery') };
    ctx.log(`recovery: filling ${ROWS} FALHOU deliveries…`);
    await fill(benchDb.url, channel.canalId);
    const load = os.loadavg();

    // Baseline: one statement, one transaction.
    ctx.log('recovery: one statement…');
    let finished = false;
    const baselineProbe = probe(database, channel.canalId, () => finished);
    const oneStarted = performance.now();
    const single = await sql<{ n: number }>`
      with r as (
        update deliveries set status = 'PENDENTE', tentativas = 0, next_attempt_at = criado_em, lease_id = null, entregue_em = null
        where channel_id = ${channel.canalId} and status = 'FALHOU' returning 1)
      select count(*)::int as n from r`.execute(database.db);
    const oneMs = performance.now() - oneStarted;
    finished = true;
    const baselineHealth = await baselineProbe;
    await backToFailed(database, channel.canalId);

    // The service's way: batches, each its own statement.
    ctx.log('recovery: in batches…');
    finished = false;
    const batchedProbe = probe(database, channel.canalId, () => finished);
    const batches: number[] = [];
    let total = 0;
    const started = performance.now();
    for (;;) {
      const t = performance.now();
      const n = await requeueFailed(database.db, channel.canalId, {}, RECOVERY_BATCH);
      batches.push(performance.now() - t);
      total += n;
      if (n < RECOVERY_BATCH) break;
    }
    const batchedMs = performance.now() - started;
    finished = true;
    const batchedHealth = await batchedProbe;
    // A repeat requeues nothing.
    const repeat = await requeueFailed(database.db, channel.canalId, {}, RECOVERY_BATCH);

    const longest = Math.max(...batches);
    const ok = single.rows[0]?.n === ROWS && total === ROWS && repeat === 0;
    const row: SuiteRow = {
      part: PART.id,
      name: PART.name,
      figure: `batches of ${RECOVERY_BATCH}: ${ms(batchedMs)} ms in all, longest transaction ${ms(longest)} ms; health read ${pText(batchedHealth)}`,
      baseline: `one statement: ${ms(oneMs)} ms (one transaction); health read ${pText(baselineHealth)}`,
      ratio: longest / oneMs,
      target: TARGET,
      verdicts: {
        'longest ≤ 0.1× one statement': longest <= 0.1 * oneMs,
        'health p99 ≤ 2×': batchedHealth.p99 <= 2 * baselineHealth.p99,
      },
      ...(ok ? {} : { error: `requeued ${single.rows[0]?.n} / ${total} (repeat ${repeat}), expected ${ROWS} / ${ROWS} (0)` }),
    };
    const notes = [
      `${ROWS} FALHOU deliveries of one channel (one event each, a second apart); no worker running, so nothing is sent.`,
      `batched: ${batches.length} statements (${RECOVERY_BATCH} rows each, oldest first, for update skip locked), batch p50 ${ms(percentiles(batches).p50)} ms; a repeat requeued ${repeat}.`,
      `health read: the query GET /v1/webhooks runs for the channel (its PENDENTE and FALHOU counts), every 5 ms while the requeue runs. ratio = longest batched transaction ÷ the one statement.`,
      `load average at start: ${load.map((l) => l.toFixed(2)).join(' ')}`,
    ];
    return { row, notes, raw: { rows: ROWS, oneMs, batchedMs, batches, baselineHealth, batchedHealth, repeat } };
  } finally {
    await database.close();
    await benchDb.drop();
  }
}
