// A closed loop of GET requests over real HTTP with a few requests in flight: each of
// `inFlight` callers sends its next request when its previous one is answered. With one
// or two in flight the figures are the time an answer takes, not a queue's (autocannon's
// 64 connections measure capacity: bench/README.md "Closed loop and fixed rate").
import { Pool } from 'undici';
import { percentiles, type Percentiles } from './webhooks/noisy.ts';

export interface LoopResult extends Percentiles {
  /** Answers per second over the measured time. */
  rps: number;
  /** Answers with another status than 200 (the first kept in `firstFailure`). */
  failures: number;
  firstFailure: string | undefined;
}

/**
 * `next(i)` gives the i-th request's path; `read`, when given, sees each 200's body
 * (a cursor to follow). `warmup` seconds unmeasured, then `duration` seconds measured.
 */
export async function closedLoop(options: {
  url: string;
  headers: Record<string, string>;
  next: (i: number) => string;
  read?: (body: string) => void;
  inFlight: number;
  warmup: number;
  duration: number;
}): Promise<LoopResult> {
  const pool = new Pool(options.url, { connections: options.inFlight, pipelining: 1 });
  const times: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let i = 0;
  const begin = performance.now();
  const measureFrom = begin + options.warmup * 1000;
  const end = measureFrom + options.duration * 1000;
  const caller = async () => {
    while (performance.now() < end) {
      const path = options.next(i++);
      const at = performance.now();
      const response = await pool.request({ method: 'GET', path, headers: options.headers });
      const body = await response.body.text();
      const took = performance.now() - at;
      if (response.statusCode !== 200) {
        failures += 1;
        firstFailure ??= `${response.statusCode} on ${path}: ${body.slice(0, 200)}`;
      } else {
        options.read?.(body);
      }
      if (at >= measureFrom) times.push(took);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.inFlight }, caller));
  } finally {
    await pool.close();
  }
  return { ...percentiles(times), rps: times.length / options.duration, failures, firstFailure };
}
