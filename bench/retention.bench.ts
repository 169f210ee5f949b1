// Retention (PostgreSQL): does pruning a million expired rows raise the API's p99 or
// the claim latency while it runs? One database, one run, three phases of the same
// load, --duration seconds each: A (no pruning), B (the sweeper pruning), A again (no
// pruning, drift control); before each, autovacuum waited out and VACUUM deliveries.
//
// - Rows: a channel "pruned" with EXPIRED_EVENTS events 40 to 59 days old, each with
//   one ENTREGUE delivery and one delivery_attempts row (3 rows an event, 1,000,002 in
//   all), and a channel "live" with 100,000 due PENDENTE deliveries and 5,000 recent
//   delivered events (filled with generate_series, then VACUUM ANALYZE, CHECKPOINT).
// - The API: `node bin/consigna.js api` (child process; HTTP, and the sweeper every
//   role runs, kept idle by CONSIGNA_RETENTION_EVENTS_DAYS=3650) under a fixed rate of
//   the live channel's reads, GET /v1/eventos?limite=20 and GET
//   /v1/webhooks/entregas/{id} in turns; p99 from each request's due time.
// - The claim: claimDue(100) on the live channel every 20 ms in the bench process, each
//   batch given back at once (releaseClaims), so the due set stays 100,000 rows.
// - The pruning: the real `sweepOnce` (src/sweeper/sweeper.ts) in the bench process, with a
//   Context assembled by the service's `openContext` (retention 30 days), started 1 s
//   before phase B's window and still running when it ends (checked).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryId } from 'kysely';
import pg from 'pg';
import { openDatabase, type Database, type DB } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadConfig } from '../src/config/config.ts';
import { openContext } from '../src/server.ts';
import { createLogger } from '../src/observability/logger.ts';
import { createChannel } from '../src/channels/channels.service.ts';
import { registerWebhook } from '../src/webhooks/webhooks.service.ts';
import { claimDue } from '../src/webhooks/delivery/sql/claim-due.ts';
import { releaseClaims } from '../src/webhooks/delivery/sql/release-claims.ts';
import { BATCH, sweepOnce, type SweepResult } from '../src/sweeper/sweeper.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { createContext } from './lib/context.ts';
import { onCleanup } from './lib/cleanup.ts';
import { runPaced, type PacedResult } from './lib/paced.ts';
import { BenchError, freePort, sleep, startService, withoutServiceSettings, type ChildService } from './lib/process.ts';
import { percentiles, type Percentiles } from './lib/webhooks/noisy.ts';
import type { BenchChannel, BenchSuite, LoadSpec, SuiteContext, SuitePart, SuiteRow } from './lib/types.ts';

/** Expired events of the pruned channel: each with one delivery and one attempt, 3 rows. */
const EXPIRED_EVENTS = 333_334;
const EXPIRED_ROWS = EXPIRED_EVENTS * 3;
const LIVE_PENDING = 100_000;
const LIVE_RECENT = 5_000;
/** The sweeper's setting in the bench process; the expired rows are 40 days old or more. */
const RETENTION_DAYS = 30;
const EXPIRED_AGE_DAYS = 40;
/** The API's load: a fixed rate, open loop, on these connections. */
const API_RATE = 300;
const API_CONNECTIONS = 32;
/** Pruning runs this long before phase B's window opens. */
const LEAD_MS = 1000;
const CLAIM_BATCH = 100;
const CLAIM_EVERY_MS = 20;
const MAX_RATIO = 1.2;
const TARGET = `≤ ${MAX_RATIO}× without pruning`;

const PART: SuitePart = {
  id: 'retention-prune',
  name: `API p99 and claimDue(${CLAIM_BATCH}) while ${EXPIRED_ROWS.toLocaleString('en-US')} expired rows are pruned`,
  target: `API p99, claim p50 and p99 ${TARGET}`,
};

export const suites: BenchSuite[] = [
  {
    id: 'retention',
    name: 'Retention',
    backends: ['postgres'],
    parts: [PART],
    async run(ctx) {
      const result = await measure(ctx);
      return {
        title: `Retention: the API and the claim while the sweeper prunes ${EXPIRED_ROWS.toLocaleString('en-US')} expired rows, beside the same without pruning (PostgreSQL on this machine)`,
        rows: result.rows,
        notes: result.notes,
        raw: result.raw,
      };
    },
  },
];

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const int = (v: number) => Math.round(v).toLocaleString('en-US');
const loadText = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');

/** uuidv7-shaped ids from a timestamp (as the service's ids: time-ordered) and a salt. */
const UUID7 = (ts: string, salt: string) =>
  `(lpad(to_hex((extract(epoch from ${ts}) * 1000)::bigint), 12, '0') || '7' || substr(md5(${salt}), 1, 3) || '8' || substr(md5(${salt}), 4, 15))::uuid`;
const PAYLOAD = (id: string, ts: string, n: string) =>
  `format('{"id":"%s","tipo":"proposta.aprovada","ocorridoEm":"%s","ambiente":"SANDBOX","link":{"id":"%s","referenciaExterna":"bench-%s"},"proposta":{"numero":%s,"status":"APROVADA","valor":1500000,"parcelas":24,"valorParcela":78912}}', ${id}, ${ts}, gen_random_uuid(), ${n}, 100000 + ${n})`;

/**
 * One data-modifying statement per channel and kind: `count` events at `step` seconds
 * apart, the newest at `newest`, each with one delivery (ENTREGUE with one attempt
 * row, or PENDENTE due at its creation) created at the event's time, as recordEvent
 * writes them. On its own connection (the fill outlasts the pool's query timeout).
 */
async function fillChannel(
  client: pg.Client,
  channelId: string,
  options: { count: number; newest: Date; stepSeconds: number; delivered: boolean; salt: string },
): Promise<void> {
  const { count, newest, stepSeconds, delivered, salt } = options;
  const ts = '(($2::timestamptz) - make_interval(secs => ($3::int - g) * $4::float8))';
  const eventId = UUID7('ts', `'${salt}e' || g`);
  const attempts = delivered
    ? `insert into delivery_attempts (delivery_id, channel_id, attempt, attempted_at, http_status, latency_ms, response_body)
       select d.id, $1, 1, d.last_attempt_at, 200, 3, '' from d`
    : 'select 1';
  await client.query(
    `with e as (
       insert into events (id, channel_id, link_id, tipo, payload, ocorrido_em)
       select ${eventId}, $1, null, 'proposta.aprovada', ${PAYLOAD(eventId, 'ts', 'g')}, ts
       from generate_series(1, $3::int) as g, lateral (select ${ts} as ts) as t
       returning id, ocorrido_em
     ),
     d as (
       insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, lease_id,
                               last_http_status, last_error, last_latency_ms, last_attempt_at, entregue_em, criado_em)
       select ${UUID7('e.ocorrido_em', `'${salt}d' || e.id`)}, e.id, $1, 'proposta.aprovada',
         ${delivered ? `'ENTREGUE', 1, null, null, 200, null, 3, e.ocorrido_em + interval '1 second', e.ocorrido_em + interval '1 second'` : `'PENDENTE', 0, e.ocorrido_em, null, null, null, null, null, null`},
         e.ocorrido_em
       from e
       returning id, last_attempt_at
     )
     ${attempts}`,
    [channelId, newest, count, stepSeconds],
  );
}

async function fill(url: string, pruned: string, live: string): Promise<{ seconds: number; checkpointed: boolean }> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url, application_name: 'consigna-bench-fill' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    // Setup only, not measured: no need to wait for each fill's WAL flush.
    await client.query('set synchronous_commit = off');
    const now = Date.now();
    const day = 86_400_000;
    // Pruned: 333,334 events 5 s apart, the newest 40 days old (the oldest ~59 days).
    await fillChannel(client, pruned, {
      count: EXPIRED_EVENTS,
      newest: new Date(now - EXPIRED_AGE_DAYS * day),
      stepSeconds: 5,
      delivered: true,
      salt: 'p',
    });
    // Live: 100,000 due PENDENTE deliveries over the last day but one hour, then 5,000
    // delivered events in the last hour (what the API's pages show first).
    await fillChannel(client, live, {
      count: LIVE_PENDING,
      newest: new Date(now - 3_600_000),
      stepSeconds: 0.8,
      delivered: false,
      salt: 'q',
    });
    await fillChannel(client, live, {
      count: LIVE_RECENT,
      newest: new Date(now - 1000),
      stepSeconds: 0.7,
      delivered: true,
      salt: 'r',
    });
    await client.query('vacuum analyze events');
    await client.query('vacuum analyze deliveries');
    await client.query('vacuum analyze delivery_attempts');
    // The fill's WAL would otherwise be checkpointed during a phase. Needs superuser
    // or pg_checkpoint; without, the run goes on (noted).
    const checkpointed = await client.query('checkpoint').then(
      () => true,
      () => false,
    );
    return { seconds: (performance.now() - started) / 1000, checkpointed };
  } finally {
    await client.end();
  }
}

interface Counts {
  events: number;
  deliveries: number;
  pending: number;
  attempts: number;
}

async function counts(db: DB, channelId: string): Promise<Counts> {
  const { rows } = await sql<Counts>`
    select (select count(*) from events where channel_id = ${channelId})::int as events,
           (select count(*) from deliveries where channel_id = ${channelId})::int as deliveries,
           (select count(*) from deliveries where channel_id = ${channelId} and status = 'PENDENTE')::int as pending,
           (select count(*) from delivery_attempts where channel_id = ${channelId})::int as attempts
  `.execute(db);
  return rows[0]!;
}

const countsText = (c: Counts) =>
  `${int(c.events)} events, ${int(c.deliveries)} deliveries (${int(c.pending)} PENDENTE), ${int(c.attempts)} attempts`;

/** Autovacuum and autoanalyze runs so far on the three pruned tables. */
async function autovacuumRuns(db: DB): Promise<{ vacuums: number; analyzes: number }> {
  const { rows } = await sql<{ vacuums: number; analyzes: number }>`
    select coalesce(sum(autovacuum_count), 0)::int as vacuums, coalesce(sum(autoanalyze_count), 0)::int as analyzes
    from pg_stat_user_tables where relname in ('events', 'deliveries', 'delivery_attempts')
  `.execute(db);
  return rows[0]!;
}

async function autovacuumWorkers(db: DB): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'autovacuum worker'
  `.execute(db);
  return rows[0]?.n ?? 0;
}

interface PruneStatement {
  /** performance.now() when it was sent. */
  at: number;
  ms: number;
  events: number;
}

/**
 * Times the sweeper's statements (a Kysely plugin on its database: it sees each query
 * just before it is sent and its result just after). pruneEvents' statement is told
 * apart by its text; sweepOnce itself is untouched.
 */
class StatementTimer implements KyselyPlugin {
  readonly prunes: PruneStatement[] = [];
  others = 0;
  private readonly open = new WeakMap<QueryId, { at: number; prune: boolean }>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs) {
    const text = node.kind === 'RawNode' ? (node as unknown as { sqlFragments: readonly string[] }).sqlFragments.join('?') : '';
    this.open.set(queryId, { at: performance.now(), prune: text.includes('gone_events') });
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs) {
    const started = this.open.get(queryId);
    if (started?.prune) {
      this.prunes.push({ at: started.at, ms: performance.now() - started.at, events: Number(result.rows[0]?.n ?? 0) });
    } else if (started) {
      this.others += 1;
    }
    return result;
  }

  prunedEvents(): number {
    return this.prunes.reduce((sum, p) => sum + p.events, 0);
  }
}

interface Claims {
  times: number[];
  short: number;
}

/** claimDue(100) then releaseClaims, one every CLAIM_EVERY_MS, until `stop`; the claim timed. */
async function claimLoop(db: DB, stop: () => boolean): Promise<Claims> {
  const times: number[] = [];
  let short = 0;
  let next = performance.now();
  while (!stop()) {
    const started = performance.now();
    const claim = await claimDue(db, new Date(), CLAIM_BATCH, 60);
    times.push(performance.now() - started);
    if (claim.rows.length !== CLAIM_BATCH) short += 1;
    await releaseClaims(db, claim.rows, new Date());
    next += CLAIM_EVERY_MS;
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
    else next = performance.now();
  }
  return { times, short };
}

interface Phase {
  label: string;
  /** Waiting for autovacuum and VACUUM deliveries before the phase. */
  settleSeconds: number;
  api: PacedResult;
  claims: Percentiles & { short: number };
  loadStart: number[];
  loadEnd: number[];
  autovacuum: { vacuums: number; analyzes: number };
  /** performance.now() at the window's start and end. */
  startedAt: number;
  endedAt: number;
}

/**
 * Before each phase: autovacuum done (at most 60 s), then VACUUM deliveries. Every claim
 * given back leaves two dead versions of 100 rows whose index entries lie where the next
 * claims start reading; without this, the claim slows from phase to phase (measured:
 * p50 6.5 ms in the first phase, 9.5 ms in the third) whatever the pruning does.
 */
async function settle(db: DB): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 60_000 && (await autovacuumWorkers(db)) > 0) await sleep(500);
  await sql`vacuum deliveries`.execute(db);
  return (performance.now() - started) / 1000;
}

async function runPhase(
  label: string,
  database: Database,
  serviceUrl: string,
  spec: LoadSpec,
  seconds: number,
  settleSeconds: number,
): Promise<Phase> {
  const loadStart = os.loadavg();
  const vacuumBefore = await autovacuumRuns(database.db);
  let stopped = false;
  const startedAt = performance.now();
  const claims = claimLoop(database.db, () => stopped);
  let api: PacedResult;
  try {
    api = await runPaced(spec, { url: serviceUrl, connections: API_CONNECTIONS, duration: seconds, rate: API_RATE });
  } finally {
    stopped = true;
  }
  const claimed = await claims;
  const endedAt = performance.now();
  const vacuumAfter = await autovacuumRuns(database.db);
  return {
    label,
    settleSeconds,
    api,
    claims: { ...percentiles(claimed.times), short: claimed.short },
    loadStart,
    loadEnd: os.loadavg(),
    autovacuum: { vacuums: vacuumAfter.vacuums - vacuumBefore.vacuums, analyzes: vacuumAfter.analyzes - vacuumBefore.analyzes },
    startedAt,
    endedAt,
  };
}

const phaseText = (p: Phase) =>
  `${p.label}: API p50 ${ms(p.api.p50)} · p99 ${ms(p.api.p99)} · max ${ms(p.api.max)} ms (${int(p.api.requests)} requests, generator lag p99 ${ms(p.api.sendLagP99)} ms); ` +
  `claim p50 ${ms(p.claims.p50)} · p99 ${ms(p.claims.p99)} · max ${ms(p.claims.max)} ms (${p.claims.count} claims${p.claims.short > 0 ? `, ${p.claims.short} short` : ''}); ` +
  `load ${loadText(p.loadStart)} → ${loadText(p.loadEnd)}; autovacuum runs ${p.autovacuum.vacuums}, autoanalyze ${p.autovacuum.analyzes}`;

async function measure(ctx: SuiteContext): Promise<{ rows: SuiteRow[]; notes: string[]; raw: Record<string, unknown> }> {
  const loadAtStart = os.loadavg();
  // Seconds measured per phase: --duration (the pruning must outlast B's window: checked).
  const seconds = ctx.duration;
  const benchDb = await createBenchDatabase(ctx.adminUrl);
  ctx.log(`database ${benchDb.name}`);
  const database = await openDatabase({ databaseUrl: benchDb.url, poolSize: 4 }).catch(async (error: unknown) => {
    await benchDb.drop();
    throw error;
  });
  const closeDatabase = onCleanup(`close the bench connections to ${benchDb.name}`, () => database.close());
  let service: ChildService | undefined;
  let release: (() => Promise<void>) | undefined;
  try {
    await migrate(database);
    const masterKey = randomBytes(32).toString('hex');
    // The sweeper's Context, assembled as the service assembles its own (openContext),
    // on the bench's database with its statements timed.
    const timer = new StatementTimer();
    const config = loadConfig(
      {
        DATABASE_URL: benchDb.url,
        CONSIGNA_MASTER_KEY: masterKey,
        CONSIGNA_RETENTION_EVENTS_DAYS: String(RETENTION_DAYS),
        CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
        LOG_LEVEL: 'warn',
      },
      ctx.root,
    );
    const sweeperCtx = await openContext(config, {
      database: { ...database, db: database.db.withPlugin(timer) },
      log: createLogger('warn'),
    });
    release = () => sweeperCtx.release();

    const pruned = await createChannel(sweeperCtx, { name: 'Retention pruned' });
    await registerWebhook(sweeperCtx, pruned.canalId, { url: 'http://127.0.0.1:9/pruned' });
    const live = await createChannel(sweeperCtx, { name: 'Retention live' });
    await registerWebhook(sweeperCtx, live.canalId, { url: 'http://127.0.0.1:9/live' });

    ctx.log(
      `filling ${int(EXPIRED_EVENTS)} expired events × (event, delivery, attempt) = ${int(EXPIRED_ROWS)} rows, ` +
        `${int(LIVE_PENDING)} due PENDENTE and ${int(LIVE_RECENT)} recent delivered events…`,
    );
    const filled = await fill(benchDb.url, pruned.canalId, live.canalId);
    const prunedBefore = await counts(database.db, pruned.canalId);
    const liveBefore = await counts(database.db, live.canalId);
    if (prunedBefore.events + prunedBefore.deliveries + prunedBefore.attempts !== EXPIRED_ROWS) {
      throw new BenchError(
        `the fill left ${countsText(prunedBefore)} in the pruned channel, expected ${int(EXPIRED_EVENTS)} of each`,
      );
    }

    // The API: `consigna api` runs the HTTP API and the sweeper (every role does); its
    // sweeper is kept idle with a retention no row reaches.
    const port = await freePort();
    const env = withoutServiceSettings(ctx.env);
    Object.assign(env, {
      DATABASE_URL: benchDb.url,
      CONSIGNA_MASTER_KEY: masterKey,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      CONSIGNA_RETENTION_EVENTS_DAYS: '3650',
      // One channel sends all the load (as in the HTTP tables).
      CONSIGNA_RATE_LIMIT_API: ctx.env.CONSIGNA_RATE_LIMIT_API ?? '0/60',
    });
    ctx.log('starting consigna api…');
    service = await startService({
      label: 'consigna api (retention)',
      args: ['bin/consigna.js', 'api'],
      cwd: ctx.root,
      env,
      port,
    });
    const channel: BenchChannel = { canalId: live.canalId, clientId: live.clientId, clientSecret: live.clientSecret };
    const api = createContext(service.url, 'postgres', channel);
    const token = await api.accessToken();
    const headers = { authorization: `Bearer ${token}` };
    // The reads: the newest page of events, and one delivery with its attempts (the
    // live channel's delivered ones, in turns): the three tables the pruning deletes from.
    // Not GET /v1/webhooks/entregas: on a channel this size its plan reads the whole
    // channel (see bench/README.md, Retention), which would be measured instead.
    const { rows: delivered } = await sql<{ id: string }>`
      select id from deliveries where channel_id = ${live.canalId} and status = 'ENTREGUE' order by criado_em desc
    `.execute(database.db);
    const deliveryIds = delivered.map((d) => d.id);
    const eventsPath = '/v1/eventos?limite=20';
    const deliveryPath = (id: string) => `/v1/webhooks/entregas/${id}`;
    const page = await api.http('GET', eventsPath, { headers });
    if (page.status !== 200 || (page.body as { eventos?: unknown[] }).eventos?.length !== 20) {
      throw new BenchError(`GET ${eventsPath} answered ${page.status}: ${JSON.stringify(page.body).slice(0, 300)}`);
    }
    const one = await api.http('GET', deliveryPath(deliveryIds[0] ?? ''), { headers });
    if (one.status !== 200 || (one.body as { historico?: unknown[] }).historico?.length !== 1) {
      throw new BenchError(
        `GET ${deliveryPath(deliveryIds[0] ?? '')} answered ${one.status}: ${JSON.stringify(one.body).slice(0, 300)}`,
      );
    }
    let nextDelivery = 0;
    const spec: LoadSpec = {
      method: 'GET',
      headers,
      requests: [
        { path: eventsPath },
        {
          setupRequest(req) {
            return { ...req, path: deliveryPath(deliveryIds[nextDelivery++ % deliveryIds.length]!) };
          },
        },
      ],
      expectStatus: [200],
    };

    if (ctx.warmup > 0) {
      ctx.log(`warm-up: ${ctx.warmup} s of the same load…`);
      await runPhase('warm-up', database, service.url, spec, ctx.warmup, 0);
    }
    ctx.log(`phase A (no pruning): ${seconds} s at ${API_RATE} req/s and a claim every ${CLAIM_EVERY_MS} ms…`);
    const before = await runPhase('A, before', database, service.url, spec, seconds, await settle(database.db));

    // Phase B: the sweeper's round, started LEAD_MS before the window. The service's
    // own sweeper may hold the lock for a moment (a round that finds nothing): retry.
    ctx.log('phase B: starting sweepOnce…');
    const settledB = await settle(database.db);
    let sweep: Promise<SweepResult> | undefined;
    let sweepStartedAt = 0;
    let skippedRounds = 0;
    for (let tries = 0; tries < 50 && !sweep; tries++) {
      sweepStartedAt = performance.now();
      const round = sweepOnce(sweeperCtx);
      const first = await Promise.race([round, sleep(LEAD_MS).then(() => undefined)]);
      if (first?.skipped) {
        skippedRounds += 1;
        await sleep(100);
      } else if (first) {
        throw new BenchError(`sweepOnce ended within ${LEAD_MS} ms (${JSON.stringify(first)}): nothing to measure`);
      } else {
        sweep = round;
      }
    }
    if (!sweep) throw new BenchError('sweepOnce could not take the sweeper lock (another sweeper holds it)');
    let sweepEndedAt = 0;
    let sweepDone = false;
    const sweepOutcome = sweep.then(
      (result) => {
        sweepEndedAt = performance.now();
        sweepDone = true;
        return result;
      },
      (error: unknown) => {
        sweepEndedAt = performance.now();
        sweepDone = true;
        throw error;
      },
    );
    sweepOutcome.catch(() => undefined);
    const prunesBeforeWindow = timer.prunes.length;
    ctx.log(`phase B (pruning, ${prunesBeforeWindow} statements so far): ${seconds} s…`);
    const during = await runPhase('B, pruning', database, service.url, spec, seconds, settledB);
    const prunedInWindow = timer.prunedEvents();
    const doneBeforeWindowEnd = sweepDone && sweepEndedAt <= during.endedAt;
    const remainingAtWindowEnd = await counts(database.db, pruned.canalId);
    ctx.log(`phase B window over, ${countsText(remainingAtWindowEnd)} left in the pruned channel; waiting for the sweep to end…`);
    const result = await sweepOutcome;

    const prunedAfter = await counts(database.db, pruned.canalId);
    const liveAfter = await counts(database.db, live.canalId);

    ctx.log('phase A again (no pruning)…');
    const after = await runPhase('A, after', database, service.url, spec, seconds, await settle(database.db));

    // What the pruning did.
    const prunes = timer.prunes;
    const batch = percentiles(prunes.map((p) => p.ms));
    const first = prunes[0];
    const last = prunes.at(-1);
    const pruneMs = first && last ? last.at + last.ms - first.at : 0;
    const busyMs = prunes.reduce((sum, p) => sum + p.ms, 0);
    const inWindow = prunes.filter((p) => p.at >= during.startedAt && p.at < during.endedAt);
    const rowsPerSecond = pruneMs > 0 ? (EXPIRED_ROWS / pruneMs) * 1000 : 0;

    const problems: string[] = [];
    if (doneBeforeWindowEnd) {
      problems.push(
        `the pruning ended ${ms((during.endedAt - sweepEndedAt) / 1000)} s before phase B's window did: too few rows for a ${seconds} s window`,
      );
    }
    if (prunesBeforeWindow === 0) problems.push('no prune statement had run when phase B began');
    if (result.prunedEvents !== EXPIRED_EVENTS) {
      problems.push(`sweepOnce pruned ${int(result.prunedEvents)} events, expected ${int(EXPIRED_EVENTS)}`);
    }
    if (prunedAfter.events + prunedAfter.deliveries + prunedAfter.attempts !== 0) {
      problems.push(`left in the pruned channel: ${countsText(prunedAfter)}`);
    }
    if (JSON.stringify(liveAfter) !== JSON.stringify(liveBefore)) {
      problems.push(`the live channel changed: ${countsText(liveBefore)} before, ${countsText(liveAfter)} after`);
    }
    for (const phase of [before, during, after]) {
      if (phase.api.failures > 0) {
        problems.push(
          `${phase.label}: ${phase.api.failures} failed requests (${JSON.stringify(phase.api.statusCodes)}${phase.api.firstError ? `, ${phase.api.firstError}` : ''})`,
        );
      }
      if (phase.claims.short > 0)
        problems.push(`${phase.label}: ${phase.claims.short} claims returned fewer than ${CLAIM_BATCH} rows`);
    }
    const error = problems.length > 0 ? { error: problems.join('; ') } : {};

    // Baseline: the mean of the two phases without pruning, one before and one after.
    const mean = (a: number, b: number) => (a + b) / 2;
    const apiBase = mean(before.api.p99, after.api.p99);
    const claimBase50 = mean(before.claims.p50, after.claims.p50);
    const claimBase99 = mean(before.claims.p99, after.claims.p99);
    const apiRatio = during.api.p99 / apiBase;
    const claimRatio50 = during.claims.p50 / claimBase50;
    const claimRatio99 = during.claims.p99 / claimBase99;
    const rows: SuiteRow[] = [
      {
        part: PART.id,
        name: `API p99 while pruning (${API_RATE} req/s)`,
        figure: `p99 ${ms(during.api.p99)} ms (p50 ${ms(during.api.p50)})`,
        baseline: `no pruning: p99 ${ms(before.api.p99)} before, ${ms(after.api.p99)} after (p50 ${ms(before.api.p50)}, ${ms(after.api.p50)})`,
        ratio: apiRatio,
        target: `p99 ${TARGET}`,
        verdicts: { [`p99 ${apiRatio.toFixed(2)}×`]: apiRatio <= MAX_RATIO },
        ...error,
      },
      {
        part: PART.id,
        name: `claimDue(${CLAIM_BATCH}) while pruning`,
        figure: `p50 ${ms(during.claims.p50)} · p99 ${ms(during.claims.p99)} ms`,
        baseline: `no pruning: p50 ${ms(before.claims.p50)}, ${ms(after.claims.p50)} · p99 ${ms(before.claims.p99)}, ${ms(after.claims.p99)} ms (before, after)`,
        ratio: claimRatio99,
        target: `p50, p99 ${TARGET}`,
        verdicts: {
          [`p50 ${claimRatio50.toFixed(2)}×`]: claimRatio50 <= MAX_RATIO,
          [`p99 ${claimRatio99.toFixed(2)}×`]: claimRatio99 <= MAX_RATIO,
        },
        ...error,
      },
    ];
    // How far apart the two baselines are: the noise floor of this run.
    const spread = (x: number, y: number) => Math.max(x, y) / Math.min(x, y);
    const spreads: Array<[string, number]> = [
      ['API p99', spread(before.api.p99, after.api.p99)],
      ['claim p50', spread(before.claims.p50, after.claims.p50)],
      ['claim p99', spread(before.claims.p99, after.claims.p99)],
    ];
    const passed = Object.keys(ctx.env)
      .filter((name) => name.startsWith('CONSIGNA_'))
      .sort();
    const notes = [
      `rows: pruned channel ${countsText(prunedBefore)} = ${int(EXPIRED_ROWS)} rows, ${EXPIRED_AGE_DAYS}–${Math.floor(EXPIRED_AGE_DAYS + (EXPIRED_EVENTS * 5) / 86_400)} days old (ENTREGUE, one attempt each); ` +
        `live channel ${countsText(liveBefore)}; filled in ${filled.seconds.toFixed(1)} s (generate_series, synchronous_commit off), VACUUM ANALYZE${filled.checkpointed ? ', CHECKPOINT' : ' (CHECKPOINT not permitted)'}.`,
      `phases, same database, same service, ${seconds} s each after ${ctx.warmup} s of warm-up: A (no pruning), B (pruning), A again (after the pruning). Before each: autovacuum done (≤ 60 s) and VACUUM deliveries (the claims' own dead rows; waited ${[before, during, after].map((p) => p.settleSeconds.toFixed(1)).join(', ')} s). Baseline = mean of the two A figures; ratio = B ÷ baseline (API: p99; claim: p99, p50 in the verdict).`,
      `API: node bin/consigna.js api (child process; its own sweeper idle: CONSIGNA_RETENTION_EVENTS_DAYS=3650), ${API_RATE} req/s fixed rate over ${API_CONNECTIONS} connections, GET /v1/eventos?limite=20 and GET /v1/webhooks/entregas/{id} (one of the live channel's ${int(LIVE_RECENT)} delivered, with its attempt; next one each time) in turns, latency from each request's due time.` +
        (passed.length > 0 ? ` Passed through: ${passed.join(', ')}.` : ''),
      `claim: claimDue(db, now, ${CLAIM_BATCH}, 60) every ${CLAIM_EVERY_MS} ms in the bench process (pool of 4), each batch given back with releaseClaims (due set constant at ${int(LIVE_PENDING)}); only the claim is timed.`,
      `pruning: the real sweepOnce (src/sweeper/sweeper.ts) in the bench process, Context from openContext (CONSIGNA_RETENTION_EVENTS_DAYS=${RETENTION_DAYS}), batch ${BATCH}, pause after each batch three times as long as it took (src/sweeper/sweeper.ts PAUSE_FACTOR); started ${LEAD_MS} ms before B's window` +
        (skippedRounds > 0 ? ` (${skippedRounds} rounds skipped first: the service's sweeper held the lock)` : '') +
        `; ${int(result.prunedEvents)} events pruned = ${int(result.prunedEvents * 3)} rows in ${prunes.length} pruneEvents statements (${timer.others} other statements in the round), ` +
        `${ms(pruneMs / 1000)} s from the first to the last (${int(rowsPerSecond)} rows/s, statements busy ${((busyMs / Math.max(pruneMs, 1)) * 100).toFixed(0)} % of it; whole round ${ms((sweepEndedAt - sweepStartedAt) / 1000)} s).`,
      `  batch (one statement, up to ${BATCH} events with their deliveries and attempts): p50 ${ms(batch.p50)} · p99 ${ms(batch.p99)} · max ${ms(batch.max)} ms; ` +
        `in B's window ${inWindow.length} statements, ${int(inWindow.reduce((s, p) => s + p.events, 0) * 3)} rows; ` +
        `at the window's end ${int(prunedInWindow * 3)} rows pruned so far, left ${countsText(remainingAtWindowEnd)} (${int(remainingAtWindowEnd.events + remainingAtWindowEnd.deliveries + remainingAtWindowEnd.attempts)} rows): ` +
        (doneBeforeWindowEnd ? 'the pruning had ENDED before the window did.' : 'still pruning when the window ended.'),
      `after: pruned channel ${countsText(prunedAfter)}; live channel ${countsText(liveAfter)} (${JSON.stringify(liveAfter) === JSON.stringify(liveBefore) ? 'unchanged' : 'CHANGED'}).`,
      ...[before, during, after].map((p) => `  ${phaseText(p)}`),
      `the two phases without pruning differ by ${spreads.map(([what, x]) => `${what} ${x.toFixed(2)}×`).join(', ')}` +
        (spreads.some(([, x]) => x > MAX_RATIO)
          ? ` — more than the ${Math.round((MAX_RATIO - 1) * 100)} % judged: the verdicts measure this machine's noise as much as the pruning; run again on a quiet machine.`
          : ` (within the ${Math.round((MAX_RATIO - 1) * 100)} % judged).`),
      `load average at start: ${loadText(loadAtStart)}; at the end: ${loadText(os.loadavg())}.`,
    ];
    return {
      rows,
      notes,
      raw: {
        expiredEvents: EXPIRED_EVENTS,
        expiredRows: EXPIRED_ROWS,
        livePending: LIVE_PENDING,
        liveRecent: LIVE_RECENT,
        apiRate: API_RATE,
        windowSeconds: seconds,
        fill: filled,
        prunedBefore,
        liveBefore,
        prunedAfter,
        liveAfter,
        remainingAtWindowEnd,
        sweep: result,
        skippedRounds,
        pruneMs,
        busyMs,
        batchMs: prunes.map((p) => Number(p.ms.toFixed(3))),
        phases: [before, during, after],
        doneBeforeWindowEnd,
      },
    };
  } finally {
    await service?.stop();
    await release?.();
    await closeDatabase();
    await benchDb.drop();
  }
}
