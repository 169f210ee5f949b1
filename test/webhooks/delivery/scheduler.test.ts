// When the worker wakes by itself (src/webhooks/delivery/scheduler.ts): a failed claim's
// backoff, retries falling due, held channels, and the poll as the longest sleep. The
// sleep until the next due delivery is looked up in a real queue.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  backoffDelay,
  earliestRetry,
  HELD_RECHECK_MS,
  longestSleep,
  Scheduler,
  WakeTimer,
} from '../../../src/webhooks/delivery/scheduler.ts';
import type { AttemptResult } from '../../../src/webhooks/delivery/types.ts';
import { openQueue, type Queue } from './queue.ts';

const result = (status: AttemptResult['status'], nextAttemptAt: number | null): AttemptResult => ({
  id: 'd',
  leaseId: 'l',
  channelId: 'c',
  status,
  nextAttemptAt: nextAttemptAt === null ? null : new Date(nextAttemptAt),
  httpStatus: 503,
  error: 'HTTP 503',
  latencyMs: 1,
  at: new Date(0),
  responseBody: null,
  responseTruncated: false,
});

describe('delays', () => {
  it('backs off failed claims 1, 2, 4, then 5 s', () => {
    expect([1, 2, 3, 4, 5, 10].map(backoffDelay)).toEqual([1000, 2000, 4000, 5000, 5000, 5000]);
  });

  it('sleeps at most the poll interval, or the held recheck while a channel is held', () => {
    expect(longestSleep(0, 5)).toBe(5000);
    expect(longestSleep(2, 5)).toBe(HELD_RECHECK_MS);
  });

  it('finds the earliest retry among results written, never in the past', () => {
    const now = 10_000;
    expect(earliestRetry([result('PENDENTE', 13_000), result('PENDENTE', 12_000), result('ENTREGUE', null)], now)).toBe(2000);
    expect(earliestRetry([result('PENDENTE', 9000)], now)).toBe(0);
    expect(earliestRetry([result('FALHOU', null), result('ENTREGUE', null)], now)).toBeUndefined();
  });
});

describe('WakeTimer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires once at the time last set, only ever brought forward, never after stop', () => {
    vi.useFakeTimers();
    const fired: number[] = [];
    const timer = new WakeTimer(() => fired.push(Date.now()));
    const start = Date.now();
    timer.set(1000);
    timer.bringForward(2000);
    expect(timer.at).toBe(start + 1000);
    timer.bringForward(300);
    vi.advanceTimersByTime(5000);
    expect(fired).toEqual([start + 300]);
    expect(timer.at).toBe(Number.POSITIVE_INFINITY);
    timer.set(100);
    timer.stop();
    timer.set(100);
    vi.advanceTimersByTime(5000);
    expect(fired).toHaveLength(1);
  });
});

describe('Scheduler', () => {
  let queue: Queue;
  const schedulers: Scheduler[] = [];
  beforeAll(async () => {
    queue = await openQueue({ CONSIGNA_WORKER_POLL_SECONDS: '30' });
  });
  afterAll(async () => {
    for (const s of schedulers) s.stop();
    await queue?.close();
  });

  const scheduler = () => {
    const wakes: number[] = [];
    const s = new Scheduler(queue, () => wakes.push(Date.now()));
    schedulers.push(s);
    return { s, wakes };
  };

  it('sleeps until the next delivery falls due, leaving out held channels', async () => {
    const due = await queue.channel('http://127.0.0.1:9/soon');
    const held = await queue.channel('http://127.0.0.1:9/held');
    await queue.enqueue(held, 1, 100);
    await queue.enqueue(due, 1, 3000);
    const { s, wakes } = scheduler();
    const started = Date.now();
    // The held channel's row falls due first, but its recheck is the held timer's.
    await s.sleepUntilNextDue(new Set([held]), new Set());
    await vi.waitFor(() => expect(wakes).toHaveLength(1), { timeout: 5000 });
    // Woken at the held recheck (250 ms), before the other row falls due (3 s).
    expect(wakes[0]! - started).toBeLessThan(1500);
    const { s: idle, wakes: idleWakes } = scheduler();
    const idleStart = Date.now();
    await idle.sleepUntilNextDue(new Set(), new Set([held]));
    await vi.waitFor(() => expect(idleWakes).toHaveLength(1), { timeout: 5000 });
    // Not at the held channel's row (due already), nor at the poll (30 s): at the other one's.
    expect(idleWakes[0]! - idleStart).toBeGreaterThan(1000);
    expect(idleWakes[0]! - idleStart).toBeLessThan(3500);
  });

  it('backs off after a failed claim until the timer wakes the loop again', async () => {
    const { s, wakes } = scheduler();
    s.claimFailed();
    expect(s.backingOff).toBe(true);
    await vi.waitFor(() => expect(wakes).toHaveLength(1), { timeout: 3000 });
    expect(s.backingOff).toBe(false);
    s.claimFailed();
    s.claimSucceeded([]);
    s.claimFailed();
    // A success in between starts the backoff again from 1 s.
    const before = Date.now();
    await vi.waitFor(() => expect(wakes).toHaveLength(2), { timeout: 3000 });
    expect(Date.now() - before).toBeLessThan(1900);
    s.stop();
    s.claimFailed();
    expect(s.backingOff).toBe(false);
  });

  it('brings the timer forward for a retry recorded after it was set', async () => {
    const { s, wakes } = scheduler();
    const started = Date.now();
    s.recheck(0, Number.POSITIVE_INFINITY);
    s.retriesRecorded([result('ENTREGUE', null), result('PENDENTE', Date.now() + 200)]);
    await vi.waitFor(() => expect(wakes).toHaveLength(1), { timeout: 3000 });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
