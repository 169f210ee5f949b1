// Noisy neighbour (PostgreSQL, default durability), one table: does one channel's
// bad endpoint delay another channel's webhooks?
//
// Two channels on one fresh database, each with its own webhook and receiver
// process. Channel A gets a backlog of 2,000 events to a bad endpoint, one variant
// per run: it never answers, it answers 200 after 9 s, or it answers 503 at once.
// Right after that backlog is queued, channel B, whose receiver answers at once,
// gets a steady 20 events/s for --duration seconds through
// POST /v1/links/{id}/proposta/simular. B's latency runs from the simulator's answer
// (bench process) to the arrival at B's receiver; an event that has not arrived 30 s
// after the last one was sent never arrived. Baseline: B alone, the same procedure
// without A's backlog, in the same run. Each measurement has its own database and
// its own `consigna` processes, with one worker (`consigna serve`) and with two
// (`consigna api` + 2 × `consigna worker`), at the service's default settings.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { deriveKeys } from '../src/crypto/keys.ts';
import { systemClock } from '../src/clock.ts';
import type { Config } from '../src/config/config.ts';
import { createChannel } from '../src/channels/channels.service.ts';
import { registerWebhook } from '../src/webhooks/webhooks.service.ts';
import { onCleanup } from './lib/cleanup.ts';
import { createContext } from './lib/context.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { BenchError, freePort, sleep, withoutServiceSettings, type ChildService } from './lib/process.ts';
import type { BenchSuite, SuiteContext, SuitePart, SuiteRow } from './lib/types.ts';
import { receiverArrivals, receiverCount, resetReceiver, waitForCount } from './lib/webhooks/receiver-client.ts';
import {
  badCount,
  insertProposals,
  paced,
  simulatorEvents,
  percentiles,
  queueBacklog,
  resetBad,
  startBadReceiver,
  startDeployment,
  startGoodReceiver,
  waitForBadRequest,
  wallNow,
  type BadCount,
  type BadMode,
  type Deployment,
  type PacedRun,
  type Percentiles,
  type TopologyId,
} from './lib/webhooks/noisy.ts';

/** Channel B's events per second. */
const RATE = 20;
/** Channel A's queued events. */
const BACKLOG = 2_000;
/** How long after B's last event was sent its events may still arrive. */
const GRACE_SECONDS = 30;
/** B's p95 beside A ≤ this × B's p95 alone. */
const MAX_P95_RATIO = 2;
/** The slow variant's answer time: under the service's 10 s delivery timeout (an attempt sent at once succeeds). */
const SLOW_MS = 9_000;

interface Variant {
  part: string;
  mode: BadMode;
  /** Describes A's endpoint, e.g. `never answers`. */
  label: string;
}

const VARIANTS: Variant[] = [
  { part: 'noisy-hang', mode: 'hang', label: 'never answers' },
  { part: 'noisy-slow-200', mode: 'slow', label: `200 after ${SLOW_MS / 1000} s` },
  { part: 'noisy-503', mode: '503', label: '503 at once' },
];

const TOPOLOGIES: Array<{ id: TopologyId; label: string; processes: string }> = [
  { id: 'one-worker', label: '1 worker', processes: 'consigna serve' },
  { id: 'two-workers', label: '2 workers', processes: 'consigna api + 2 × consigna worker' },
];

const TARGET = `all of B arrive; p95 ≤ ${MAX_P95_RATIO}× B alone`;

const PARTS: SuitePart[] = VARIANTS.map((v) => ({
  id: v.part,
  name: `B @ ${RATE}/s beside A: ${v.label}`,
  target: TARGET,
}));

export const suites: BenchSuite[] = [
  {
    id: 'noisy-neighbour',
    name: 'Noisy neighbour',
    backends: ['postgres'],
    parts: PARTS,
    run: runNoisyNeighbour,
  },
];

// ---------------------------------------------------------------------------------
// Formatting

const msText = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
/** A latency with its unit; Infinity (never arrived) as `> 30 s`. */
const latency = (value: number) =>
  value === Number.POSITIVE_INFINITY
    ? `> ${GRACE_SECONDS} s`
    : Math.abs(value) >= 1000
      ? `${(value / 1000).toFixed(1)} s`
      : `${msText(value)} ms`;
const latencyText = (p: Percentiles) => `p50 ${latency(p.p50)} · p95 ${latency(p.p95)} · p99 ${latency(p.p99)}`;
const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

// ---------------------------------------------------------------------------------
// One measurement: a fresh database, the topology's processes, B's events, with or
// without A's backlog.

interface Measurement {
  topology: TopologyId;
  /** undefined: B alone (the baseline). */
  variant: BadMode | undefined;
  b: {
    /** Events of the measured period whose simulator call answered 200. */
    sent: number;
    /** Of those, arrived at B's receiver within the grace period. */
    arrived: number;
    missing: number;
    duplicates: number;
    badSignatures: number;
    /** Every sent event's latency; those that never arrived count as Infinity. */
    latency: Percentiles;
    /** The simulator's answer time and the generator's lag. */
    generator: PacedRun;
    warmup: { sent: number; arrived: number };
    /** Last arrival of a measured event, after the last one was sent (ms). */
    lastArrivalAfterLastSentMs: number | undefined;
  };
  a:
    | {
        backlog: number;
        queueMs: number;
        /** From the backlog's commit to the first request at A's endpoint. */
        firstRequestMs: number | undefined;
        endpoint: BadCount;
        /** A's deliveries by status when B's wait ended, with the attempts made. */
        deliveries: Array<{ status: string; n: number; attempts: number }>;
      }
    | undefined;
  loadAverage: number[];
  seconds: number;
}

async function measure(
  ctx: SuiteContext,
  topology: (typeof TOPOLOGIES)[number],
  variant: Variant | undefined,
  receiverB: ChildService,
): Promise<Measurement> {
  const started = performance.now();
  const load = os.loadavg();
  const warmupEvents = Math.round(RATE * ctx.warmup);
  const measuredEvents = Math.round(RATE * ctx.duration);
  const what = `${topology.label}, ${variant ? `A ${variant.label}` : 'B alone'}`;

  const benchDb = await createBenchDatabase(ctx.adminUrl);
  let bad: ChildService | undefined;
  let deployment: Deployment | undefined;
  const database = await openDatabase({ databaseUrl: benchDb.url, poolSize: 4 }).catch(async (error: unknown) => {
    await benchDb.drop();
    throw error;
  });
  const closeDatabase = onCleanup(`close the bench connections to ${benchDb.name}`, () => database.close());
  try {
    ctx.log(`${what}: database ${benchDb.name}…`);
    await migrate(database);
    // Channels and webhooks through the service's own functions, as the webhook table does.
    const masterKey = randomBytes(32);
    const config = { ambiente: 'SANDBOX', allowInsecureWebhooks: true, publicBaseUrl: 'http://127.0.0.1:9' } as Config;
    const deps = { database, keys: deriveKeys(masterKey), clock: systemClock, config };
    const channelA = await createChannel(deps, { name: 'Noisy A' });
    const channelB = await createChannel(deps, { name: 'Noisy B' });
    // B alone: A keeps its webhook (same channels, same claim) but gets no events.
    const badPort = variant ? await freePort() : 9;
    await registerWebhook(deps, channelA.canalId, { url: `http://127.0.0.1:${badPort}/a` });
    const registered = await registerWebhook(deps, channelB.canalId, { url: `${receiverB.url}/b` });
    const secretB = registered.webhook.segredo;
    if (!secretB) throw new BenchError('registering the webhook returned no secret');
    const linksB = await insertProposals(database, channelB.canalId, warmupEvents + measuredEvents, 'noisy-b');
    const linksA = variant ? await insertProposals(database, channelA.canalId, BACKLOG, 'noisy-a') : [];

    const env = withoutServiceSettings(ctx.env);
    Object.assign(env, {
      DATABASE_URL: benchDb.url,
      CONSIGNA_MASTER_KEY: masterKey.toString('hex'),
      CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    });
    ctx.log(`${what}: starting ${topology.processes}…`);
    deployment = await startDeployment(ctx, topology.id, env);
    // Started after the service: on Ctrl-C (newest first) it is stopped before the
    // workers, whose attempts then end at once instead of running into their timeout.
    if (variant) bad = await startBadReceiver(ctx, variant.mode, badPort, SLOW_MS);

    const api = createContext(deployment.apiUrl, 'postgres', channelB);
    const token = await api.accessToken();
    const simulate = simulatorEvents(api, token);

    // Warm-up, before A's backlog exists: JIT, pools, B's keep-alive connection.
    await resetReceiver(receiverB.url, secretB);
    let warmArrived = 0;
    if (warmupEvents > 0) {
      ctx.log(`${what}: warm-up, ${warmupEvents} events of B at ${RATE}/s…`);
      const warm = await paced(RATE, warmupEvents, async (i) => {
        await simulate(linksB[i]!);
      });
      if (warm.errors > 0) throw new BenchError(`warm-up: ${warm.errors} simulator calls failed (${warm.firstError})`);
      warmArrived = (await waitForCount(receiverB.url, warmupEvents, 10_000)).count;
    }

    let a: Measurement['a'];
    if (variant && bad) {
      await resetBad(bad.url);
      ctx.log(`${what}: queueing A's backlog of ${BACKLOG}…`);
      const queueStarted = performance.now();
      await queueBacklog(database, channelA.canalId, linksA);
      const queueMs = performance.now() - queueStarted;
      const firstRequestMs = await waitForBadRequest(bad.url, 10_000);
      a = { backlog: BACKLOG, queueMs, firstRequestMs, endpoint: await badCount(bad.url), deliveries: [] };
    }

    // The measured events.
    await resetReceiver(receiverB.url, secretB);
    const measuredLinks = linksB.slice(warmupEvents);
    const answeredAt = new Map<string, number>();
    ctx.log(`${what}: ${measuredEvents} events of B at ${RATE}/s (${ctx.duration} s)…`);
    const generator = await paced(RATE, measuredEvents, async (i) => {
      const link = measuredLinks[i]!;
      answeredAt.set(link, await simulate(link));
    });
    const deadline = generator.lastStartedAt + GRACE_SECONDS * 1000;
    ctx.log(`${what}: waiting for B's events (at most ${GRACE_SECONDS} s after the last was sent)…`);
    while (wallNow() < deadline) {
      if ((await receiverCount(receiverB.url)).count >= answeredAt.size) break;
      await sleep(100);
    }
    const arrivals = await receiverArrivals(receiverB.url);
    if (a && bad) {
      a.endpoint = await badCount(bad.url);
      const { rows } = await sql<{ status: string; n: number; attempts: number }>`
        select status, count(*)::int as n, coalesce(sum(tentativas), 0)::int as attempts
        from deliveries where channel_id = ${channelA.canalId} group by status order by status
      `.execute(database.db);
      a.deliveries = rows;
    }

    // The event ids were drawn inside the service: map them back to B's links (one event each).
    const { rows: events } = await sql<{ id: string; link_id: string }>`
      select id, link_id from events where channel_id = ${channelB.canalId}
    `.execute(database.db);
    const linkOf = new Map(events.map((e) => [e.id, e.link_id]));
    const arrivedAt = new Map<string, number>();
    let duplicates = 0;
    arrivals.ids.forEach((id, i) => {
      const link = linkOf.get(id);
      const at = arrivals.at[i]!;
      if (link === undefined || at > deadline) return;
      if (arrivedAt.has(link)) duplicates += 1;
      else arrivedAt.set(link, at);
    });
    const values: number[] = [];
    let lastArrival: number | undefined;
    for (const [link, answered] of answeredAt) {
      const arrived = arrivedAt.get(link);
      values.push(arrived === undefined ? Number.POSITIVE_INFINITY : arrived - answered);
      if (arrived !== undefined) lastArrival = Math.max(lastArrival ?? arrived, arrived);
    }
    const arrived = values.filter(Number.isFinite).length;
    return {
      topology: topology.id,
      variant: variant?.mode,
      b: {
        sent: answeredAt.size,
        arrived,
        missing: answeredAt.size - arrived,
        duplicates,
        badSignatures: arrivals.badSignatures,
        latency: percentiles(values),
        generator,
        warmup: { sent: warmupEvents, arrived: warmArrived },
        lastArrivalAfterLastSentMs: lastArrival === undefined ? undefined : lastArrival - generator.lastStartedAt,
      },
      a,
      loadAverage: load,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    // A's endpoint first: its hanging requests end at once, so the workers stop quickly.
    await bad?.stop();
    await deployment?.stop();
    await closeDatabase();
    await benchDb.drop();
  }
}

// ---------------------------------------------------------------------------------
// The suite

async function runNoisyNeighbour(ctx: SuiteContext, parts: SuitePart[]) {
  const variants = VARIANTS.filter((v) => parts.some((p) => p.id === v.part));
  const rows: SuiteRow[] = [];
  const details: string[] = [];
  const raw: Record<string, unknown> = {
    loadAverageAtStart: os.loadavg(),
    rate: RATE,
    backlog: BACKLOG,
    graceSeconds: GRACE_SECONDS,
    slowMs: SLOW_MS,
    warmupSeconds: ctx.warmup,
    durationSeconds: ctx.duration,
  };
  const measurements: Array<Measurement | { topology: TopologyId; variant: BadMode | undefined; error: string }> = [];
  raw.measurements = measurements;
  const loadAtStart = loadAverage();
  const passed = Object.keys(ctx.env)
    .filter((name) => name.startsWith('CONSIGNA_'))
    .sort();

  const receiverB = await startGoodReceiver(ctx);
  try {
    for (const topology of TOPOLOGIES) {
      const attempt = async (variant: Variant | undefined): Promise<Measurement | string> => {
        try {
          const m = await measure(ctx, topology, variant, receiverB);
          measurements.push(m);
          details.push(describe(topology.label, variant, m));
          return m;
        } catch (error) {
          const message =
            error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
          ctx.log(`${topology.label}, ${variant ? `A ${variant.label}` : 'B alone'}: ${message}`);
          measurements.push({ topology: topology.id, variant: variant?.mode, error: message });
          return message;
        }
      };
      const alone = await attempt(undefined);
      for (const variant of variants) {
        const beside = await attempt(variant);
        rows.push(row(topology.label, variant, beside, alone));
      }
    }
  } finally {
    await receiverB.stop();
  }

  raw.loadAverageAtEnd = os.loadavg();
  const notes = [
    `B: ${Math.round(RATE * ctx.duration)} events at ${RATE}/s (${ctx.duration} s), each a POST /v1/links/{id}/proposta/simular over HTTP (FORMALIZADA, one link each), ` +
      `after ${Math.round(RATE * ctx.warmup)} warm-up events sent before A's backlog; latency from the simulator's answer (bench process) to the arrival at B's receiver (receiver process).`,
    `  an event not at B's receiver ${GRACE_SECONDS} s after the last one was sent counts as never arrived (> ${GRACE_SECONDS} s in the percentiles); ratio = p95 beside A ÷ p95 of B alone (same topology, same run).`,
    `A: ${BACKLOG.toLocaleString('en-US')} events written by recordEvent in one transaction right before B's measured events; its endpoint another process (bench/lib/webhooks/bad-receiver.ts).`,
    `Each measurement: fresh database, fresh processes; service defaults (CONSIGNA_ALLOW_INSECURE_WEBHOOKS=true only)` +
      (passed.length > 0 ? `, passed through: ${passed.join(', ')}.` : '; no CONSIGNA_* variable set.'),
    ...details,
    `load average (1, 5, 15 min) at start: ${loadAtStart}; at end: ${loadAverage()}`,
  ];
  return {
    title: `Noisy neighbour: channel B at ${RATE} events/s beside channel A's backlog of ${BACKLOG.toLocaleString('en-US')} (receivers, workers and PostgreSQL on this machine)`,
    rows,
    notes,
    raw,
  };
}

function row(topology: string, variant: Variant, beside: Measurement | string, alone: Measurement | string): SuiteRow {
  const base: Omit<SuiteRow, 'figure' | 'baseline' | 'ratio' | 'verdicts'> = {
    part: variant.part,
    name: `B beside A (${variant.label}), ${topology}`,
    target: TARGET,
  };
  const arrivedText = (m: Measurement) => `${m.b.arrived}/${m.b.sent} arrived`;
  const baselineText =
    typeof alone === 'string' ? 'B alone: broken' : `B alone: ${latencyText(alone.b.latency)}; ${arrivedText(alone)}`;
  if (typeof beside === 'string') {
    return { ...base, figure: '–', baseline: baselineText, ratio: undefined, verdicts: {}, error: beside };
  }
  const problems: string[] = [];
  if (beside.b.generator.errors > 0)
    problems.push(`${beside.b.generator.errors} simulator calls failed beside A (${beside.b.generator.firstError})`);
  if (beside.b.badSignatures > 0) problems.push(`${beside.b.badSignatures} bad signatures at B's receiver`);
  let ratio: number | undefined;
  if (typeof alone === 'string') {
    problems.push(`B alone could not be measured: ${alone}`);
  } else {
    if (alone.b.generator.errors > 0) problems.push(`B alone: ${alone.b.generator.errors} simulator calls failed`);
    // Nothing competes with B alone: an event it loses means the measurement is broken.
    if (alone.b.missing > 0) problems.push(`B alone: ${alone.b.missing} of ${alone.b.sent} events never arrived`);
    ratio = beside.b.latency.p95 / alone.b.latency.p95;
  }
  const allArrived = beside.b.missing === 0 && beside.b.generator.errors === 0;
  return {
    ...base,
    figure: `${latencyText(beside.b.latency)}; ${arrivedText(beside)}`,
    baseline: baselineText,
    // Unbounded when B's p95 never arrived: shown as –, judged ✗.
    ratio: ratio !== undefined && Number.isFinite(ratio) ? ratio : undefined,
    verdicts: {
      'all arrive': allArrived,
      [`p95 ≤ ${MAX_P95_RATIO}×`]: ratio !== undefined && ratio <= MAX_P95_RATIO,
    },
    ...(problems.length > 0 ? { error: problems.join('; ') } : {}),
  };
}

function describe(topology: string, variant: Variant | undefined, m: Measurement): string {
  const g = m.b.generator;
  const parts = [
    `  ${topology}, ${variant ? `A ${variant.label}` : 'B alone'}: B ${m.b.arrived}/${m.b.sent} in ${GRACE_SECONDS} s` +
      (m.b.lastArrivalAfterLastSentMs === undefined
        ? ''
        : `, last ${latency(m.b.lastArrivalAfterLastSentMs)} after the last send`) +
      `, max ${latency(m.b.latency.max)}; simulator answer p50 ${msText(g.duration.p50)} / p99 ${msText(g.duration.p99)} ms, generator lag p99 ${msText(g.lag.p99)} ms` +
      (m.b.duplicates > 0 ? `, ${m.b.duplicates} duplicates` : ''),
  ];
  if (m.a) {
    const statuses = m.a.deliveries.map((d) => `${d.n} ${d.status} (${d.attempts} attempts)`).join(', ');
    parts.push(
      `A: queued in ${msText(m.a.queueMs)} ms, first request after ${m.a.firstRequestMs === undefined ? '> 10 s' : `${msText(m.a.firstRequestMs)} ms`}; ` +
        `its endpoint got ${m.a.endpoint.requests} requests, at most ${m.a.endpoint.peakOpen} open at once; deliveries at the end: ${statuses}`,
    );
  }
  parts.push(`load ${m.loadAverage[0]!.toFixed(2)}, ${m.seconds.toFixed(0)} s`);
  return parts.join('; ');
}
