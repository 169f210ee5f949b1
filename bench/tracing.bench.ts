// Tracing (PostgreSQL): what OpenTelemetry tracing (src/observability/tracing.ts) costs,
// on against off in the same run. "On" is OTEL_EXPORTER_OTLP_ENDPOINT pointing at an
// OTLP sink in the bench process (node:http on 127.0.0.1: reads each POST /v1/traces
// body whole, counts requests and bytes, answers 200 at once with an empty response,
// decodes nothing);
// everything else about tracing is left at its defaults (protocol http/protobuf,
// OTEL_BSP_SCHEDULE_DELAY 5 s, queue 2,048, batches of 512, sampler
// parentbased_always_on). "Off" has no OTEL_* variable at all: those of the caller's
// environment are removed from both runs.
//
// - tracing-http: `node bin/consigna.js serve` (as the HTTP tables run it), five side by
//   side, each on a fresh database: off, on, sampled, a second off and a second on (how
//   far two identical services differ here, for their whole life, is as large as what is
//   measured); in each, POST /v1/links and GET /v1/links/{id} as bench/links.bench.ts
//   drives them (its own setups), closed loop (autocannon, 64 connections): --warmup s
//   unmeasured, then --duration s measured in rounds served in turns. Ratio: req/s of
//   the two on services together ÷ the two off services together. Then each service is
//   offered the same rate, open loop (lib/paced.ts), half of what the off services
//   served: the latency at a load the service carries, on ÷ off (p50).
// - tracing-delivery: one channel's webhook drain, as webhook-throughput measures it
//   (bench/webhooks.bench.ts): QUEUED events queued in one transaction, delivered by
//   `node bin/consigna.js worker` to the fast receiver (lib/webhooks/receiver.ts), rate
//   = deliveries ÷ (last − first arrival). Two workers, each on its own fresh database
//   and channel, one off and one on, drain in turn, ROUNDS rounds; medians.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { deriveKeys } from '../src/crypto/keys.ts';
import { systemClock } from '../src/clock.ts';
import type { Config } from '../src/config/config.ts';
import { createChannel } from '../src/channels/channels.service.ts';
import { registerWebhook } from '../src/webhooks/webhooks.service.ts';
import { cases as linkCases } from './links.bench.ts';
import { onCleanup } from './lib/cleanup.ts';
import { createContext } from './lib/context.ts';
import { cpuMeter } from './lib/cpu.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { runPaced, type PacedResult } from './lib/paced.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import {
  BenchError,
  freePort,
  indent,
  runCommand,
  sleep,
  startService,
  withoutServiceSettings,
  type ChildService,
} from './lib/process.ts';
import type { BenchCase, BenchChannel, BenchSuite, SuiteContext, SuitePart, SuiteRow } from './lib/types.ts';
import { benchEvents, type BenchEvent } from './lib/webhooks/bodies.ts';
import { enqueueEvents } from './lib/webhooks/enqueue.ts';
import { resetReceiver, waitForCount } from './lib/webhooks/receiver-client.ts';

const LIB = path.join(import.meta.dirname, 'lib', 'webhooks');
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';

/** Tracing on must keep at least this share of the figure off (req/s, deliveries/s). */
const MIN_RATIO = 0.9;
const TARGET = `on ≥ ${MIN_RATIO.toFixed(2)}× off`;
/** tracing-http: autocannon's connections (the run's default; --connections is not passed to suites). */
const CONNECTIONS = 64;
const HTTP_CASES = ['links-create', 'links-get'];
/** tracing-delivery: a smaller drain than webhook-throughput's 20,000, so that the part takes about a minute. */
const QUEUED = 10_000;
/** Drained unmeasured by each worker first (JIT, pools, connections). */
const DRAIN_WARMUP = 2_000;
/** Off and on drain in turn this many times; each is represented by its median round. */
const ROUNDS = 5;
/**
 * tracing-http, open loop: every service offered the same rate, this share of what the
 * two off services served closed-loop, in PACED_ROUNDS turns of a closed round's length.
 * The latency a request sees at a load the service carries, where the closed loop gives
 * what it can carry at most.
 */
const PACED_FRACTION = 0.5;
const PACED_ROUNDS = 3;
/** Open loop: the traced services' median p50 at most this multiple of the untraced ones'. */
const MAX_LATENCY_RATIO = 1.1;

const PARTS: SuitePart[] = [
  {
    id: 'tracing-http',
    name: 'POST /v1/links, GET /v1/links/{id}: tracing on vs off',
    target: `req/s ${TARGET}; open loop, p50 on ≤ ${MAX_LATENCY_RATIO.toFixed(2)}× off`,
  },
  {
    id: 'tracing-delivery',
    name: `deliveries/s from ${QUEUED.toLocaleString('en-US')} queued: tracing on vs off`,
    target: `deliveries/s ${TARGET}`,
  },
];

export const suites: BenchSuite[] = [
  {
    id: 'tracing',
    name: 'Tracing',
    backends: ['postgres'],
    parts: PARTS,
    run: runTracing,
  },
];

// 'sampled': on, with the head sampler keeping one trace in ten (parentbased_traceidratio 0.1).
// 'control' and 'repeat': off and on again, each in a second service. Two identical
// services side by side differ here by up to 10 % for their whole life (one process's
// JIT and heap, one database): the HTTP rows compare off and on two services each, and
// the second of each against the first shows the noise floor.
type Mode = 'off' | 'on' | 'sampled' | 'control' | 'repeat';
const MODES: Mode[] = ['off', 'on', 'sampled', 'control', 'repeat'];
const SAMPLED_RATIO = '0.1';
/** tracing-http: the measured seconds of each case and mode, in this many turns. */
const HTTP_ROUNDS = 5;

// ---------------------------------------------------------------------------------
// Formatting, CPU

const int = (v: number) => Math.round(v).toLocaleString('en-US');
const msText = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const kb = (bytes: number) => `${(bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} KB`;
const loadText = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');

const perUnit = (seconds: number | undefined, count: number) =>
  seconds === undefined || count <= 0 ? 'n/a' : `${Math.round((seconds * 1e6) / count)} µs`;

// ---------------------------------------------------------------------------------
// The OTLP sink

interface SinkCount {
  /** POST /v1/traces requests whose body was read whole. */
  requests: number;
  /** Their bodies' bytes, as received (compressed if the exporter compressed). */
  bytes: number;
  /** Anything else that reached the sink (another path or method). */
  other: number;
  /** content-type (and content-encoding) → requests. */
  kinds: Record<string, number>;
}

interface OtlpSink {
  /** The base to give as OTEL_EXPORTER_OTLP_ENDPOINT (the service appends /v1/traces). */
  url: string;
  count(): SinkCount;
  close(): Promise<void>;
}

const delta = (a: SinkCount, b: SinkCount) => ({ requests: b.requests - a.requests, bytes: b.bytes - a.bytes });

async function startSink(): Promise<OtlpSink> {
  const count: SinkCount = { requests: 0, bytes: 0, other: 0, kinds: {} };
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/v1/traces') {
      count.other += 1;
      req.resume();
      res.writeHead(404).end();
      return;
    }
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on('end', () => {
      count.requests += 1;
      count.bytes += bytes;
      const kind = `${req.headers['content-type'] ?? 'no content-type'}${req.headers['content-encoding'] ? ` + ${req.headers['content-encoding']}` : ''}`;
      count.kinds[kind] = (count.kinds[kind] ?? 0) + 1;
      // As an OTLP collector answers (OTLP/HTTP: the response has the request's content
      // type): an empty ExportTraceServiceResponse, which is no bytes in protobuf and `{}`
      // in JSON. (Until 2026-11-27 the sink answered `{}` to protobuf too, and the
      // exporter spent CPU decoding it as protobuf: ~0.2 µs of each traced GET.)
      if (req.headers['content-type'] === 'application/x-protobuf') {
        res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
        res.end('{}');
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  const close = onCleanup('close the OTLP sink', async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => ({ ...count, kinds: { ...count.kinds } }),
    close,
  };
}

// ---------------------------------------------------------------------------------
// Environments

/** OTEL_* names of the caller's environment: removed from every child (off and on). */
function callerOtel(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('OTEL_'))
    .sort();
}

/** The service's environment without the bench's own settings and without any OTEL_* variable. */
function serviceBase(ctx: SuiteContext): NodeJS.ProcessEnv {
  const env = withoutServiceSettings(ctx.env);
  for (const name of callerOtel(env)) delete env[name];
  return env;
}

/** Tracing on: the sink as the OTLP endpoint, everything else at its default. */
function withTracing(env: NodeJS.ProcessEnv, mode: Mode, sink: OtlpSink): NodeJS.ProcessEnv {
  if (mode === 'off' || mode === 'control') return env;
  const sampler =
    mode === 'sampled' ? { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: SAMPLED_RATIO } : {};
  return { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, ...sampler };
}

// ---------------------------------------------------------------------------------
// The suite

async function runTracing(ctx: SuiteContext, parts: SuitePart[]) {
  const want = (id: string) => parts.some((p) => p.id === id);
  const rows: SuiteRow[] = [];
  const notes: string[] = [];
  const raw: Record<string, unknown> = { loadAverageAtStart: os.loadavg() };
  const ignored = callerOtel(ctx.env);
  notes.push(
    `tracing on: OTEL_EXPORTER_OTLP_ENDPOINT=<sink> only (http/protobuf, OTEL_BSP_SCHEDULE_DELAY 5 s, queue 2,048, batches of 512: the defaults); ` +
      `off: no OTEL_* variable.${ignored.length > 0 ? ` Removed from your environment for both: ${ignored.join(', ')}.` : ''}`,
  );
  notes.push(`load average (1, 5, 15 min) at start: ${loadText(os.loadavg())}`);
  const sink = await startSink();
  try {
    if (want('tracing-http')) {
      const part = await httpPart(ctx, sink);
      rows.push(...part.rows);
      notes.push(...part.notes);
      raw.http = part.raw;
    }
    if (want('tracing-delivery')) {
      const part = await deliveryPart(ctx, sink);
      rows.push(part.row);
      notes.push(...part.notes);
      raw.delivery = part.raw;
    }
  } finally {
    await sink.close();
  }
  raw.sink = sink.count();
  raw.loadAverageAtEnd = os.loadavg();
  notes.push(`load average (1, 5, 15 min) at end: ${loadText(os.loadavg())}`);
  return {
    title:
      'Tracing: the cost of OpenTelemetry spans, on vs off in the same run (OTLP sink, service and PostgreSQL on this machine)',
    rows,
    notes,
    raw,
  };
}

// ---------------------------------------------------------------------------------
// tracing-http

interface CaseRun {
  id: string;
  name: string;
  /** The rounds together (see merged). */
  result: LoadResult;
  /** req/s of each round, in round order. */
  perRound: number[];
  /** CPU seconds of the service during the measured seconds. */
  cpuSeconds: number | undefined;
  /** What the sink received during the measured seconds. */
  sink: { requests: number; bytes: number };
  /** Open-loop rounds at the same offered rate for every service, in round order. */
  paced: PacedResult[];
  error: string | undefined;
}

interface HttpRun {
  mode: Mode;
  cases: CaseRun[];
  /** What the sink received from the service's start to its exit (its last flush included). */
  sink: { requests: number; bytes: number };
  peakRss: number | undefined;
  loadAverage: number[];
}

function parseChannel(output: string): BenchChannel {
  try {
    const parsed = JSON.parse(output) as Partial<BenchChannel>;
    if (typeof parsed.clientId === 'string' && typeof parsed.clientSecret === 'string' && typeof parsed.canalId === 'string') {
      return { canalId: parsed.canalId, clientId: parsed.clientId, clientSecret: parsed.clientSecret };
    }
  } catch {
    // reported below
  }
  throw new BenchError(`consigna channels create --json printed something unexpected:\n${indent(output.trim())}`);
}

function describeFailures(result: LoadResult): string {
  const parts = Object.entries(result.statusCodes).map(([code, count]) => `${count}× ${code}`);
  if (result.errors > 0) parts.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
  return `${result.failures} failed of ${result.requests} requests (${parts.join(', ')})`;
}

/** A mode's service: its own fresh database, channel and `consigna serve`. */
interface Served {
  mode: Mode;
  service: ChildService;
  api: ReturnType<typeof createContext>;
  drop: () => Promise<void>;
  sinkAtStart: SinkCount;
}

async function startServed(ctx: SuiteContext, mode: Mode, sink: OtlpSink): Promise<Served> {
  const benchDb = await createBenchDatabase(ctx.adminUrl);
  ctx.log(`tracing ${mode}: database ${benchDb.name}`);
  try {
    const port = await freePort();
    const env = serviceBase(ctx);
    Object.assign(env, {
      DATABASE_URL: benchDb.url,
      CONSIGNA_MASTER_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL,
      // One channel sends all the load (as in the HTTP tables).
      CONSIGNA_RATE_LIMIT_API: ctx.env.CONSIGNA_RATE_LIMIT_API ?? '0/60',
      // Five services at the default 20 (and their listening connections) would pass
      // PostgreSQL's default max_connections of 100, and answer 503 db_unavailable.
      CONSIGNA_PG_POOL_SIZE: ctx.env.CONSIGNA_PG_POOL_SIZE ?? '16',
    });
    // The channel with the CLI (as the HTTP tables create theirs), never traced.
    const output = await runCommand(
      'consigna channels create',
      ['bin/consigna.js', 'channels', 'create', '--name', `Bench tracing ${mode}`, '--json'],
      { cwd: ctx.root, env },
    );
    const channel = parseChannel(output);
    const sinkAtStart = sink.count();
    ctx.log(`tracing ${mode}: starting consigna serve…`);
    const service = await startService({
      label: `consigna serve (tracing ${mode})`,
      args: ['bin/consigna.js', 'serve'],
      cwd: ctx.root,
      env: withTracing(env, mode, sink),
      port,
    });
    return { mode, service, api: createContext(service.url, 'postgres', channel), drop: () => benchDb.drop(), sinkAtStart };
  } catch (error) {
    await benchDb.drop();
    throw error;
  }
}

const medianOf = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/** The rounds of one case in one mode, as one result: requests and seconds summed, percentiles the rounds' median. */
function merged(rounds: LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => rounds.reduce((n, r) => n + pick(r), 0);
  const median = (pick: (r: LoadResult) => number) => medianOf(rounds.map(pick));
  const statusCodes: Record<string, number> = {};
  for (const r of rounds) for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    rps: sum((r) => r.requests) / sum((r) => r.durationSeconds),
    p50: median((r) => r.p50),
    p90: median((r) => r.p90),
    p99: median((r) => r.p99),
    max: Math.max(...rounds.map((r) => r.max)),
    requests: sum((r) => r.requests),
    durationSeconds: sum((r) => r.durationSeconds),
    failures: sum((r) => r.failures),
    statusCodes,
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    raw: rounds[rounds.length - 1]!.raw,
  };
}

/**
 * The three services (off, on, sampled) run side by side, each on its own database; for
 * each case, every service gets its warm-up, then the measured seconds are split into
 * HTTP_ROUNDS phases served in turns, the order rotating each round. A machine whose
 * speed drifts over a minute (seen here: the same request's CPU moving by half between
 * two runs a minute apart) then slows every mode alike, instead of whichever ran last.
 */
async function httpRuns(
  ctx: SuiteContext,
  sinks: Record<Mode, OtlpSink>,
  benchCases: BenchCase[],
): Promise<Record<Mode, HttpRun>> {
  const served: Served[] = [];
  try {
    for (const mode of MODES) served.push(await startServed(ctx, mode, sinks[mode]));
    const cases: Record<Mode, CaseRun[]> = { off: [], on: [], sampled: [], control: [], repeat: [] };
    const phase = Math.max(1, Math.round(ctx.duration / HTTP_ROUNDS));
    for (const benchCase of benchCases) {
      const specs = [];
      for (const s of served) specs.push(await benchCase.setup(s.api));
      const load = (s: Served) => ({ url: s.service.url, connections: CONNECTIONS, warmup: 0 });
      if (ctx.warmup > 0) {
        ctx.log(`tracing: ${benchCase.name}, ${ctx.warmup} s warm-up of each mode…`);
        for (const [i, s] of served.entries()) await runLoad(specs[i]!, { ...load(s), duration: ctx.warmup });
      }
      ctx.log(`tracing: ${benchCase.name}, ${HTTP_ROUNDS} rounds of ${phase} s per mode, in turns…`);
      const rounds = served.map(() => ({
        results: [] as LoadResult[],
        paced: [] as PacedResult[],
        cpu: 0 as number | undefined,
        sink: { requests: 0, bytes: 0 },
      }));
      for (let round = 0; round < HTTP_ROUNDS; round++) {
        for (let k = 0; k < served.length; k++) {
          const i = (k + round) % served.length;
          const s = served[i]!;
          const before = sinks[s.mode].count();
          const cpu = cpuMeter(s.service.pid);
          const result = await runLoad(specs[i]!, { ...load(s), duration: phase });
          const used = cpu();
          const r = rounds[i]!;
          r.results.push(result);
          r.cpu = used === undefined || r.cpu === undefined ? undefined : r.cpu + used;
          const d = delta(before, sinks[s.mode].count());
          r.sink = { requests: r.sink.requests + d.requests, bytes: r.sink.bytes + d.bytes };
        }
      }
      // The same offered rate for all: a share of what the untraced services served.
      const untraced = served.flatMap((s, i) => (s.mode === 'off' || s.mode === 'control' ? rounds[i]!.results : []));
      const rate = Math.max(
        1,
        Math.round(
          (PACED_FRACTION * untraced.reduce((n, r) => n + r.requests, 0)) / untraced.reduce((n, r) => n + r.durationSeconds, 0),
        ),
      );
      ctx.log(`tracing: ${benchCase.name}, open loop at ${rate} req/s, ${PACED_ROUNDS} rounds of ${phase} s per mode, in turns…`);
      for (let round = 0; round < PACED_ROUNDS; round++) {
        for (let k = 0; k < served.length; k++) {
          const i = (k + round) % served.length;
          rounds[i]!.paced.push(await runPaced(specs[i]!, { ...load(served[i]!), duration: phase, rate }));
        }
      }
      for (const [i, s] of served.entries()) {
        const { results, paced, cpu, sink } = rounds[i]!;
        const result = merged(results);
        cases[s.mode].push({
          id: benchCase.id,
          name: benchCase.name,
          result,
          perRound: results.map((r) => r.rps),
          cpuSeconds: cpu,
          sink,
          paced,
          error:
            result.failures > 0
              ? describeFailures(result)
              : paced.some((p) => p.failures > 0)
                ? `open loop: ${paced.reduce((n, p) => n + p.failures, 0)} failed of ${paced.reduce((n, p) => n + p.requests, 0)} requests`
                : undefined,
        });
        await benchCase.teardown?.(s.api);
      }
    }
    const runs = {} as Record<Mode, HttpRun>;
    for (const s of served) {
      const peakRss = s.service.peakRss();
      const loadAverage = os.loadavg();
      // SIGTERM: the service flushes its spans while stopping (counted in the total).
      await s.service.stop(15_000);
      runs[s.mode] = {
        mode: s.mode,
        cases: cases[s.mode],
        sink: delta(s.sinkAtStart, sinks[s.mode].count()),
        peakRss,
        loadAverage,
      };
    }
    return runs;
  } catch (error) {
    for (const s of served) {
      const output = s.service.output();
      if (output && !(error instanceof BenchError)) ctx.log(`tracing ${s.mode}: last lines of the service:\n${indent(output)}`);
    }
    throw error;
  } finally {
    for (const s of served) {
      await s.service.stop();
      await s.drop();
    }
  }
}

async function httpPart(ctx: SuiteContext, sink: OtlpSink) {
  const benchCases = HTTP_CASES.map((id) => {
    const found = linkCases.find((c) => c.id === id);
    if (!found) throw new BenchError(`bench/links.bench.ts has no case "${id}"`);
    return found;
  });
  // A sink per mode, so that what each received is its own even while the others run.
  const offSink = await startSink();
  const sampledSink = await startSink();
  const controlSink = await startSink();
  const repeatSink = await startSink();
  let runs: Record<Mode, HttpRun>;
  try {
    runs = await httpRuns(
      ctx,
      { off: offSink, on: sink, sampled: sampledSink, control: controlSink, repeat: repeatSink },
      benchCases,
    );
  } finally {
    await offSink.close();
    await sampledSink.close();
    await controlSink.close();
    await repeatSink.close();
  }
  const { off, on, sampled, control, repeat } = runs;
  const figure = (r: LoadResult) => `${int(r.rps)} req/s · p50 ${msText(r.p50)} · p99 ${msText(r.p99)} ms`;
  // Two services' requests over their seconds together.
  const pooled = (x: CaseRun, y: CaseRun) =>
    (x.result.requests + y.result.requests) / (x.result.durationSeconds + y.result.durationSeconds);
  const problems: string[] = [];
  if (off.sink.requests > 0) problems.push(`the sink received ${off.sink.requests} export requests while tracing was off`);
  if (control.sink.requests > 0)
    problems.push(`the control's sink received ${control.sink.requests} export requests (its tracing is off)`);
  if (on.sink.requests === 0 || repeat.sink.requests === 0)
    problems.push('a sink received no export request while tracing was on: no span flowed');
  const rows: SuiteRow[] = benchCases.map((benchCase, i) => {
    const a = off.cases[i]!;
    const b = on.cases[i]!;
    const a2 = control.cases[i]!;
    const b2 = repeat.cases[i]!;
    const ratio = pooled(b, b2) / pooled(a, a2);
    const errors = [
      ...(a.error ? [`off: ${a.error}`] : []),
      ...(b.error ? [`on: ${b.error}`] : []),
      ...(a2.error ? [`off, second: ${a2.error}`] : []),
      ...(b2.error ? [`on, second: ${b2.error}`] : []),
      ...problems,
    ];
    return {
      part: 'tracing-http',
      name: `${benchCase.name}, closed loop, ${CONNECTIONS} connections, two services each`,
      figure: `on: ${int(b.result.rps)} + ${int(b2.result.rps)} req/s · p99 ${msText(b.result.p99)}, ${msText(b2.result.p99)} ms`,
      baseline: `off: ${int(a.result.rps)} + ${int(a2.result.rps)} req/s · p99 ${msText(a.result.p99)}, ${msText(a2.result.p99)} ms`,
      ratio,
      target: `req/s ${TARGET}`,
      verdicts: { [`≥ ${MIN_RATIO.toFixed(2)}×`]: ratio >= MIN_RATIO },
      ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
    };
  });
  // Open loop: each mode's p50 and p99, the median over its two services' rounds.
  const latency = (x: CaseRun, y: CaseRun) => ({
    p50: medianOf([...x.paced, ...y.paced].map((p) => p.p50)),
    p99: medianOf([...x.paced, ...y.paced].map((p) => p.p99)),
    rate: x.paced[0]?.offeredRate ?? 0,
  });
  rows.push(
    ...benchCases.map((benchCase, i): SuiteRow => {
      const a = latency(off.cases[i]!, control.cases[i]!);
      const b = latency(on.cases[i]!, repeat.cases[i]!);
      const ratio = b.p50 / a.p50;
      return {
        part: 'tracing-http',
        name: `${benchCase.name}, open loop at ${Math.round(PACED_FRACTION * 100)} % of off's req/s (${int(a.rate)} req/s), two services each`,
        figure: `on: p50 ${msText(b.p50)} · p99 ${msText(b.p99)} ms`,
        baseline: `off: p50 ${msText(a.p50)} · p99 ${msText(a.p99)} ms`,
        ratio,
        target: `p50 on ≤ ${MAX_LATENCY_RATIO.toFixed(2)}× off`,
        verdicts: { [`p50 ≤ ${MAX_LATENCY_RATIO.toFixed(2)}×`]: ratio <= MAX_LATENCY_RATIO },
      };
    }),
  );
  rows.push(
    ...benchCases.map((benchCase, i): SuiteRow => {
      const c = sampled.cases[i]!;
      const offBoth = pooled(off.cases[i]!, control.cases[i]!);
      const ratio = c.result.rps / offBoth;
      return {
        part: 'tracing-http',
        name: `${benchCase.name}, sampled ${SAMPLED_RATIO} (parentbased_traceidratio)`,
        figure: `sampled: ${figure(c.result)}`,
        baseline: `off, two services: ${int(offBoth)} req/s`,
        ratio,
        target: `req/s ${TARGET}`,
        verdicts: { [`≥ ${MIN_RATIO.toFixed(2)}×`]: ratio >= MIN_RATIO },
        ...(c.error ? { error: `sampled: ${c.error}` } : {}),
      };
    }),
  );
  // Second service ÷ first, with no target: the noise floor of the rows above.
  const spread = (first: HttpRun, second: HttpRun, label: string, what: string, target: string) =>
    benchCases.map((benchCase, i): SuiteRow => ({
      part: 'tracing-http',
      name: `${benchCase.name}, a second service with ${what}`,
      figure: `${label}, second: ${figure(second.cases[i]!.result)}`,
      baseline: `${label}: ${figure(first.cases[i]!.result)}`,
      ratio: second.cases[i]!.result.rps / first.cases[i]!.result.rps,
      target,
      verdicts: {},
      ...(second.cases[i]!.error ? { error: `${label}, second: ${second.cases[i]!.error}` } : {}),
    }));
  rows.push(
    ...spread(
      off,
      control,
      'off',
      'tracing off (control)',
      'none: the spread between two identical services, the noise floor of the rows above',
    ),
    ...spread(on, repeat, 'on', 'tracing on', 'none: the same spread, with tracing on'),
  );
  const caseNote = (a: CaseRun, b: CaseRun) =>
    `  ${a.name}: p99 on ÷ off ${(b.result.p99 / a.result.p99).toFixed(2)}×; service CPU per request off ${perUnit(a.cpuSeconds, a.result.requests)}, on ${perUnit(b.cpuSeconds, b.result.requests)}; ` +
    `${int(a.result.requests)} / ${int(b.result.requests)} requests; sink during its measured rounds: ${b.sink.requests} export requests, ${kb(b.sink.bytes)}`;
  const notes = [
    `http: node bin/consigna.js serve, five side by side (off, on, sampled, a second off and a second on), each with its own fresh database and CONSIGNA_PG_POOL_SIZE=16 (five at 20 pass max_connections); the cases of bench/links.bench.ts (their setups: 1 + 100 links created), ` +
      `autocannon in the bench process, ${CONNECTIONS} connections; per case, ${ctx.warmup} s warm-up of each service, then ${HTTP_ROUNDS} rounds of ${Math.max(1, Math.round(ctx.duration / HTTP_ROUNDS))} s per service in turns (order rotating); ` +
      `ratio = requests per second of the two on services together ÷ the two off services together, over all rounds (sampled: its one service ÷ the two off); p50, p99: the rounds' median.`,
    ...benchCases.map(
      (_, i) =>
        `  ${off.cases[i]!.name}, on ÷ off per round: ${on.cases[i]!.perRound.map((rps, r) => (rps / off.cases[i]!.perRound[r]!).toFixed(2)).join(', ')}`,
    ),
    ...benchCases.map(
      (_, i) =>
        `  ${off.cases[i]!.name}, control ÷ off per round: ${control.cases[i]!.perRound.map((rps, r) => (rps / off.cases[i]!.perRound[r]!).toFixed(2)).join(', ')}; ` +
        `control's CPU per request ${perUnit(control.cases[i]!.cpuSeconds, control.cases[i]!.result.requests)}`,
    ),
    ...benchCases.map(
      (_, i) =>
        `  ${off.cases[i]!.name}, second on ÷ on per round: ${repeat.cases[i]!.perRound.map((rps, r) => (rps / on.cases[i]!.perRound[r]!).toFixed(2)).join(', ')}; ` +
        `the second on's CPU per request ${perUnit(repeat.cases[i]!.cpuSeconds, repeat.cases[i]!.result.requests)}`,
    ),
    ...benchCases.map((_, i) => caseNote(off.cases[i]!, on.cases[i]!)),
    ...benchCases.map((_, i) => {
      const p50s = (c: CaseRun) => c.paced.map((p) => msText(p.p50)).join(' ');
      return (
        `  ${off.cases[i]!.name}, open loop at ${int(off.cases[i]!.paced[0]?.offeredRate ?? 0)} req/s (${Math.round(PACED_FRACTION * 100)} % of the off services' closed-loop req/s), ${PACED_ROUNDS} rounds per service in turns, p50 per round (ms): ` +
        `off ${p50s(off.cases[i]!)} · ${p50s(control.cases[i]!)}; on ${p50s(on.cases[i]!)} · ${p50s(repeat.cases[i]!)}; sampled ${p50s(sampled.cases[i]!)}`
      );
    }),
    ...benchCases.map(
      (_, i) =>
        `  sampled ${SAMPLED_RATIO}, ${sampled.cases[i]!.name}: service CPU per request ${perUnit(sampled.cases[i]!.cpuSeconds, sampled.cases[i]!.result.requests)}; sink ${sampled.cases[i]!.sink.requests} export requests, ${kb(sampled.cases[i]!.sink.bytes)}`,
    ),
    `  sink, tracing on, from the service's start to its exit (shutdown flush included): ${on.sink.requests} export requests, ${kb(on.sink.bytes)}; tracing off: ${off.sink.requests} (expected 0); ` +
      `load average at the end: off ${loadText(off.loadAverage)}, on ${loadText(on.loadAverage)}`,
  ];
  return { rows, notes, raw: { connections: CONNECTIONS, off, on, sampled, control, repeat } };
}

// ---------------------------------------------------------------------------------
// tracing-delivery

interface Worker {
  mode: Mode;
  dbName: string;
  database: Database;
  channelId: string;
  secret: string;
  process: ChildService;
}

interface DrainRun {
  count: number;
  expected: number;
  /** Deliveries per second between the first and the last arrival. */
  rate: number;
  seconds: number;
  badSignatures: number;
  /** CPU seconds of the worker during the drain. */
  cpuSeconds: number | undefined;
  /** What the sink received from the enqueue to the last arrival. */
  sink: { requests: number; bytes: number };
  loadAverage: number[];
}

/** A fresh database with one channel whose webhook is the receiver, and its `consigna worker`. */
async function startWorker(
  ctx: SuiteContext,
  mode: Mode,
  sink: OtlpSink,
  receiverUrl: string,
  stops: Array<() => Promise<void>>,
): Promise<Worker> {
  const benchDb = await createBenchDatabase(ctx.adminUrl);
  stops.push(benchDb.drop);
  ctx.log(`tracing ${mode}: database ${benchDb.name}`);
  const database = await openDatabase({ databaseUrl: benchDb.url, poolSize: 4 });
  stops.push(() => database.close());
  await migrate(database);
  const masterKey = randomBytes(32);
  const deps = {
    database,
    keys: deriveKeys(masterKey),
    clock: systemClock,
    config: { ambiente: 'SANDBOX', allowInsecureWebhooks: true, publicBaseUrl: 'http://127.0.0.1:9' } as Config,
  };
  const channel = await createChannel(deps, { name: `Bench tracing ${mode}` });
  const registered = await registerWebhook(deps, channel.canalId, { url: `${receiverUrl}/tracing-${mode}` });
  const secret = registered.webhook.segredo;
  if (!secret) throw new BenchError('registering the webhook returned no secret');
  const env = serviceBase(ctx);
  Object.assign(env, {
    DATABASE_URL: benchDb.url,
    CONSIGNA_MASTER_KEY: masterKey.toString('hex'),
    CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
    LOG_LEVEL,
  });
  ctx.log(`tracing ${mode}: starting node bin/consigna.js worker…`);
  const worker = await startService({
    label: `consigna worker (tracing ${mode})`,
    args: ['bin/consigna.js', 'worker'],
    cwd: ctx.root,
    env: withTracing(env, mode, sink),
    port: 0,
    readyLine: 'Consigna worker running (postgres).',
  });
  stops.push(() => worker.stop(15_000));
  return { mode, dbName: benchDb.name, database, channelId: channel.canalId, secret, process: worker };
}

/** As the outbox writes them (lib/webhooks/enqueue.ts). */
function enqueue(worker: Worker, events: BenchEvent[]): Promise<void> {
  return enqueueEvents(worker.database, worker.channelId, events);
}

async function deliveryPart(ctx: SuiteContext, sink: OtlpSink) {
  const stops: Array<() => Promise<void>> = [];
  try {
    const receiverPort = await freePort();
    ctx.log('starting the receiver…');
    const receiver = await startService({
      label: 'webhook receiver',
      args: [path.join(LIB, 'receiver.ts')],
      cwd: ctx.root,
      env: { ...ctx.env, PORT: String(receiverPort), HOST: '127.0.0.1' },
      port: receiverPort,
    });
    stops.push(() => receiver.stop());
    const receiverUrl = receiver.url;
    const off = await startWorker(ctx, 'off', sink, receiverUrl, stops);
    const on = await startWorker(ctx, 'on', sink, receiverUrl, stops);

    let tag = (Date.now() & 0x3fffffff) * 2 + 13;
    const nextTag = () => (tag += 16);
    const drain = async (worker: Worker, round: number): Promise<DrainRun> => {
      if (round === 1) {
        ctx.log(`delivery: tracing ${worker.mode}, warm-up drain of ${DRAIN_WARMUP}…`);
        await resetReceiver(receiverUrl, worker.secret);
        await enqueue(worker, benchEvents(nextTag(), DRAIN_WARMUP, new Date()));
        const warm = await waitForCount(receiverUrl, DRAIN_WARMUP);
        if (warm.count < DRAIN_WARMUP)
          throw new BenchError(`tracing ${worker.mode}: only ${warm.count} of ${DRAIN_WARMUP} warm-up deliveries arrived`);
      }
      await sleep(500);
      await resetReceiver(receiverUrl, worker.secret);
      const events = benchEvents(nextTag(), QUEUED, new Date());
      ctx.log(`delivery round ${round}: tracing ${worker.mode}, draining ${QUEUED} queued…`);
      const loadAverage = os.loadavg();
      const sinkBefore = sink.count();
      const cpu = cpuMeter(worker.process.pid);
      await enqueue(worker, events);
      const count = await waitForCount(receiverUrl, QUEUED);
      const cpuSpent = cpu();
      const seconds = count.first !== null && count.last !== null ? (count.last - count.first) / 1000 : Number.NaN;
      return {
        count: count.count,
        expected: QUEUED,
        rate: (Math.min(count.count, QUEUED) - 1) / seconds,
        seconds,
        badSignatures: count.badSignatures,
        cpuSeconds: cpuSpent,
        sink: delta(sinkBefore, sink.count()),
        loadAverage,
      };
    };

    // Back-to-back drains vary by ±30 % on a shared VM: off and on in turn, medians.
    const rounds: Array<{ off: DrainRun; on: DrainRun }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const a = await drain(off, round);
      const b = await drain(on, round);
      rounds.push({ off: a, on: b });
    }
    const median = (runs: DrainRun[]): DrainRun => [...runs].sort((x, y) => x.rate - y.rate)[Math.floor(runs.length / 2)]!;
    const offRun = median(rounds.map((r) => r.off));
    const onRun = median(rounds.map((r) => r.on));
    const ratio = onRun.rate / offRun.rate;
    const ratios = rounds.map((r) => r.on.rate / r.off.rate);
    const onSink = rounds.reduce((s, r) => ({ requests: s.requests + r.on.sink.requests, bytes: s.bytes + r.on.sink.bytes }), {
      requests: 0,
      bytes: 0,
    });
    const offSink = rounds.reduce((s, r) => s + r.off.sink.requests, 0);

    const problems: string[] = [];
    for (const [mode, run] of rounds.flatMap((r) => [['off', r.off] as const, ['on', r.on] as const])) {
      if (run.count < run.expected) problems.push(`${mode}: only ${run.count} of ${run.expected} deliveries arrived`);
      if (run.badSignatures > 0) problems.push(`${mode}: ${run.badSignatures} bad signatures`);
    }
    if (onSink.requests === 0) problems.push('the sink received no export request during the traced drains: no span flowed');
    const perSecond = (v: number) => `${int(v)}/s`;
    const describe = (run: DrainRun) =>
      `${perSecond(run.rate)} (${run.seconds.toFixed(2)} s; worker CPU per delivery ${perUnit(run.cpuSeconds, run.expected)}; load ${run.loadAverage[0]!.toFixed(2)})`;
    const row: SuiteRow = {
      part: 'tracing-delivery',
      name: `deliveries/s, ${QUEUED.toLocaleString('en-US')} queued, one channel, consigna worker`,
      figure: `on: ${perSecond(onRun.rate)}`,
      baseline: `off: ${perSecond(offRun.rate)}`,
      ratio,
      target: `deliveries/s ${TARGET}`,
      verdicts: { [`≥ ${MIN_RATIO.toFixed(2)}×`]: ratio >= MIN_RATIO },
      ...(problems.length > 0 ? { error: problems.join('; ') } : {}),
    };
    const notes = [
      `delivery: two node bin/consigna.js worker (service defaults, CONSIGNA_ALLOW_INSECURE_WEBHOOKS=true), each with its own fresh database and channel, one off and one on; ` +
        `each drained ${DRAIN_WARMUP.toLocaleString('en-US')} events first (unmeasured), then ${QUEUED.toLocaleString('en-US')} queued in one transaction per drain, off and on in turn, ${ROUNDS} rounds; ` +
        `rate = deliveries ÷ (last − first arrival) at the receiver (lib/webhooks/receiver.ts); medians, ratio of medians.`,
      `  off: ${describe(offRun)}`,
      `  on: ${describe(onRun)}`,
      `  on ÷ off per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; sink during the traced drains: ${onSink.requests} export requests, ${kb(onSink.bytes)} ` +
        `(${int(onSink.bytes / Math.max(1, QUEUED * ROUNDS))} bytes per delivery); during the untraced ones: ${offSink} (the traced worker's last batch of the round before, exported up to OTEL_BSP_SCHEDULE_DELAY later)`,
      `  the queued events carry no trace context (as rows written with tracing off): each attempt's span starts a trace of its own.`,
    ];
    return { row, notes, raw: { queued: QUEUED, warmup: DRAIN_WARMUP, rounds, off: offRun, on: onRun } };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}
