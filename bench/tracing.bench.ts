// Tracing (PostgreSQL): what OpenTelemetry tracing (src/observability/tracing.ts) costs
// GET /v1/links/{id}, the cheapest traced request, so the largest share. Three
// `node bin/consigna.js serve` side by side, each on its own fresh database: off (no
// OTEL_* variable), on (OTEL_EXPORTER_OTLP_ENDPOINT only: parentbased_always_on,
// http/protobuf, the OTEL_BSP_* defaults) and sampled (parentbased_traceidratio 0.1).
// "On" exports to an OTLP sink in the bench process (node:http on 127.0.0.1: reads each
// POST /v1/traces whole, answers 200, decodes nothing). Each service gets --warmup s, then
// --duration s measured in ROUNDS turns, the order rotating (a machine whose speed drifts
// then slows every mode alike). Reported, with no target: req/s on ÷ off and sampled ÷ off,
// and each mode's service CPU per request.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import { cases as linkCases } from './links.bench.ts';
import { onCleanup } from './lib/cleanup.ts';
import { createContext } from './lib/context.ts';
import { cpuMeter } from './lib/cpu.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import {
  BenchError,
  freePort,
  indent,
  runCommand,
  startService,
  withoutServiceSettings,
  type ChildService,
} from './lib/process.ts';
import type { BenchChannel, BenchSuite, SuiteContext, SuiteOutcome, SuitePart, SuiteRow } from './lib/types.ts';

const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
/** autocannon's connections (the run's default; --connections is not passed to suites). */
const CONNECTIONS = 64;
const ROUNDS = 5;
const SAMPLED_RATIO = '0.1';

type Mode = 'off' | 'on' | 'sampled';
const MODES: Mode[] = ['off', 'on', 'sampled'];
const SAMPLERS: Record<Mode, string> = {
  off: 'off',
  on: 'parentbased_always_on',
  sampled: `parentbased_traceidratio ${SAMPLED_RATIO}`,
};

const PART: SuitePart = {
  id: 'tracing-get',
  name: 'GET /v1/links/{id}: tracing on and sampled ÷ off',
  target: 'none (reported)',
};

export const suites: BenchSuite[] = [{ id: 'tracing', name: 'Tracing', backends: ['postgres'], parts: [PART], run: runTracing }];

const int = (v: number) => Math.round(v).toLocaleString('en-US');
const ms = (v: number) => (v >= 10 ? v.toFixed(1) : v.toFixed(2));
const perRequest = (cpu: number | undefined, requests: number) =>
  cpu === undefined || requests === 0 ? 'n/a' : `${Math.round((cpu * 1e6) / requests)} µs`;

interface Sink {
  url: string;
  requests(): number;
  close(): Promise<void>;
}

/** An OTLP/HTTP endpoint that counts export requests and answers as a collector does. */
async function startSink(): Promise<Sink> {
  let requests = 0;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/v1/traces') requests += 1;
      // An empty ExportTraceServiceResponse: no bytes in protobuf.
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 }).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const close = onCleanup('close the OTLP sink', async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${port}`, requests: () => requests, close };
}

interface Served {
  mode: Mode;
  service: ChildService;
  sink: Sink;
  api: ReturnType<typeof createContext>;
  drop: () => Promise<void>;
}

/** A mode's `consigna serve`: its own database, a channel made by the CLI (untraced), its own sink. */
async function startServed(ctx: SuiteContext, mode: Mode): Promise<Served> {
  const benchDb = await createBenchDatabase(ctx.adminUrl);
  const sink = await startSink();
  try {
    const port = await freePort();
    const env = withoutServiceSettings(ctx.env);
    for (const name of Object.keys(env)) if (name.startsWith('OTEL_')) delete env[name];
    Object.assign(env, {
      DATABASE_URL: benchDb.url,
      CONSIGNA_MASTER_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL,
      // One channel sends all the load (as in the HTTP tables).
      CONSIGNA_RATE_LIMIT_API: ctx.env.CONSIGNA_RATE_LIMIT_API ?? '0/60',
    });
    const output = await runCommand(
      'consigna channels create',
      ['bin/consigna.js', 'channels', 'create', '--name', `Bench tracing ${mode}`, '--json'],
      { cwd: ctx.root, env },
    );
    const channel = JSON.parse(output) as BenchChannel;
    const tracing =
      mode === 'off'
        ? {}
        : {
            OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
            ...(mode === 'sampled'
              ? { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: SAMPLED_RATIO }
              : {}),
          };
    ctx.log(`tracing ${mode}: starting consigna serve…`);
    const service = await startService({
      label: `consigna serve (tracing ${mode})`,
      args: ['bin/consigna.js', 'serve'],
      cwd: ctx.root,
      env: { ...env, ...tracing },
      port,
    });
    return { mode, service, sink, api: createContext(service.url, 'postgres', channel), drop: () => benchDb.drop() };
  } catch (error) {
    await sink.close();
    await benchDb.drop();
    throw error;
  }
}

interface ModeRun {
  rounds: LoadResult[];
  requests: number;
  rps: number;
  p99: number;
  cpuSeconds: number | undefined;
}

async function runTracing(ctx: SuiteContext): Promise<SuiteOutcome> {
  const getCase = linkCases.find((c) => c.id === 'links-get');
  if (!getCase) throw new BenchError('bench/links.bench.ts has no case "links-get"');
  const loadAtStart = os.loadavg();
  const served: Served[] = [];
  try {
    for (const mode of MODES) served.push(await startServed(ctx, mode));
    const specs = [];
    for (const s of served) specs.push(await getCase.setup(s.api));
    const load = (s: Served, duration: number) => ({ url: s.service.url, connections: CONNECTIONS, warmup: 0, duration });
    if (ctx.warmup > 0) {
      ctx.log(`tracing: ${ctx.warmup} s warm-up of each mode…`);
      for (const [i, s] of served.entries()) await runLoad(specs[i]!, load(s, ctx.warmup));
    }
    const phase = Math.max(1, Math.round(ctx.duration / ROUNDS));
    ctx.log(`tracing: ${ROUNDS} rounds of ${phase} s per mode, in turns…`);
    const runs = served.map(() => ({ rounds: [] as LoadResult[], cpu: 0 as number | undefined }));
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < served.length; k++) {
        const i = (k + round) % served.length;
        const cpu = cpuMeter(served[i]!.service.pid);
        runs[i]!.rounds.push(await runLoad(specs[i]!, load(served[i]!, phase)));
        const used = cpu();
        runs[i]!.cpu = used === undefined || runs[i]!.cpu === undefined ? undefined : runs[i]!.cpu + used;
      }
    }
    const byMode = {} as Record<Mode, ModeRun>;
    for (const [i, s] of served.entries()) {
      const { rounds, cpu } = runs[i]!;
      const requests = rounds.reduce((n, r) => n + r.requests, 0);
      const seconds = rounds.reduce((n, r) => n + r.durationSeconds, 0);
      const p99s = rounds.map((r) => r.p99).sort((a, b) => a - b);
      byMode[s.mode] = { rounds, requests, rps: requests / seconds, p99: p99s[Math.floor(p99s.length / 2)]!, cpuSeconds: cpu };
    }

    const problems: string[] = [];
    for (const s of served) {
      const failures = byMode[s.mode].rounds.reduce((n, r) => n + r.failures, 0);
      if (failures > 0) {
        problems.push(`${s.mode}: ${failures} failed requests`);
        const exit = await Promise.race([s.service.exited, Promise.resolve(undefined)]);
        const how = exit ? `exited (${exit.code ?? exit.signal})` : 'still running';
        ctx.log(`tracing ${s.mode}: ${how}; last lines of the service:\n${indent(s.service.output())}`);
      }
    }
    // Stopped before counting: SIGTERM flushes what the traced services still hold.
    for (const s of served) await s.service.stop(15_000);
    const exports = Object.fromEntries(served.map((s) => [s.mode, s.sink.requests()])) as Record<Mode, number>;
    if (exports.off > 0) problems.push(`the untraced service exported ${exports.off} times`);
    if (exports.on === 0) problems.push('the traced service exported nothing: no span flowed');

    const off = byMode.off;
    const figure = (r: ModeRun) => `${int(r.rps)} req/s · p99 ${ms(r.p99)} ms · CPU ${perRequest(r.cpuSeconds, r.requests)}/req`;
    const rows: SuiteRow[] = (['on', 'sampled'] as const).map((mode) => ({
      part: PART.id,
      name: `GET /v1/links/{id}, ${SAMPLERS[mode]}`,
      figure: `${mode}: ${figure(byMode[mode])}`,
      baseline: `off: ${figure(off)}`,
      ratio: byMode[mode].rps / off.rps,
      target: 'none (reported)',
      verdicts: {},
      ...(problems.length > 0 ? { error: problems.join('; ') } : {}),
    }));
    const perRound = (mode: Mode) => byMode[mode].rounds.map((r, i) => (r.rps / off.rounds[i]!.rps).toFixed(2)).join(', ');
    const notes = [
      `three node bin/consigna.js serve side by side, each with its own fresh database; the case of bench/links.bench.ts (100 links, requests cycling through them), ` +
        `autocannon in the bench process, ${CONNECTIONS} connections, ${ctx.warmup} s warm-up each, then ${ROUNDS} rounds of ${phase} s per service in turns; ` +
        `ratio = requests per second over all rounds, mode ÷ off.`,
      `  on ÷ off per round: ${perRound('on')}; sampled ÷ off per round: ${perRound('sampled')}`,
      `  export requests received: on ${exports.on}, sampled ${exports.sampled}, off ${exports.off} (expected 0)`,
      `  load average (1, 5, 15 min): at start ${loadAtStart.map((x) => x.toFixed(2)).join(' ')}, at end ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    ];
    return {
      title:
        'Tracing: OpenTelemetry spans on and sampled vs off, in the same run (OTLP sink, service and PostgreSQL on this machine)',
      rows,
      notes,
      raw: { connections: CONNECTIONS, rounds: ROUNDS, byMode, exports },
    };
  } catch (error) {
    for (const s of served) {
      const output = s.service.output();
      if (output && !(error instanceof BenchError)) ctx.log(`tracing ${s.mode}: last lines of the service:\n${indent(output)}`);
    }
    throw error;
  } finally {
    for (const s of served) {
      await s.service.stop();
      await s.sink.close();
      await s.drop();
    }
  }
}
