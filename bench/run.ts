// `npm run bench`: runs every case of bench/*.bench.ts against the service started as
// a child process (`node bin/consigna.js api`), once on a fresh PostgreSQL database
// and once on the embedded database (PGlite), next to a bare Fastify baseline
// measured right before each table. Each case is measured twice: closed loop (all
// connections busy: throughput) and then open loop at a fixed rate of half that
// throughput (latency under load that the service can sustain). Prints one table
// per database, then one per suite (bench/*.bench.ts exporting `suites`: webhook
// delivery, noisy neighbour and the SDK's listen command, PostgreSQL only), and saves the raw results in
// bench/results/<timestamp>.json. Speed is
// reported, never asserted: the exit code is 0 unless something broke (a process
// did not start, a request failed).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { installSignalHandlers, onCleanup, runCleanup } from './lib/cleanup.ts';
import { createContext } from './lib/context.ts';
import { runLoad, stopLoad, type LoadOptions, type LoadResult } from './lib/load.ts';
import { runPaced, stopPaced, type PacedResult } from './lib/paced.ts';
import { checkPostgres, createBenchDatabase, DEFAULT_BENCH_DATABASE_URL, redact } from './lib/postgres.ts';
import {
  BenchError,
  freePort,
  indent,
  runCommand,
  startService,
  withoutServiceSettings,
  type ChildService,
} from './lib/process.ts';
import { formatMiB } from './lib/rss.ts';
import { renderTable, type Column } from './lib/table.ts';
import type { Backend, BenchCase, BenchChannel, BenchSuite, Goals, SuiteOutcome, SuitePart } from './lib/types.ts';

const BENCH_DIR = import.meta.dirname;
const ROOT = path.resolve(BENCH_DIR, '..');
// serve: the whole service in one process (API, worker, sweeper), as deployed by default.
const SERVICE_ARGS = ['bin/consigna.js', 'serve'];
const SERVICE_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
/** The fixed-rate run offers this fraction of the req/s the closed loop just measured. */
const PACED_FRACTION = 0.5;
const PACED_LABEL = `${Math.round(PACED_FRACTION * 100)}%`;

const USAGE = `Usage: npm run bench -- [options]

  --only ID[,ID…]       run only these cases (ids or names, e.g. --only ping,token);
                        a suite's id runs all its parts (--only webhooks), a part's id
                        only that part (--only webhook-latency); --only noisy-neighbour:
                        channel B's webhooks beside channel A's bad endpoint;
                        --only listen-latency: webhooks through the SDK's listen command
                        --only pages: the hosted pages' weight and LCP in Chromium
                        --only tracing: OpenTelemetry tracing on vs off (PostgreSQL only)
                        --only attacker: another channel's ping beside one inbox token's attacks
  --duration SECONDS    measured seconds per run (default 10); each case has two runs,
                        closed loop then a fixed rate of 50% of its req/s
  --warmup SECONDS      unmeasured load before each measurement (default 2; 0 skips)
  --connections N       concurrent connections (default 64)
  --no-postgres         skip the PostgreSQL table (and the webhook table, PostgreSQL only)
  --no-embedded         skip the embedded database (PGlite) table
  --list                list the cases and exit

Environment: BENCH_DATABASE_URL (default ${DEFAULT_BENCH_DATABASE_URL}),
BENCH_LOG_LEVEL (service LOG_LEVEL, default warn). See bench/README.md.`;

/**
 * Each goal judged on its own: `ratio` (closed-loop req/s ÷ baseline), `p99` (closed
 * loop, all connections busy) and `p99AtHalfLoad` (the same p99 bound at the fixed
 * rate). undefined: no such goal, or not measured.
 */
interface Verdict {
  state: 'judged' | 'no-goals' | 'broken';
  ratio?: boolean;
  p99?: boolean;
  p99AtHalfLoad?: boolean;
}

interface CaseOutcome {
  id: string;
  name: string;
  target: string;
  goals: Goals | undefined;
  /** Closed loop: every connection sends its next request as soon as the previous one is answered. */
  result: LoadResult | undefined;
  /** Open loop at PACED_FRACTION of `result.rps`, same connections. */
  paced: PacedResult | undefined;
  ratio: number | undefined;
  verdict: Verdict;
  error: string | undefined;
}

interface TableOutcome {
  backend: Backend;
  title: string;
  /** Measured right before this table's cases; its ratios are against it. */
  baseline: BaselineOutcome | undefined;
  servicePeakRss: number | undefined;
  cases: CaseOutcome[];
  error: string | undefined;
}

interface BaselineOutcome {
  name: 'bare-fastify';
  request: string;
  result: LoadResult;
  peakRss: number | undefined;
}

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    allowNegative: true,
    options: {
      only: { type: 'string' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '64' },
      postgres: { type: 'boolean', default: true },
      embedded: { type: 'boolean', default: true },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const duration = positiveNumber('--duration', values.duration!);
  const warmup = positiveNumber('--warmup', values.warmup!, true);
  const connections = Math.round(positiveNumber('--connections', values.connections!));

  const { cases: allCases, suites: allSuites } = await discover();
  if (values.list) {
    for (const c of allCases) console.log(`${c.id.padEnd(18)} ${c.name.padEnd(40)} target: ${c.target}`);
    for (const suite of allSuites) {
      for (const part of suite.parts) {
        console.log(`${part.id.padEnd(18)} ${part.name.padEnd(40)} target: ${part.target} (${suite.backends.join(', ')} only)`);
      }
    }
    return 0;
  }
  const { cases, suites } = select(allCases, allSuites, values.only);
  const backends: Backend[] = [];
  if (values.postgres) backends.push('postgres');
  if (values.embedded) backends.push('embedded');
  if (backends.length === 0) throw new BenchError('Nothing to run: both --no-postgres and --no-embedded were given.');
  const runnableSuites = suites.filter((s) => s.suite.backends.some((b) => backends.includes(b)));
  for (const s of suites) {
    if (!runnableSuites.includes(s)) log(`${s.suite.name}: skipped (needs ${s.suite.backends.join(' or ')})`);
  }

  installSignalHandlers();
  onCleanup('stop autocannon', stopLoad);
  onCleanup('stop the fixed-rate load', stopPaced);

  const adminUrl = process.env.BENCH_DATABASE_URL?.trim() || DEFAULT_BENCH_DATABASE_URL;
  let postgresVersion: string | undefined;
  if (backends.includes('postgres')) postgresVersion = await checkPostgres(adminUrl);
  const httpBackends = cases.length > 0 ? backends : [];

  const load = { connections, duration, warmup };
  const startedAt = new Date();
  console.log(
    `Consigna benchmarks: ${[...cases.map((c) => c.id), ...runnableSuites.flatMap((s) => s.parts.map((p) => p.id))].join(', ')}\n` +
      `Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${os.platform()} ${os.release()}\n` +
      `closed loop (autocannon, in the bench process): ${connections} connections, ${duration} s measured after ${warmup} s warm-up per case\n` +
      `then fixed rate (open loop, in the bench process): ${PACED_LABEL} of the case's closed-loop req/s, ${connections} connections, ${duration} s\n` +
      `service: node ${SERVICE_ARGS.join(' ')} (child process, LOG_LEVEL=${SERVICE_LOG_LEVEL}); baseline: bare Fastify GET / (child process), measured right before each table\n`,
  );

  const results: { tables: TableOutcome[]; suites: SuiteResult[] } = { tables: [], suites: [] };
  let broken = false;

  try {
    for (const backend of httpBackends) {
      const title =
        backend === 'postgres'
          ? `PostgreSQL ${postgresVersion ?? ''} (fresh database on ${redact(adminUrl).replace(/\/[^/]*$/, '')})`
          : 'Embedded database (PGlite, temporary data folder)';
      const table = await runBackend(backend, title, cases, load, adminUrl);
      results.tables.push(table);
      judge(table);
      printTable(table, connections);
      if (table.error || table.cases.some((c) => c.verdict.state === 'broken')) broken = true;
    }
    for (const { suite, parts } of runnableSuites) {
      const outcome = await runSuite(suite, parts, { adminUrl, duration, warmup, postgresVersion });
      results.suites.push(outcome);
      printSuite(outcome);
      if (outcome.error || outcome.rows.some((r) => r.error)) broken = true;
    }
  } finally {
    await runCleanup();
    if (results.tables.length > 0 || results.suites.length > 0) {
      const file = saveResults({
        startedAt,
        options: { ...load, pacedFraction: PACED_FRACTION, only: values.only ?? null, backends },
        postgresVersion,
        ...results,
      });
      if (file) console.log(`\nRaw results: ${path.relative(process.cwd(), file)}`);
    }
  }

  if (broken) {
    log('some measurements are broken (see above): exit code 1. Slow figures alone never fail the run.');
    return 1;
  }
  return 0;
}

async function discover(): Promise<{ cases: BenchCase[]; suites: BenchSuite[] }> {
  const files = fs
    .readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort();
  const cases: BenchCase[] = [];
  const suites: BenchSuite[] = [];
  for (const file of files) {
    const mod = (await import(path.join(BENCH_DIR, file))) as { cases?: BenchCase[]; suites?: BenchSuite[] };
    if (!Array.isArray(mod.cases) && !Array.isArray(mod.suites)) {
      throw new BenchError(`bench/${file} must export \`cases\` (an array of BenchCase) or \`suites\` (an array of BenchSuite)`);
    }
    cases.push(...(mod.cases ?? []));
    suites.push(...(mod.suites ?? []));
  }
  const ids = new Set<string>();
  for (const id of [...cases.map((c) => c.id), ...suites.flatMap((s) => [s.id, ...s.parts.map((p) => p.id)])]) {
    if (ids.has(id)) throw new BenchError(`two cases share the id "${id}"`);
    ids.add(id);
  }
  return { cases, suites };
}

/** --only names cases, suites (all their parts) or single parts of a suite. */
function select(
  cases: BenchCase[],
  suites: BenchSuite[],
  only: string | undefined,
): { cases: BenchCase[]; suites: Array<{ suite: BenchSuite; parts: SuitePart[] }> } {
  if (!only) return { cases, suites: suites.map((suite) => ({ suite, parts: suite.parts })) };
  const wanted = only
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const matches = (w: string, item: { id: string; name: string }) => item.id.toLowerCase() === w || item.name.toLowerCase() === w;
  const unknown = wanted.filter(
    (w) => !cases.some((c) => matches(w, c)) && !suites.some((s) => matches(w, s) || s.parts.some((p) => matches(w, p))),
  );
  if (unknown.length > 0) {
    const available = [...cases.map((c) => c.id), ...suites.flatMap((s) => [s.id, ...s.parts.map((p) => p.id)])];
    throw new BenchError(`unknown case(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  }
  return {
    cases: cases.filter((c) => wanted.some((w) => matches(w, c))),
    suites: suites
      .map((suite) => ({
        suite,
        parts: wanted.some((w) => matches(w, suite)) ? suite.parts : suite.parts.filter((p) => wanted.some((w) => matches(w, p))),
      }))
      .filter((s) => s.parts.length > 0),
  };
}

interface SuiteResult extends Partial<SuiteOutcome> {
  id: string;
  name: string;
  parts: string[];
  title: string;
  rows: SuiteOutcome['rows'];
  notes: string[];
  error: string | undefined;
}

async function runSuite(
  suite: BenchSuite,
  parts: SuitePart[],
  options: { adminUrl: string; duration: number; warmup: number; postgresVersion: string | undefined },
): Promise<SuiteResult> {
  const result: SuiteResult = {
    id: suite.id,
    name: suite.name,
    parts: parts.map((p) => p.id),
    title: suite.name,
    rows: [],
    notes: [],
    error: undefined,
  };
  try {
    const outcome = await suite.run(
      {
        adminUrl: options.adminUrl,
        duration: options.duration,
        warmup: options.warmup,
        root: ROOT,
        env: { ...process.env },
        log: (message) => log(`${suite.id}: ${message}`),
      },
      parts,
    );
    Object.assign(result, outcome);
    result.title = `${outcome.title}${options.postgresVersion ? `, PostgreSQL ${options.postgresVersion}` : ''}`;
  } catch (error) {
    result.error =
      error instanceof Error ? (error instanceof BenchError ? error.message : (error.stack ?? error.message)) : String(error);
    log(`${suite.id}: ${result.error}`);
  }
  return result;
}

const SUITE_COLUMNS: Column[] = [
  { header: 'figure' },
  { header: 'measured' },
  { header: 'baseline (same run)' },
  { header: 'ratio', align: 'right' },
  { header: 'target' },
  { header: 'verdict' },
];

function printSuite(result: SuiteResult): void {
  const rows = result.rows.map((row) => [
    row.name,
    row.error ? '–' : row.figure,
    row.baseline,
    row.ratio === undefined ? '–' : row.ratio.toFixed(2),
    row.target,
    row.error
      ? '✗ broken'
      : Object.entries(row.verdicts)
          .map(([goal, ok]) => `${goal} ${mark(ok)}`)
          .join(' · ') || '–',
  ]);
  console.log(`\n${result.title}`);
  if (rows.length > 0) console.log(renderTable(SUITE_COLUMNS, rows));
  for (const note of result.notes) console.log(note);
  for (const row of result.rows) if (row.error) console.log(`  ${row.name}: broken: ${row.error}`);
  if (result.error) console.log(`  this table could not be completed:\n${indent(result.error)}`);
  console.log('Verdicts are informational: speed never changes the exit code.');
}

function positiveNumber(name: string, raw: string, zeroAllowed = false): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!zeroAllowed && value === 0)) {
    throw new BenchError(`${name}: expected a ${zeroAllowed ? 'non-negative' : 'positive'} number, got "${raw}"`);
  }
  return value;
}

async function measureBaseline(backend: Backend, load: Omit<LoadOptions, 'url'>): Promise<BaselineOutcome> {
  const port = await freePort();
  log(`${backend}: baseline: starting bare Fastify…`);
  const server = await startService({
    label: 'bare-fastify baseline',
    args: [path.join(BENCH_DIR, 'lib', 'bare-fastify.ts')],
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    port,
  });
  try {
    log(`${backend}: baseline: GET / for ${load.warmup} + ${load.duration} s…`);
    const result = await runLoad({ method: 'GET', path: '/' }, { ...load, url: server.url });
    if (result.failures > 0) throw new BenchError(`the baseline had failed requests: ${describeFailures(result)}`);
    return { name: 'bare-fastify', request: 'GET /', result, peakRss: server.peakRss() };
  } finally {
    await server.stop();
  }
}

/** Environment of the service and of the CLI for one backend. */
function serviceEnv(
  backend: Backend,
  dataDir: string,
  port: number,
  databaseUrl: string | undefined,
  masterKey: string,
): NodeJS.ProcessEnv {
  const env = withoutServiceSettings(process.env);
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: SERVICE_LOG_LEVEL,
    CONSIGNA_DATA_DIR: dataDir,
    // One channel sends all the load: the per-channel API rate limit would answer
    // 429 within seconds. Set CONSIGNA_RATE_LIMIT_API yourself to measure it on.
    CONSIGNA_RATE_LIMIT_API: process.env.CONSIGNA_RATE_LIMIT_API ?? '0/60',
  });
  if (backend === 'postgres') {
    env.DATABASE_URL = databaseUrl;
    env.CONSIGNA_MASTER_KEY = masterKey;
  }
  return env;
}

async function runBackend(
  backend: Backend,
  title: string,
  cases: BenchCase[],
  load: Omit<LoadOptions, 'url'>,
  adminUrl: string,
): Promise<TableOutcome> {
  const table: TableOutcome = { backend, title, baseline: undefined, servicePeakRss: undefined, cases: [], error: undefined };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `consigna-bench-${backend}-`));
  const removeDir = onCleanup(`remove ${dataDir}`, () => fs.rmSync(dataDir, { recursive: true, force: true }));
  let dropDatabase: (() => Promise<void>) | undefined;
  let service: ChildService | undefined;
  try {
    let databaseUrl: string | undefined;
    if (backend === 'postgres') {
      const database = await createBenchDatabase(adminUrl);
      log(`${backend}: created database ${database.name}`);
      databaseUrl = database.url;
      dropDatabase = database.drop;
    }
    const port = await freePort();
    const env = serviceEnv(backend, dataDir, port, databaseUrl, randomBytes(32).toString('hex'));

    // The channel first: with PGlite only one process may open the data folder.
    log(`${backend}: creating a channel with the CLI…`);
    const output = await runCommand(
      'consigna channels create',
      ['bin/consigna.js', 'channels', 'create', '--name', 'Bench', '--json'],
      { cwd: ROOT, env },
    );
    const channel = parseChannel(output);

    log(`${backend}: starting ${SERVICE_ARGS.join(' ')}…`);
    service = await startService({ label: `consigna serve (${backend})`, args: SERVICE_ARGS, cwd: ROOT, env, port });
    const ctx = createContext(service.url, backend, channel);

    // The baseline of this table, as close as possible in time to its cases (the
    // service is up but idle): consecutive runs on a shared machine vary a lot.
    table.baseline = await measureBaseline(backend, load);

    for (const benchCase of cases) {
      const outcome: CaseOutcome = {
        id: benchCase.id,
        name: benchCase.name,
        target: benchCase.target,
        goals: benchCase.goals,
        result: undefined,
        paced: undefined,
        ratio: undefined,
        verdict: { state: 'broken' },
        error: undefined,
      };
      table.cases.push(outcome);
      try {
        const spec = await benchCase.setup(ctx);
        log(`${backend}: ${benchCase.name} for ${load.warmup} + ${load.duration} s…`);
        outcome.result = await runLoad(spec, { ...load, url: service.url });
        if (outcome.result.failures > 0) {
          outcome.error = describeFailures(outcome.result);
        } else {
          const rate = Math.max(1, Math.round(outcome.result.rps * PACED_FRACTION));
          log(`${backend}: ${benchCase.name} at a fixed ${rps(rate)} req/s for ${load.duration} s…`);
          outcome.paced = await runPaced(spec, {
            url: service.url,
            connections: load.connections,
            duration: load.duration,
            rate,
          });
          if (outcome.paced.failures > 0) outcome.error = `at the fixed rate: ${describePacedFailures(outcome.paced)}`;
        }
        await benchCase.teardown?.(ctx);
      } catch (error) {
        outcome.error = error instanceof Error ? error.message : String(error);
      }
      if (outcome.error) log(`${backend}: ${benchCase.id}: ${outcome.error}`);
    }
    table.servicePeakRss = service.peakRss();
  } catch (error) {
    table.error = error instanceof Error ? error.message : String(error);
    if (!(error instanceof BenchError) && error instanceof Error && error.stack) table.error = error.stack;
  } finally {
    if (service) {
      const serviceOutput = service.output();
      await service.stop();
      if (serviceOutput && table.cases.some((c) => c.error)) {
        log(`${backend}: last lines of the service's output:\n${indent(serviceOutput)}`);
      }
    }
    await dropDatabase?.();
    await removeDir();
  }
  return table;
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
  if (result.raw.mismatches > 0) parts.push(`${result.raw.mismatches} body mismatches`);
  return `${result.failures} failed of ${result.requests} requests (${parts.join(', ')})`;
}

function describePacedFailures(result: PacedResult): string {
  const parts = Object.entries(result.statusCodes).map(([code, count]) => `${count}× ${code}`);
  if (result.errors > 0 || result.timeouts > 0) parts.push(`${result.errors} errors, ${result.timeouts} timeouts`);
  if (result.firstError) parts.push(`first: ${result.firstError}`);
  return `${result.failures} failed of ${result.scheduled} requests (${parts.join(', ')})`;
}

function verdict(outcome: CaseOutcome): Verdict {
  if (outcome.error || !outcome.result) return { state: 'broken' };
  const goals = outcome.goals;
  if (!goals || (goals.minRatio === undefined && goals.p99BelowMs === undefined)) return { state: 'no-goals' };
  const judged: Verdict = { state: 'judged' };
  if (goals.minRatio !== undefined) judged.ratio = (outcome.ratio ?? 0) >= goals.minRatio;
  if (goals.p99BelowMs !== undefined) {
    judged.p99 = outcome.result.p99 < goals.p99BelowMs;
    if (outcome.paced) judged.p99AtHalfLoad = outcome.paced.p99 < goals.p99BelowMs;
  }
  return judged;
}

const mark = (ok: boolean | undefined) => (ok === undefined ? '–' : ok ? '✓' : '✗');

/** e.g. `ratio ✓ · p99 ✗ · p99@50% ✓`: which goal holds under which load. */
function renderVerdict(outcome: CaseOutcome): string {
  const v = outcome.verdict;
  if (v.state === 'broken') return '✗ broken';
  if (v.state === 'no-goals') return '–';
  const parts: string[] = [];
  if (outcome.goals?.minRatio !== undefined) parts.push(`ratio ${mark(v.ratio)}`);
  if (outcome.goals?.p99BelowMs !== undefined) {
    parts.push(`p99 ${mark(v.p99)}`, `p99@${PACED_LABEL} ${mark(v.p99AtHalfLoad)}`);
  }
  return parts.join(' · ');
}

const COLUMNS: Column[] = [
  { header: 'case' },
  { header: 'req/s', align: 'right' },
  { header: 'p50', align: 'right' },
  { header: 'p99', align: 'right' },
  { header: `@ ${PACED_LABEL} load: req/s`, align: 'right' },
  { header: `p50 @ ${PACED_LABEL}`, align: 'right' },
  { header: `p99 @ ${PACED_LABEL} load`, align: 'right' },
  { header: 'baseline req/s', align: 'right' },
  { header: 'ratio', align: 'right' },
  { header: 'target' },
  { header: 'verdict' },
];

const rps = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(1)} ms`;

/** Ratio to the table's own baseline and verdict of every case of the table. */
function judge(table: TableOutcome): void {
  const baseRps = table.baseline?.result.rps;
  for (const outcome of table.cases) {
    if (outcome.result && baseRps) outcome.ratio = outcome.result.rps / baseRps;
    outcome.verdict = verdict(outcome);
  }
}

function printTable(table: TableOutcome, connections: number): void {
  const baseline = table.baseline;
  const base = baseline?.result;
  const rows: string[][] = [];
  if (base) {
    rows.push([
      'bare Fastify GET / (baseline)',
      rps(base.rps),
      ms(base.p50),
      ms(base.p99),
      '–',
      '–',
      '–',
      rps(base.rps),
      '1.00',
      '–',
      '–',
    ]);
  }
  for (const outcome of table.cases) {
    const r = outcome.result;
    const p = outcome.paced;
    rows.push([
      outcome.name,
      r ? rps(r.rps) : '–',
      r ? ms(r.p50) : '–',
      r ? ms(r.p99) : '–',
      p ? rps(p.offeredRate) : '–',
      p ? ms(p.p50) : '–',
      p ? ms(p.p99) : '–',
      base ? rps(base.rps) : '–',
      outcome.ratio === undefined ? '–' : outcome.ratio.toFixed(2),
      outcome.target,
      renderVerdict(outcome),
    ]);
  }
  console.log(`\n${table.title}`);
  console.log(renderTable(COLUMNS, rows));
  console.log(
    `req/s, p50, p99: closed loop, ${connections} connections always busy (mean latency = ${connections} ÷ req/s: queueing). ` +
      `@ ${PACED_LABEL} load: open loop, a fixed rate of ${PACED_LABEL} of that req/s, latency from each request's due time.\n` +
      'Ratios: req/s ÷ the baseline measured right before this table.',
  );
  const lags = table.cases.filter((c) => c.paced).map((c) => `${c.id} ${ms(c.paced!.sendLagP99)}`);
  if (lags.length > 0)
    console.log(`fixed-rate generator lag p99 (already inside the @ ${PACED_LABEL} latencies): ${lags.join(' · ')}`);
  console.log(
    `service peak RSS (VmHWM at the end): ${formatMiB(table.servicePeakRss)} · bare Fastify peak RSS: ${formatMiB(baseline?.peakRss)}`,
  );
  for (const outcome of table.cases) {
    if (outcome.error) console.log(`  ${outcome.name}: broken: ${outcome.error}`);
  }
  if (table.error) console.log(`  this table could not be completed:\n${indent(table.error)}`);
  console.log('Verdicts are informational: speed never changes the exit code.');
}

function saveResults(data: object): string | undefined {
  try {
    const dir = path.join(BENCH_DIR, 'results');
    fs.mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(dir, `${stamp}.json`);
    const document = {
      schema: 3,
      finishedAt: new Date().toISOString(),
      commit: gitCommit(),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim(),
      totalMemory: os.totalmem(),
      service: { command: `node ${SERVICE_ARGS.join(' ')}`, logLevel: SERVICE_LOG_LEVEL },
      ...data,
    };
    fs.writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
    return file;
  } catch (error) {
    log(`could not save the results: ${(error as Error).message}`);
    return undefined;
  }
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  await runCleanup();
  if (
    error instanceof BenchError ||
    (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
  ) {
    console.error(`bench: ${error.message}`);
  } else {
    console.error('bench: unexpected error:', error);
  }
  process.exitCode = 1;
}
// Anything still holding the event loop (an autocannon socket) must not keep us alive.
setImmediate(() => process.exit());
