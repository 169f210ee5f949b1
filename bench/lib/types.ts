// The shape of a benchmark case. One `*.bench.ts` file in bench/ exports `cases`;
// bench/run.ts discovers every such file, so adding a case needs no other change.
import type autocannon from 'autocannon';

export type Backend = 'postgres' | 'embedded';

/** The channel created with `consigna channels create --json` before the service starts. */
export interface BenchChannel {
  canalId: string;
  clientId: string;
  clientSecret: string;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** What a case's setup receives: the running service and a channel to use. */
export interface BenchContext {
  /** e.g. http://127.0.0.1:41234 (the service under test). */
  baseUrl: string;
  backend: Backend;
  channel: BenchChannel;
  /** `Authorization: Basic …` for the channel's client credentials. */
  basicAuth: string;
  /** One plain request to the service (for setup work: tokens, fixtures). */
  http(method: string, path: string, options?: { headers?: Record<string, string>; body?: string }): Promise<HttpAnswer>;
  /** Gets a fresh access token for the channel (fails loudly when it cannot). */
  accessToken(): Promise<string>;
}

/**
 * The load one case puts on the service. Either one fixed request (method, path,
 * headers, body) or `requests`, autocannon's request sequence, which can vary each
 * request through `setupRequest` and read answers through `onResponse`.
 */
export interface LoadSpec {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: autocannon.Request[];
  /** HTTP statuses counted as success (default: any 2xx). Others mark the case as broken. */
  expectStatus?: number[];
}

/** Informational goals: they decide the ✓/✗ verdict, never the exit code. */
export interface Goals {
  /** Case req/s divided by baseline req/s must be at least this. */
  minRatio?: number;
  /**
   * p99 latency must be below this many milliseconds. Judged twice, shown side by side:
   * on the closed loop (all connections busy) and at the fixed rate (50% of its req/s).
   */
  p99BelowMs?: number;
}

export interface BenchCase {
  /** Short id for `--only` (e.g. `ping`). */
  id: string;
  /** What is measured, shown in the table (e.g. `GET /v1/ping`). */
  name: string;
  /** The target as text, shown in the table (e.g. `≥ 0.15× bare, p99 < 20 ms`). */
  target: string;
  /** Machine-checkable form of the target for the verdict; omit for “–”. */
  goals?: Goals;
  /** Which baseline the ratio is computed against. */
  baseline: 'bare-fastify';
  /** Runs once per backend after the service is up; returns the load to apply. */
  setup(ctx: BenchContext): Promise<LoadSpec>;
  /** Optional clean-up after the case ran. */
  teardown?(ctx: BenchContext): Promise<void>;
}

/**
 * A suite measures something other than HTTP requests to the service (e.g. webhook
 * delivery): it starts its own processes and databases and returns finished rows.
 * `bench/*.bench.ts` may export `suites` next to (or instead of) `cases`; the
 * runner prints one table per suite after the HTTP tables.
 */
export interface SuitePart {
  /** For --only (e.g. `webhook-latency`). */
  id: string;
  name: string;
  target: string;
}

export interface SuiteContext {
  /** BENCH_DATABASE_URL: where fresh databases are created (and dropped at the end). */
  adminUrl: string;
  /** --duration and --warmup, in seconds, for parts that run for a time. */
  duration: number;
  warmup: number;
  /** Repository root (cwd of child processes). */
  root: string;
  /** The environment children start from (CONSIGNA_* passed through). */
  env: NodeJS.ProcessEnv;
  log(message: string): void;
}

export interface SuiteRow {
  /** The part this row belongs to. */
  part: string;
  name: string;
  /** The figure, formatted (e.g. `p50 1.2 · p95 2.0 · p99 3.1 ms`). */
  figure: string;
  /** What the baseline is and its figure, measured in the same run. */
  baseline: string;
  /** figure ÷ baseline (for latencies: the goal's percentile ÷ the baseline's). */
  ratio: number | undefined;
  target: string;
  /** Each goal of the row judged on its own, e.g. { 'p95 ≤ 5 ms': true }. Informational. */
  verdicts: Record<string, boolean>;
  /** Set when the measurement broke (missing deliveries, a process that failed). */
  error?: string;
}

export interface SuiteOutcome {
  title: string;
  rows: SuiteRow[];
  /** Lines printed under the table (settings, load averages, side figures). */
  notes: string[];
  /** Everything measured, saved as is in the results file. */
  raw: Record<string, unknown>;
}

export interface BenchSuite {
  id: string;
  name: string;
  /** Only these backends (a suite that needs PostgreSQL says so). */
  backends: Backend[];
  parts: SuitePart[];
  run(ctx: SuiteContext, parts: SuitePart[]): Promise<SuiteOutcome>;
}
