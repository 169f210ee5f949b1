// listen-latency (PostgreSQL, default durability), one table: what does the SDK's
// `listen` command add to a webhook's latency?
//
// One fresh database, one `consigna serve` (API, delivery worker, sweeper), one channel
// and one receiver process (bench/lib/webhooks/receiver.ts, the noisy-neighbour
// bench's good receiver: 204 at once, arrival times taken in its own process). Events
// at 20/s through POST /v1/links/{id}/proposta/simular over HTTP, as the
// noisy-neighbour bench sends channel B's; latency from the simulator's answer (bench
// process) to the arrival at the receiver (receiver process). Two phases, same run:
//
//   1. direct (baseline): the channel's webhook is the receiver's URL, delivered by
//      the worker over loopback HTTP;
//   2. listen: `node packages/sdk/src/cli.ts listen --forward-to <receiver> --sim` as a
//      child process makes the channel's sandbox inbox its webhook (the worker
//      delivers in-process into the inbox, which stores the event and NOTIFYs), follows
//      the inbox's Server-Sent Events stream and POSTs each event to the receiver.
//
// Each phase: --warmup seconds of events, waited for, then --duration seconds
// measured; an event not at the receiver 30 s after the last one was sent never
// arrived. The command's output lines (one per forwarded event) are counted to
// cross-check the receiver.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { deriveKeys } from '../src/crypto/keys.ts';
import { systemClock } from '../src/clock.ts';
import type { Config } from '../src/config/config.ts';
import { createChannel } from '../src/channels/channels.service.ts';
import { registerWebhook } from '../src/webhooks/webhooks.service.ts';
import { onCleanup } from './lib/cleanup.ts';
import { createContext } from './lib/context.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { BenchError, freePort, sleep, startService, withoutServiceSettings, type ChildService } from './lib/process.ts';
import type { BenchContext, BenchSuite, SuiteContext, SuitePart, SuiteRow } from './lib/types.ts';
import { startListenCli, type ForwardLines, type ListenCli } from './lib/webhooks/listen-cli.ts';
import {
  insertProposals,
  paced,
  percentiles,
  simulatorEvents,
  wallNow,
  type PacedRun,
  type Percentiles,
} from './lib/webhooks/noisy.ts';
import { receiverArrivals, receiverCount, resetReceiver, waitForCount } from './lib/webhooks/receiver-client.ts';

const LIB = path.join(import.meta.dirname, 'lib', 'webhooks');

/** Events per second, both phases (the noisy-neighbour bench's rate for channel B). */
const RATE = 20;
/** How long after the last event was sent its events may still arrive. */
const GRACE_SECONDS = 30;
/** listen p95 ≤ direct p95 + this (ms): see README, "listen latency". */
const EXTRA_P95_GOAL_MS = 50;

const TARGET = `all arrive; p95 ≤ direct p95 + ${EXTRA_P95_GOAL_MS} ms`;
const PART: SuitePart = { id: 'listen-latency', name: `event → receiver through listen @ ${RATE}/s`, target: TARGET };

export const suites: BenchSuite[] = [
  {
    id: 'listen',
    name: 'listen',
    backends: ['postgres'],
    parts: [PART],
    run: runListenLatency,
  },
];

// ---------------------------------------------------------------------------------
// Formatting

const msText = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
/** A latency with its unit; Infinity (never arrived) as `> 30 s`. */
const latency = (value: number) =>
  value === Number.POSITIVE_INFINITY
    ? `> ${GRACE_SECONDS} s`
    : Number.isNaN(value)
      ? '–'
      : Math.abs(value) >= 1000
        ? `${(value / 1000).toFixed(1)} s`
        : `${msText(value)} ms`;
const latencyText = (p: Percentiles) =>
  `p50 ${latency(p.p50)} · p95 ${latency(p.p95)} · p99 ${latency(p.p99)} · max ${latency(p.max)}`;
const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .map(([k, n]) => `${n}× ${k}`)
    .join(', ') || 'none';

// ---------------------------------------------------------------------------------
// One phase: warm-up events, then the measured ones, each a simulator call; the
// receiver's arrivals mapped back to the calls.

type PhaseId = 'direct' | 'listen';

interface Phase {
  phase: PhaseId;
  /** Events of the measured period whose simulator call answered 200 (alterado). */
  sent: number;
  /** Of those, arrived at the receiver within the grace period. */
  arrived: number;
  missing: number;
  duplicates: number;
  /** Requests at the receiver that are none of the measured events (e.g. a late warm-up one). */
  strays: number;
  /** Signatures the receiver checked (one in 64) and how many failed. */
  checkedSignatures: number;
  badSignatures: number;
  /** Every sent event's latency (ms), answer → arrival; never arrived: Infinity. */
  latency: Percentiles;
  /** Lowest latency: below 0 when a delivery arrived before the bench read the simulator's answer. */
  minLatencyMs: number | undefined;
  /**
   * Split at the delivery's `entregue_em` (the worker's clock when the attempt ended,
   * millisecond resolution): answer → recorded delivered, and recorded delivered →
   * arrival. Direct: the attempt ends after the receiver answered (the second part is
   * about 0 or negative). listen: the attempt is the in-process store into the inbox,
   * so the second part is the stream, the command and its POST.
   */
  split: { toDelivered: Percentiles; deliveredToArrival: Percentiles } | undefined;
  /** Deliveries of the measured events by status when the wait ended, with attempts. */
  deliveries: Array<{ status: string; n: number; attempts: number }>;
  generator: PacedRun;
  warmup: { sent: number; arrived: number };
  lastArrivalAfterLastSentMs: number | undefined;
  /** listen only: the command's output lines of this phase (warm-up and measured). */
  forwardLines?: { warmup: ForwardLines; measured: ForwardLines };
  /** The raw pairs, for the results file: [answered at, arrived at or null] (wall ms). */
  events: Array<[link: string, answeredAt: number, arrivedAt: number | null]>;
  seconds: number;
  loadAverage: number[];
}

interface PhaseSetup {
  phase: PhaseId;
  database: Database;
  api: BenchContext;
  token: string;
  receiver: ChildService;
  secret: string;
  warmLinks: string[];
  measuredLinks: string[];
  ctx: SuiteContext;
  /** listen only. */
  cli?: ListenCli;
}

async function runPhase(s: PhaseSetup): Promise<Phase> {
  const started = performance.now();
  const load = os.loadavg();
  const { ctx, receiver, api, token } = s;
  const simulate = simulatorEvents(api, token);

  // Warm-up: JIT, pools, keep-alive connections, and for listen the stream and the
  // command's connection to the receiver.
  await resetReceiver(receiver.url, s.secret);
  const warmLineStart = s.cli?.lines().length ?? 0;
  let warmArrived = 0;
  if (s.warmLinks.length > 0) {
    ctx.log(`${s.phase}: warm-up, ${s.warmLinks.length} events at ${RATE}/s…`);
    const warm = await paced(RATE, s.warmLinks.length, async (i) => {
      await simulate(s.warmLinks[i]!);
    });
    if (warm.errors > 0) throw new BenchError(`${s.phase}: warm-up: ${warm.errors} simulator calls failed (${warm.firstError})`);
    warmArrived = (await waitForCount(receiver.url, s.warmLinks.length, 10_000)).count;
  }
  // The command prints its line once the receiver has answered: a moment after the arrival.
  if (s.cli) await waitForLines(s.cli, warmLineStart, warmArrived);
  const measuredLineStart = s.cli?.lines().length ?? 0;

  await resetReceiver(receiver.url, s.secret);
  const answeredAt = new Map<string, number>();
  ctx.log(`${s.phase}: ${s.measuredLinks.length} events at ${RATE}/s (${ctx.duration} s)…`);
  const generator = await paced(RATE, s.measuredLinks.length, async (i) => {
    const link = s.measuredLinks[i]!;
    answeredAt.set(link, await simulate(link));
  });
  const deadline = generator.lastStartedAt + GRACE_SECONDS * 1000;
  ctx.log(`${s.phase}: waiting for the events (at most ${GRACE_SECONDS} s after the last was sent)…`);
  while (wallNow() < deadline) {
    if ((await receiverCount(receiver.url)).count >= answeredAt.size) break;
    await sleep(100);
  }
  const arrivals = await receiverArrivals(receiver.url);
  if (s.cli) await waitForLines(s.cli, measuredLineStart, arrivals.count);
  await waitForRecordedResults(s.database, s.measuredLinks);

  // The event ids are drawn inside the service: map them back to the links (one event each).
  const { rows: events } = await sql<{ id: string; link_id: string; entregue_em: Date | null }>`
    select e.id, e.link_id, d.entregue_em
    from events e left join deliveries d on d.event_id = e.id
    where e.link_id = any(${s.measuredLinks}::uuid[])
  `.execute(s.database.db);
  const linkOf = new Map(events.map((e) => [e.id, e.link_id]));
  const deliveredAt = new Map(events.flatMap((e) => (e.entregue_em ? [[e.link_id, e.entregue_em.getTime()] as const] : [])));
  const arrivedAt = new Map<string, number>();
  let duplicates = 0;
  let strays = 0;
  arrivals.ids.forEach((id, i) => {
    const link = linkOf.get(id);
    const at = arrivals.at[i]!;
    if (link === undefined) {
      strays += 1;
      return;
    }
    if (at > deadline) return;
    if (arrivedAt.has(link)) duplicates += 1;
    else arrivedAt.set(link, at);
  });
  const values: number[] = [];
  const toDelivered: number[] = [];
  const deliveredToArrival: number[] = [];
  const pairs: Phase['events'] = [];
  let lastArrival: number | undefined;
  for (const [link, answered] of answeredAt) {
    const arrived = arrivedAt.get(link);
    pairs.push([link, answered, arrived ?? null]);
    values.push(arrived === undefined ? Number.POSITIVE_INFINITY : arrived - answered);
    if (arrived !== undefined) lastArrival = Math.max(lastArrival ?? arrived, arrived);
    const delivered = deliveredAt.get(link);
    if (delivered !== undefined && arrived !== undefined) {
      toDelivered.push(delivered - answered);
      deliveredToArrival.push(arrived - delivered);
    }
  }
  const { rows: deliveries } = await sql<{ status: string; n: number; attempts: number }>`
    select d.status, count(*)::int as n, coalesce(sum(d.tentativas), 0)::int as attempts
    from deliveries d join events e on e.id = d.event_id
    where e.link_id = any(${s.measuredLinks}::uuid[])
    group by d.status order by d.status
  `.execute(s.database.db);
  const finite = values.filter(Number.isFinite);
  return {
    phase: s.phase,
    sent: answeredAt.size,
    arrived: finite.length,
    missing: answeredAt.size - finite.length,
    duplicates,
    strays,
    checkedSignatures: arrivals.checked,
    badSignatures: arrivals.badSignatures,
    latency: percentiles(values),
    minLatencyMs: finite.length > 0 ? Math.min(...finite) : undefined,
    split:
      toDelivered.length > 0
        ? { toDelivered: percentiles(toDelivered), deliveredToArrival: percentiles(deliveredToArrival) }
        : undefined,
    deliveries,
    generator,
    warmup: { sent: s.warmLinks.length, arrived: warmArrived },
    lastArrivalAfterLastSentMs: lastArrival === undefined ? undefined : lastArrival - generator.lastStartedAt,
    ...(s.cli
      ? {
          forwardLines: {
            warmup: s.cli.forwardLines(warmLineStart, measuredLineStart),
            measured: s.cli.forwardLines(measuredLineStart),
          },
        }
      : {}),
    events: pairs,
    seconds: (performance.now() - started) / 1000,
    loadAverage: load,
  };
}

/**
 * Waits (at most 2 s) until no delivery of these links is claimed and still without
 * its result: the worker records results in batches, a moment after the attempt.
 */
async function waitForRecordedResults(database: Database, links: string[]): Promise<void> {
  const until = performance.now() + 2000;
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n
      from deliveries d join events e on e.id = d.event_id
      where e.link_id = any(${links}::uuid[]) and d.status = 'PENDENTE' and (d.lease_id is not null or d.tentativas = 0)
    `.execute(database.db);
    if (rows[0]!.n === 0 || performance.now() > until) return;
    await sleep(50);
  }
}

/** Waits (at most 2 s) until the command has printed `expected` forward lines since `from`. */
async function waitForLines(cli: ListenCli, from: number, expected: number): Promise<void> {
  const until = performance.now() + 2000;
  while (cli.forwardLines(from).total < expected && performance.now() < until) await sleep(20);
}

// ---------------------------------------------------------------------------------
// The suite

async function runListenLatency(ctx: SuiteContext): Promise<{
  title: string;
  rows: SuiteRow[];
  notes: string[];
  raw: Record<string, unknown>;
}> {
  const warmupEvents = Math.round(RATE * ctx.warmup);
  const measuredEvents = Math.round(RATE * ctx.duration);
  const loadAtStart = loadAverage();
  const raw: Record<string, unknown> = {
    loadAverageAtStart: os.loadavg(),
    rate: RATE,
    graceSeconds: GRACE_SECONDS,
    extraP95GoalMs: EXTRA_P95_GOAL_MS,
    warmupSeconds: ctx.warmup,
    durationSeconds: ctx.duration,
  };
  const passed = Object.keys(ctx.env)
    .filter((name) => name.startsWith('CONSIGNA_'))
    .sort();

  const receiverPort = await freePort();
  ctx.log('starting the receiver…');
  const receiver = await startService({
    label: 'webhook receiver',
    args: [path.join(LIB, 'receiver.ts')],
    cwd: ctx.root,
    env: { ...ctx.env, PORT: String(receiverPort), HOST: '127.0.0.1' },
    port: receiverPort,
  });
  let benchDb: Awaited<ReturnType<typeof createBenchDatabase>> | undefined;
  let closeDatabase: (() => Promise<void>) | undefined;
  let serve: ChildService | undefined;
  let cli: ListenCli | undefined;
  let direct: Phase | string | undefined;
  let listened: Phase | string | undefined;
  let cliEnd: Awaited<ReturnType<ListenCli['interrupt']>> | undefined;
  let cliTotals: ForwardLines | undefined;
  let webhookDuringListen: string | undefined;
  try {
    benchDb = await createBenchDatabase(ctx.adminUrl);
    ctx.log(`database ${benchDb.name}…`);
    const database = await openDatabase({ databaseUrl: benchDb.url, poolSize: 4 });
    closeDatabase = onCleanup(`close the bench connections to ${benchDb.name}`, () => database.close());
    await migrate(database);
    // Channel and webhook through the service's own functions, as the other suites do.
    const masterKey = randomBytes(32);
    const config = { ambiente: 'SANDBOX', allowInsecureWebhooks: true, publicBaseUrl: 'http://127.0.0.1:9' } as Config;
    const deps = { database, keys: deriveKeys(masterKey), clock: systemClock, config };
    const channel = await createChannel(deps, { name: 'Listen bench' });
    const registered = await registerWebhook(deps, channel.canalId, { url: `${receiver.url}/direct` });
    const secret = registered.webhook.segredo;
    if (!secret) throw new BenchError('registering the webhook returned no secret');
    const perPhase = warmupEvents + measuredEvents;
    const links = await insertProposals(database, channel.canalId, 2 * perPhase, 'listen');
    const linksOf = (phase: number) => {
      const mine = links.slice(phase * perPhase, (phase + 1) * perPhase);
      return { warmLinks: mine.slice(0, warmupEvents), measuredLinks: mine.slice(warmupEvents) };
    };

    const port = await freePort();
    const env = withoutServiceSettings(ctx.env);
    Object.assign(env, {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: benchDb.url,
      CONSIGNA_MASTER_KEY: masterKey.toString('hex'),
      // The receiver is on loopback over http (the direct phase).
      CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
      // Where the service answers: the inbox URL the command streams from. The default,
      // http://localhost:PORT, names the same service but leaves the address family to
      // the resolver, while the service listens on 127.0.0.1 only.
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    });
    ctx.log('starting consigna serve…');
    serve = await startService({ label: 'consigna serve', args: ['bin/consigna.js', 'serve'], cwd: ctx.root, env, port });
    const api = createContext(serve.url, 'postgres', channel);
    const token = await api.accessToken();
    const common = { database, api, token, receiver, secret, ctx };

    // 1. direct
    try {
      direct = await runPhase({ ...common, phase: 'direct', ...linksOf(0) });
    } catch (error) {
      direct = describeError(error);
      ctx.log(`direct: ${direct}`);
    }

    // 2. listen: the command replaces the receiver's URL by the inbox (--sim: without asking).
    try {
      ctx.log('starting the listen command…');
      cli = startListenCli({
        root: ctx.root,
        serviceUrl: serve.url,
        clientId: channel.clientId,
        clientSecret: channel.clientSecret,
        forwardTo: `${receiver.url}/listen`,
      });
      await cli.waitForLine(/^recebendo eventos/, 30_000);
      const webhook = await api.http('GET', '/v1/webhooks', { headers: { authorization: `Bearer ${token}` } });
      webhookDuringListen = (webhook.body as { url?: string } | undefined)?.url;
      if (!webhookDuringListen?.includes('/v1/sandbox/receptor/')) {
        throw new BenchError(
          `the channel's webhook is ${webhookDuringListen ?? `unknown (GET /v1/webhooks answered ${webhook.status})`}, not its inbox`,
        );
      }
      listened = await runPhase({ ...common, phase: 'listen', ...linksOf(1), cli });
    } catch (error) {
      listened = describeError(error);
      ctx.log(`listen: ${listened}`);
    }
  } finally {
    if (cli) {
      cliEnd = await cli.interrupt();
      cliTotals = cli.forwardLines();
      // The inbox token and a secret are credentials of a database about to be dropped: redacted all the same.
      raw.listenOutputTail = cli
        .lines()
        .slice(-20)
        .map((line) => line.replace(/sbx_\w+/g, 'sbx_…').replace(/whsec_\S+/g, 'whsec_…'));
    }
    await serve?.stop();
    await receiver.stop();
    await closeDatabase?.();
    await benchDb?.drop();
  }

  raw.loadAverageAtEnd = os.loadavg();
  raw.direct = direct;
  raw.listen = listened;
  raw.listenCommand = cliEnd ? { exit: cliEnd, forwardLines: cliTotals } : undefined;
  raw.webhookDuringListen = webhookDuringListen?.replace(/sbx_\w+/, 'sbx_…');

  const notes = [
    `${measuredEvents} events per phase at ${RATE}/s (${ctx.duration} s), each a POST /v1/links/{id}/proposta/simular over HTTP (FORMALIZADA, one link each), ` +
      `after ${warmupEvents} warm-up events waited for; latency from the simulator's answer (bench process) to the arrival at the receiver (its own process, bench/lib/webhooks/receiver.ts).`,
    `  direct: the channel's webhook is the receiver, the worker of consigna serve posts to it over loopback HTTP. ` +
      `listen: node packages/sdk/src/cli.ts listen --forward-to <receiver> --sim (child process) made the inbox the webhook; ` +
      `the worker stores each event into the inbox in-process, the inbox's stream pushes it to the command, which POSTs it to the receiver.`,
    `  same database, same consigna serve, same receiver, direct first; an event not at the receiver ${GRACE_SECONDS} s after the last one was sent counts as never arrived (> ${GRACE_SECONDS} s). ` +
      `ratio = listen p95 ÷ direct p95.`,
    `service defaults (CONSIGNA_ALLOW_INSECURE_WEBHOOKS=true, PUBLIC_BASE_URL=http://127.0.0.1:<port>)` +
      (passed.length > 0 ? `, passed through: ${passed.join(', ')}.` : '; no CONSIGNA_* variable set.'),
    ...[direct, listened].flatMap((p) => (p && typeof p !== 'string' ? describePhase(p) : [])),
  ];
  if (cliEnd) {
    notes.push(
      `  listen command: ${cliTotals?.total ?? 0} forward lines in all (${counts(cliTotals?.byAnswer ?? {})}); ` +
        `stopped with SIGINT: ${cliEnd.killed ? 'did not exit, killed' : `exit ${cliEnd.code ?? cliEnd.signal}`}.`,
    );
  }
  notes.push(`load average (1, 5, 15 min) at start: ${loadAtStart}; at end: ${loadAverage()}`);

  return {
    title: `listen: event → receiver latency at ${RATE} events/s, direct webhook vs through the SDK's listen command (service, command, receiver and PostgreSQL on this machine)`,
    rows: [row(direct, listened)],
    notes,
    raw,
  };
}

function describeError(error: unknown): string {
  return error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function describePhase(p: Phase): string[] {
  const g = p.generator;
  const lines = [
    `  ${p.phase}: ${p.arrived}/${p.sent} in ${GRACE_SECONDS} s` +
      (p.lastArrivalAfterLastSentMs === undefined ? '' : `, last ${latency(p.lastArrivalAfterLastSentMs)} after the last send`) +
      `, min ${p.minLatencyMs === undefined ? '–' : latency(p.minLatencyMs)}` +
      (p.duplicates > 0 ? `, ${p.duplicates} duplicates` : '') +
      (p.strays > 0 ? `, ${p.strays} other requests` : '') +
      `; warm-up ${p.warmup.arrived}/${p.warmup.sent}; signatures checked ${p.checkedSignatures}, bad ${p.badSignatures}` +
      `; simulator answer p50 ${msText(g.duration.p50)} / p99 ${msText(g.duration.p99)} ms, generator lag p99 ${msText(g.lag.p99)} ms` +
      `; load ${p.loadAverage[0]!.toFixed(2)}, ${p.seconds.toFixed(0)} s`,
  ];
  const details: string[] = [];
  if (p.split) {
    details.push(
      `answer → delivery recorded (deliveries.entregue_em, ms) p50 ${latency(p.split.toDelivered.p50)} / p95 ${latency(p.split.toDelivered.p95)}; ` +
        `then → receiver p50 ${latency(p.split.deliveredToArrival.p50)} / p95 ${latency(p.split.deliveredToArrival.p95)}`,
    );
  }
  details.push(`deliveries: ${p.deliveries.map((d) => `${d.n} ${d.status} (${d.attempts} attempts)`).join(', ') || 'none'}`);
  if (p.forwardLines) {
    details.push(
      `command lines: warm-up ${p.forwardLines.warmup.total}, measured ${p.forwardLines.measured.total} (${counts(p.forwardLines.measured.byAnswer)}; attempts ${counts(p.forwardLines.measured.byAttempt)})`,
    );
  }
  lines.push(`    ${details.join('; ')}`);
  return lines;
}

function row(direct: Phase | string | undefined, listened: Phase | string | undefined): SuiteRow {
  const base = { part: PART.id, name: `listen @ ${RATE}/s (direct webhook as baseline)`, target: TARGET };
  const arrivedText = (p: Phase) => `${p.arrived}/${p.sent} arrived`;
  const baselineText =
    direct === undefined
      ? 'direct: not measured'
      : typeof direct === 'string'
        ? 'direct: broken'
        : `direct: ${latencyText(direct.latency)}; ${arrivedText(direct)}`;
  if (listened === undefined || typeof listened === 'string') {
    return { ...base, figure: '–', baseline: baselineText, ratio: undefined, verdicts: {}, error: listened ?? 'not measured' };
  }
  const problems: string[] = [];
  if (listened.generator.errors > 0)
    problems.push(`listen: ${listened.generator.errors} simulator calls failed (${listened.generator.firstError})`);
  if (listened.badSignatures > 0) problems.push(`listen: ${listened.badSignatures} bad signatures at the receiver`);
  let ratio: number | undefined;
  let extraOk = false;
  if (direct === undefined || typeof direct === 'string') {
    problems.push(`the direct baseline could not be measured: ${direct ?? 'not measured'}`);
  } else {
    if (direct.generator.errors > 0) problems.push(`direct: ${direct.generator.errors} simulator calls failed`);
    if (direct.badSignatures > 0) problems.push(`direct: ${direct.badSignatures} bad signatures at the receiver`);
    // Nothing competes with the direct delivery: an event it loses means the measurement is broken.
    if (direct.missing > 0) problems.push(`direct: ${direct.missing} of ${direct.sent} events never arrived`);
    ratio = listened.latency.p95 / direct.latency.p95;
    extraOk = listened.latency.p95 <= direct.latency.p95 + EXTRA_P95_GOAL_MS;
  }
  return {
    ...base,
    figure: `${latencyText(listened.latency)}; ${arrivedText(listened)}`,
    baseline: baselineText,
    // Unbounded when listen's p95 never arrived (or the baseline is not positive): shown as –.
    ratio: ratio !== undefined && Number.isFinite(ratio) && ratio > 0 ? ratio : undefined,
    verdicts: {
      'all arrive': listened.missing === 0 && listened.generator.errors === 0,
      [`p95 ≤ direct + ${EXTRA_P95_GOAL_MS} ms`]: extraOk,
    },
    ...(problems.length > 0 ? { error: problems.join('; ') } : {}),
  };
}
