// The record stage (src/webhooks/delivery/recorder.ts) on a real queue: results written
// in one statement after a short wait, or taken along by a claim instead; all written
// once a stopping worker's recorder stops; a late result for a lease that ran out ignored; and each
// channel's health written beside them, at once when a channel was just contained.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Recorder, recordDelay, RECORD_DELAY_MS, RIDE_WAIT_MS } from '../../../src/webhooks/delivery/recorder.ts';
import { outcome } from '../../../src/webhooks/delivery/retry-policy.ts';
import type { AttemptResult } from '../../../src/webhooks/delivery/types.ts';
import { openQueue, type Queue } from './queue.ts';

describe('recordDelay', () => {
  it('waits a little for a claim that is coming anyway, less otherwise, and not at all when stopping', () => {
    expect(recordDelay({ stopping: false, claimComing: true })).toBe(RIDE_WAIT_MS);
    expect(recordDelay({ stopping: false, claimComing: false })).toBe(RECORD_DELAY_MS);
    expect(recordDelay({ stopping: true, claimComing: true })).toBe(0);
    expect(RECORD_DELAY_MS).toBeLessThan(RIDE_WAIT_MS);
  });
});

describe('Recorder', () => {
  let queue: Queue;
  beforeAll(async () => {
    queue = await openQueue({ CONSIGNA_WORKER_CONTAIN_AFTER: '3' });
  });
  afterAll(async () => {
    await queue?.close();
  });

  const recorder = () => {
    const written: AttemptResult[][] = [];
    return { recorder: new Recorder(queue, (batch) => written.push(batch)), written };
  };
  const delivered = (claimed: Parameters<typeof outcome>[0]) =>
    outcome(claimed, { ok: true, status: 200, latencyMs: 4 }, new Date(), [1]);
  const attempts = async (channelId: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from delivery_attempts where channel_id = ${channelId}`.execute(queue.db))
      .rows[0]!.n;

  it('writes the results of the same moments in one statement, and says so once', async () => {
    const a = await queue.channel('http://127.0.0.1:9/a');
    await queue.enqueue(a, 3);
    const claimed = await queue.claim(a);
    const { recorder: r, written } = recorder();
    for (const c of claimed) r.record(delivered(c), 20);
    await expect.poll(() => written.length).toBe(1);
    expect(written[0]).toHaveLength(3);
    expect((await queue.rows(a)).map((row) => [row.status, row.lease_id])).toEqual(Array(3).fill(['ENTREGUE', null]));
    expect(await attempts(a)).toBe(3);
  });

  it('leaves to a claim the results it takes along, and puts back first those whose write failed', async () => {
    const b = await queue.channel('http://127.0.0.1:9/b');
    await queue.enqueue(b, 2);
    const [first, second] = await queue.claim(b);
    const { recorder: r, written } = recorder();
    r.record(delivered(first!), 50);
    const taken = r.takeAll();
    expect(taken).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(written).toEqual([]);
    r.record(delivered(second!), 60_000);
    r.keepForLater(taken);
    expect(r.takeAll().map((x) => x.id)).toEqual([first!.id, second!.id]);
  });

  it('has written what is left once it stops, and ignores a result whose lease ran out', async () => {
    const c = await queue.channel('http://127.0.0.1:9/c');
    await queue.enqueue(c, 2);
    const [kept, late] = await queue.claim(c);
    const { recorder: r, written } = recorder();
    r.record(delivered(kept!), RIDE_WAIT_MS);
    // Another worker took this row over: the late result of the old lease must not land.
    r.record({ ...delivered(late!), leaseId: '00000000-0000-7000-8000-000000000000' }, RIDE_WAIT_MS);
    await r.stop();
    expect(written).toHaveLength(1);
    const rows = await queue.rows(c);
    expect(rows.find((row) => row.id === kept!.id)!.status).toBe('ENTREGUE');
    expect(rows.find((row) => row.id === late!.id)).toMatchObject({ status: 'PENDENTE', tentativas: 1 });
    expect(await attempts(c)).toBe(1);
  });

  it("writes each channel's health beside its results: failures in a row, and containment at once", async () => {
    const d = await queue.channel('http://127.0.0.1:9/d');
    await queue.enqueue(d, 3);
    const claimed = await queue.claim(d);
    const { recorder: r } = recorder();
    for (const c of claimed)
      r.record(outcome(c, { ok: false, status: 503, latencyMs: 3, error: 'HTTP 503' }, new Date(), [1]), 10);
    r.flushHealth();
    const health = async () =>
      (
        await sql<{ failures: number; contained: boolean; reason: string | null }>`
          select failures, contained_since is not null as contained, last_failure_reason as reason
          from delivery_channels where channel_id = ${d}
        `.execute(queue.db)
      ).rows[0];
    await expect.poll(health).toEqual({ failures: 3, contained: true, reason: 'HTTP 503' });
    expect(queue.logs.some((line) => line.includes(d) && line.includes('one probing attempt'))).toBe(true);
    await r.stop();
  });
});
