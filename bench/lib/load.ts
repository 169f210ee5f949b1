// autocannon, programmatically, in the bench process: a warm-up run whose numbers
// are thrown away, then the measured run. Returns req/s and latency percentiles.
import autocannon from 'autocannon';
import type { LoadSpec } from './types.ts';

export interface LoadOptions {
  url: string;
  connections: number;
  /** Measured seconds. */
  duration: number;
  /** Seconds of load before measuring (not counted); 0 skips the warm-up. */
  warmup: number;
}

export interface LoadResult {
  /** Completed requests per second over the measured run. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  durationSeconds: number;
  /** Responses whose status is not expected, plus connection errors and timeouts. */
  failures: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /** autocannon's result object, as saved in bench/results/. */
  raw: autocannon.Result;
}

let current: autocannon.Instance | undefined;

/** Stops the autocannon run in progress (SIGINT). */
export function stopLoad(): void {
  current?.stop();
}

export async function runLoad(spec: LoadSpec, options: LoadOptions): Promise<LoadResult> {
  if (options.warmup > 0) await fire(spec, options, options.warmup);
  const raw = await fire(spec, options, options.duration);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(raw.statusCodeStats ?? {})) {
    statusCodes[code] = (stats as { count?: number }).count ?? 0;
  }
  const expected = spec.expectStatus;
  const unexpected = Object.entries(statusCodes)
    .filter(([code]) => (expected ? !expected.includes(Number(code)) : !code.startsWith('2')))
    .reduce((sum, [, count]) => sum + count, 0);
  const completed = Object.values(statusCodes).reduce((sum, count) => sum + count, 0) || raw.requests.total;
  return {
    rps: completed / raw.duration,
    p50: raw.latency.p50,
    p90: raw.latency.p90,
    p99: raw.latency.p99,
    max: raw.latency.max,
    requests: completed,
    durationSeconds: raw.duration,
    failures: unexpected + raw.errors + raw.mismatches,
    statusCodes,
    errors: raw.errors,
    timeouts: raw.timeouts,
    raw,
  };
}

function fire(spec: LoadSpec, options: LoadOptions, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url + (spec.path ?? ''),
        connections: options.connections,
        duration: seconds,
        method: spec.method ?? 'GET',
        headers: spec.headers ?? {},
        ...(spec.body !== undefined ? { body: spec.body } : {}),
        ...(spec.requests ? { requests: spec.requests } : {}),
      },
      (error, result) => {
        current = undefined;
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(result);
      },
    );
    current = instance;
  });
}
