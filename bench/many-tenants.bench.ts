// Many tenants (PostgreSQL): do ten endpoints that start hanging at once stall two
// hundred healthy channels?
//
// 200 healthy channels, each with its own webhook path on one receiver (204 at once),
// get 0.5 events/s each (100/s in all) for --duration seconds, written by the outbox's
// own recordEvent in ten transactions a second. Beside them, 10 channels whose endpoints
// (one process and port each) accept the request and never answer get 500 events each,
// queued in the same moment the healthy events start. Latency runs from an event's
// commit to its arrival. "Alone" is the same without the backlog. The phases alternate
// (alone, beside, alone, beside), each on a fresh database with fresh processes, and
// the ratio is over the pooled phases, so neither phase order nor the machine's load at
// one moment decides it. With one worker (`consigna serve`) and with two
// (`consigna api` + 2 × `consigna worker`).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { deriveKeys } from '../src/crypto/keys.ts';
import { systemClock } from '../src/clock.ts';
import type { Config } from '../src/config/config.ts';
import { createChannel } from '../src/channels/channels.service.ts';
import { registerWebhook } from '../src/webhooks/webhooks.service.ts';
import { proposalEvent } from '../src/events/event-body.ts';
import { DELIVERIES_CHANNEL, recordEvent } from '../src/events/outbox.ts';
import { onCleanup } from './lib/cleanup.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { BenchError, freePort, sleep, withoutServiceSettings, type ChildService } from './lib/process.ts';
import type { BenchSuite, SuiteContext, SuitePart, SuiteRow } from './lib/types.ts';
import { receiverArrivals, receiverCount, resetReceiver } from './lib/webhooks/receiver-client.ts';
import {
  badCount,
  insertProposals,
  paced,
  percentiles,
  startBadReceiver,
  startDeployment,
  startGoodReceiver,
  wallNow,
  type Deployment,
  type Percentiles,
  type TopologyId,
} from './lib/webhooks/noisy.ts';

const HEALTHY = 200;
const RATE_PER_CHANNEL = 0.5;
const HANGING = 10;
const BACKLOG = 500;
const GRACE_SECONDS = 30;
/** The healthy events are written in this many transactions a second. */
const TICKS_PER_SECOND = 10;
const MAX_P95_RATIO = 2;
/** Each phase runs this many times, alternating. */
const ROUNDS = 2;

const TOPOLOGIES: Array<{ id: TopologyId; part: string; label: string }> = [
  { id: 'one-worker', part: 'many-tenants-1', label: '1 worker' },
  { id: 'two-workers', part: 'many-tenants-2', label: '2 workers' },
];
const TARGET = `all healthy arrive; p95 ≤ ${MAX_P95_RATIO}× alone`;
const PARTS: SuitePart[] = TOPOLOGIES.map((t) => ({
  id: t.part,
  name: `${HEALTHY} healthy channels beside ${HANGING} hanging ones, ${t.label}`,
  target: TARGET,
}));

export const suites: BenchSuite[] = [
  { id: 'many-tenants', name: 'Many tenants', backends: ['postgres'], parts: PARTS, run: runManyTenants },
];

interface Phase {
  beside: boolean;
  sent: number;
  /** Every sent event's latency (ms); never arrived = Infinity. */
  latencies: number[];
  setupSeconds: number;
  /** Requests the hanging endpoints received, and the most open at once on one of them. */
  hanging?: { requests: number; peakOpen: number };
  /** The worker's own slot figures at the end of the phase (from /metrics), when it has them. */
  slots?: string;
}

const msText = (v: number) =>
  v === Number.POSITIVE_INFINITY
    ? `> ${GRACE_SECONDS} s`
    : v >= 1000
      ? `${(v / 1000).toFixed(1)} s`
      : `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ms`;
const latencyText = (p: Percentiles) => `p50 ${msText(p.p50)} · p95 ${msText(p.p95)} · p99 ${msText(p.p99)}`;

async function createChannels(database: Database, masterKey: Buffer, count: number, prefix: string) {
  const config = { ambiente: 'SANDBOX', allowInsecureWebhooks: true, publicBaseUrl: 'http://127.0.0.1:9' } as Config;
  const deps = { database, keys: deriveKeys(masterKey), clock: systemClock, config };
  const made = [];
  // A few at a time: the secret hash is the cost, and it runs off the main thread.
  for (let i = 0; i < count; i += 16) {
    const batch = Array.from({ length: Math.min(16, count - i) }, (_, j) =>
      createChannel(deps, { name: `${prefix} ${i + j + 1}` }),
    );
    made.push(...(await Promise.all(batch)));
  }
  return { deps, channels: made };
}

async function measure(
  ctx: SuiteContext,
  topology: (typeof TOPOLOGIES)[number],
  beside: boolean,
  receiver: ChildService,
): Promise<Phase> {
  const started = performance.now();
  const what = `${topology.label}, ${beside ? 'beside the hanging endpoints' : 'alone'}`;
  const perChannel = Math.ceil(RATE_PER_CHANNEL * (ctx.duration + ctx.warmup)) + 1;
  const benchDb = await createBenchDatabase(ctx.adminUrl);
  const database = await openDatabase({ databaseUrl: benchDb.url, poolSize: 32 }).catch(async (error: unknown) => {
    await benchDb.drop();
    throw error;
  });
  const closeDatabase = onCleanup(`close the bench connections to ${benchDb.name}`, () => database.close());
  const hangingReceivers: ChildService[] = [];
  let deployment: Deployment | undefined;
  try {
    ctx.log(`${what}: database ${benchDb.name}, ${HEALTHY + HANGING} channels…`);
    await migrate(database);
    const masterKey = randomBytes(32);
    const { deps, channels: healthy } = await createChannels(database, masterKey, HEALTHY, 'Saudável');
    const { channels: hanging } = await createChannels(database, masterKey, HANGING, 'Pendurado');
    for (const [i, c] of healthy.entries()) await registerWebhook(deps, c.canalId, { url: `${receiver.url}/h${i}` });
    const hangingPorts = await Promise.all(hanging.map(() => freePort()));
    for (const [i, c] of hanging.entries())
      await registerWebhook(deps, c.canalId, { url: `http://127.0.0.1:${hangingPorts[i]}/hang` });
    const links = await Promise.all(healthy.map((c, i) => insertProposals(database, c.canalId, perChannel, `h${i}`)));
    const backlogLinks = beside
      ? await Promise.all(hanging.map((c, i) => insertProposals(database, c.canalId, BACKLOG, `x${i}`)))
      : [];

    const env = withoutServiceSettings(ctx.env);
    Object.assign(env, {
      DATABASE_URL: benchDb.url,
      CONSIGNA_MASTER_KEY: masterKey.toString('hex'),
      CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    });
    deployment = await startDeployment(ctx, topology.id, env);
    if (beside) {
      hangingReceivers.push(...(await Promise.all(hangingPorts.map((port) => startBadReceiver(ctx, 'hang', port, 0)))));
    }
    const setupSeconds = (performance.now() - started) / 1000;

    // Ten ticks a second, each committing the events due in it (one per channel, in turns):
    // the harness writes ten transactions a second, not a hundred, so that its own load
    // on a busy machine does not decide the figures.
    const committedAt = new Map<string, number>();
    const perTick = (HEALTHY * RATE_PER_CHANNEL) / TICKS_PER_SECOND;
    const fire = (measured: boolean) => async (tick: number) => {
      const events = Array.from({ length: perTick }, (_, k) => {
        const n = tick * perTick + k;
        const channel = n % HEALTHY;
        const link = links[channel]![Math.floor(n / HEALTHY) % perChannel]!;
        const body = proposalEvent({
          tipo: 'proposta.formalizada',
          at: new Date(),
          ambiente: 'SANDBOX',
          link: { id: link, referenciaExterna: null },
          proposta: { numero: 1_000_000 + n, status: 'FORMALIZADA', valor: 1_500_000, parcelas: 24, valorParcela: 78_912 },
        });
        return { channelId: healthy[channel]!.canalId, body };
      });
      await database.db.transaction().execute(async (tx) => {
        for (const e of events) await recordEvent(tx, e.channelId, e.body);
      });
      const at = wallNow();
      if (measured) for (const e of events) committedAt.set(e.body.id, at);
    };
    const rate = HEALTHY * RATE_PER_CHANNEL;
    await resetReceiver(receiver.url);
    if (ctx.warmup > 0) {
      ctx.log(`${what}: warm-up, ${ctx.warmup} s…`);
      await paced(TICKS_PER_SECOND, Math.round(TICKS_PER_SECOND * ctx.warmup), fire(false));
      await sleep(500);
    }
    await resetReceiver(receiver.url);
    ctx.log(`${what}: ${Math.round(rate * ctx.duration)} healthy events at ${rate}/s (${ctx.duration} s)…`);
    // The backlog's commit and the healthy traffic start together.
    const backlog = beside
      ? queueBacklogs(
          database,
          hanging.map((c, i) => ({ channelId: c.canalId, links: backlogLinks[i]! })),
        )
      : Promise.resolve();
    const generator = await paced(TICKS_PER_SECOND, Math.round(TICKS_PER_SECOND * ctx.duration), fire(true));
    await backlog;
    if (generator.errors > 0) throw new BenchError(`${generator.errors} events could not be written (${generator.firstError})`);
    const deadline = generator.lastStartedAt + GRACE_SECONDS * 1000;
    while (wallNow() < deadline && (await receiverCount(receiver.url)).count < committedAt.size) await sleep(100);
    const arrivals = await receiverArrivals(receiver.url);
    const arrivedAt = new Map<string, number>();
    arrivals.ids.forEach((id, i) => {
      if (!arrivedAt.has(id) && arrivals.at[i]! <= deadline) arrivedAt.set(id, arrivals.at[i]!);
    });
    const latencies = [...committedAt].map(([id, at]) => {
      const arrived = arrivedAt.get(id);
      return arrived === undefined ? Number.POSITIVE_INFINITY : Math.max(0, arrived - at);
    });
    let hangingFigures: Phase['hanging'];
    if (beside) {
      const counts = await Promise.all(hangingReceivers.map((r) => badCount(r.url)));
      hangingFigures = {
        requests: counts.reduce((n, c) => n + c.requests, 0),
        peakOpen: Math.max(...counts.map((c) => c.peakOpen)),
      };
    }
    const slots = await slotFigures(deployment.apiUrl);
    return {
      beside,
      sent: committedAt.size,
      latencies,
      setupSeconds,
      ...(hangingFigures ? { hanging: hangingFigures } : {}),
      ...(slots ? { slots } : {}),
    };
  } finally {
    await Promise.all(hangingReceivers.map((r) => r.stop()));
    await deployment?.stop();
    await closeDatabase();
    await benchDb.drop();
  }
}

/**
 * Every hanging channel's backlog in one transaction of two statements, so that it
 * commits at once (recordEvent's rows, written in bulk) and takes one connection.
 */
async function queueBacklogs(database: Database, backlogs: Array<{ channelId: string; links: string[] }>): Promise<void> {
  const at = new Date();
  const events = backlogs.flatMap(({ channelId, links }) =>
    links.map((link, i) => ({
      channelId,
      body: proposalEvent({
        tipo: 'proposta.formalizada',
        at,
        ambiente: 'SANDBOX',
        link: { id: link, referenciaExterna: null },
        proposta: { numero: 2_000_000 + i, status: 'FORMALIZADA', valor: 1_500_000, parcelas: 24, valorParcela: 78_912 },
      }),
    })),
  );
  await database.db.transaction().execute(async (tx) => {
    await sql`
      insert into events (id, channel_id, link_id, tipo, payload, ocorrido_em)
      select id, channel_id, link_id, 'proposta.formalizada', payload, ${at}
      from unnest(${events.map((e) => e.body.id)}::uuid[], ${events.map((e) => e.channelId)}::uuid[],
                  ${events.map((e) => e.body.link!.id)}::uuid[], ${events.map((e) => JSON.stringify(e.body))}::text[])
        as t(id, channel_id, link_id, payload)
    `.execute(tx);
    await sql`
      insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, criado_em)
      select ${sql.raw('gen_random_uuid()')}, e.id, e.channel_id, e.tipo, 'PENDENTE', 0, ${at}, ${at}
      from events e where e.id = any(${events.map((e) => e.body.id)}::uuid[])
    `.execute(tx);
    await sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(tx);
  });
}

/** The delivery pool's series from the API's /metrics (only `consigna serve` has the worker's own). */
async function slotFigures(apiUrl: string): Promise<string | undefined> {
  try {
    const text = await (await fetch(`${apiUrl}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
    const lines = text.split('\n').filter((l) => /^consigna_webhook_(slots|requests_slow|slow)/.test(l));
    return lines.length > 0 ? lines.join('; ') : undefined;
  } catch {
    return undefined;
  }
}

async function runManyTenants(ctx: SuiteContext, parts: SuitePart[]) {
  const topologies = TOPOLOGIES.filter((t) => parts.some((p) => p.id === t.part));
  const rows: SuiteRow[] = [];
  const notes: string[] = [];
  const raw: Record<string, unknown> = { loadAverageAtStart: os.loadavg(), rounds: ROUNDS };
  const receiver = await startGoodReceiver(ctx);
  try {
    for (const topology of topologies) {
      const phases: Phase[] = [];
      let error: string | undefined;
      for (let round = 0; round < ROUNDS && !error; round++) {
        for (const beside of [false, true]) {
          try {
            const phase = await measure(ctx, topology, beside, receiver);
            phases.push(phase);
            const p = percentiles(phase.latencies);
            const arrived = phase.latencies.filter(Number.isFinite).length;
            notes.push(
              `  ${topology.label}, round ${round + 1}, ${beside ? 'beside' : 'alone'}: ${arrived}/${phase.sent} arrived, ${latencyText(p)}, max ${msText(p.max)}` +
                (phase.hanging
                  ? `; hanging endpoints got ${phase.hanging.requests} requests, at most ${phase.hanging.peakOpen} open on one`
                  : '') +
                (phase.slots ? `; ${phase.slots}` : '') +
                `; setup ${phase.setupSeconds.toFixed(0)} s`,
            );
          } catch (e) {
            error = e instanceof BenchError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e);
            ctx.log(`${topology.label}: ${error}`);
            break;
          }
        }
      }
      raw[topology.id] = phases.map((p) => ({ ...p, latency: percentiles(p.latencies), latencies: undefined }));
      rows.push(row(topology, phases, error));
    }
  } finally {
    await receiver.stop();
  }
  raw.loadAverageAtEnd = os.loadavg();
  return {
    title: `Many tenants: ${HEALTHY} healthy channels at ${RATE_PER_CHANNEL} events/s each beside ${HANGING} endpoints that start hanging with ${BACKLOG} events each`,
    rows,
    notes: [
      `Healthy: ${HEALTHY} channels, ${HEALTHY * RATE_PER_CHANNEL} events/s in all, written by recordEvent in ten transactions a second; latency from its commit to its arrival at the receiver. ` +
        `An event not arrived ${GRACE_SECONDS} s after the last was sent never arrived.`,
      `Hanging: ${HANGING} channels, each endpoint its own process and port that reads the request and never answers; ${BACKLOG} events each, committed as the healthy traffic starts.`,
      `Phases alternate, alone then beside, ${ROUNDS} times, each on a fresh database and processes at the service's defaults; the ratio is p95 of all beside events ÷ p95 of all alone events.`,
      ...notes,
    ],
    raw,
  };
}

function row(topology: (typeof TOPOLOGIES)[number], phases: Phase[], error: string | undefined): SuiteRow {
  const pool = (beside: boolean) => phases.filter((p) => p.beside === beside).flatMap((p) => p.latencies);
  const alone = percentiles(pool(false));
  const beside = percentiles(pool(true));
  const besideValues = pool(true);
  const arrived = besideValues.filter(Number.isFinite).length;
  const ratio = alone.count > 0 && beside.count > 0 ? beside.p95 / alone.p95 : undefined;
  return {
    part: topology.part,
    name: `${HEALTHY} healthy beside ${HANGING} hanging, ${topology.label}`,
    target: TARGET,
    figure: beside.count > 0 ? `${latencyText(beside)}; ${arrived}/${besideValues.length} arrived` : '–',
    baseline: alone.count > 0 ? `alone: ${latencyText(alone)}` : 'alone: –',
    ratio: ratio !== undefined && Number.isFinite(ratio) ? ratio : undefined,
    verdicts: {
      'all arrive': besideValues.length > 0 && arrived === besideValues.length,
      [`p95 ≤ ${MAX_P95_RATIO}×`]: ratio !== undefined && ratio <= MAX_P95_RATIO,
    },
    ...(error ? { error } : {}),
  };
}
