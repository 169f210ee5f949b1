// What an attempt leads to (src/webhooks/delivery/retry-policy.ts): delivered on a 2xx,
// otherwise the next retry of the schedule (or of the channel's sandbox interval), and
// failed for good after the seventh attempt.
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, outcome, retryDelays } from '../../../src/webhooks/delivery/retry-policy.ts';

const at = new Date('2026-11-26T12:00:00Z');
const claimed = (attempt: number, retryIntervalSeconds: number | null = null) => ({
  id: 'd1',
  leaseId: 'l1',
  channelId: 'c1',
  attempt,
  retryIntervalSeconds,
});
const DELAYS = [60, 300, 1800];
const secondsAfter = (date: Date | null) => (date!.getTime() - at.getTime()) / 1000;

describe('outcome', () => {
  it('delivers on an answer the deliverer calls ok, keeping what the endpoint answered', () => {
    const result = outcome(claimed(3), { ok: true, status: 204, latencyMs: 12, body: 'ok' }, at, DELAYS);
    expect(result).toEqual({
      id: 'd1',
      leaseId: 'l1',
      channelId: 'c1',
      status: 'ENTREGUE',
      nextAttemptAt: null,
      httpStatus: 204,
      error: null,
      latencyMs: 12,
      at,
      responseBody: 'ok',
      responseTruncated: false,
    });
  });

  it("retries attempt n after the schedule's n-th delay, and past the schedule after its last", () => {
    const failure = { ok: false, status: 503, latencyMs: 5, error: 'HTTP 503' };
    expect(DELAYS.map((_, i) => secondsAfter(outcome(claimed(i + 1), failure, at, DELAYS).nextAttemptAt))).toEqual(DELAYS);
    const late = outcome(claimed(5), failure, at, DELAYS);
    expect(late).toMatchObject({ status: 'PENDENTE', httpStatus: 503, error: 'HTTP 503' });
    expect(secondsAfter(late.nextAttemptAt)).toBe(1800);
  });

  it('fails for good when the seventh attempt fails, and still delivers when it succeeds', () => {
    expect(MAX_ATTEMPTS).toBe(7);
    const failed = outcome(claimed(MAX_ATTEMPTS), { ok: false, latencyMs: 10_000, error: 'tempo esgotado' }, at, DELAYS);
    expect(failed).toMatchObject({ status: 'FALHOU', nextAttemptAt: null, httpStatus: null, error: 'tempo esgotado' });
    expect(outcome(claimed(MAX_ATTEMPTS), { ok: true, status: 200, latencyMs: 3 }, at, DELAYS).status).toBe('ENTREGUE');
  });

  it('names an unexplained failure, keeps at most 500 characters of an error, and marks a truncated answer', () => {
    expect(outcome(claimed(1), { ok: false, latencyMs: 1 }, at, DELAYS).error).toBe('falha');
    const long = outcome(
      claimed(1),
      { ok: false, latencyMs: 1, error: 'x'.repeat(2000), body: 'y', bodyTruncated: true },
      at,
      DELAYS,
    );
    expect(long.error).toHaveLength(500);
    expect(long).toMatchObject({ responseBody: 'y', responseTruncated: true });
  });

  it("with the channel's interval, waits it before every retry instead of the schedule, and still fails after the seventh", () => {
    const failure = { ok: false, status: 500, latencyMs: 5, error: 'HTTP 500' };
    const waits = [1, 2, 3, 4, 5, 6].map((n) => secondsAfter(outcome(claimed(n, 5), failure, at, DELAYS).nextAttemptAt));
    expect(waits).toEqual([5, 5, 5, 5, 5, 5]);
    expect(outcome(claimed(MAX_ATTEMPTS, 5), failure, at, DELAYS)).toMatchObject({ status: 'FALHOU', nextAttemptAt: null });
    expect(outcome(claimed(2, 1), { ok: true, status: 200, latencyMs: 1 }, at, DELAYS).status).toBe('ENTREGUE');
  });
});

describe('retryDelays', () => {
  it('is the standard schedule without an interval, and the interval once per retry with one', () => {
    expect(retryDelays(null, DELAYS)).toBe(DELAYS);
    expect(retryDelays(5, DELAYS)).toEqual([5, 5, 5, 5, 5, 5]);
    expect(retryDelays(60, [60, 300, 1800, 7200, 21600, 86400])).toHaveLength(MAX_ATTEMPTS - 1);
  });
});
