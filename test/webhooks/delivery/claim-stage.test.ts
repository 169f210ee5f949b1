// The claim stage (src/webhooks/delivery/claim-stage.ts) on a real queue: what it asks
// for counts against the worker's room until the claim answers, results ride along in
// the claim's own statement, a channel new to the worker gets one share and a contained
// one a single probe, and a failed claim hands its results back to be written later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ClaimStage, type ClaimAnswer } from '../../../src/webhooks/delivery/claim-stage.ts';
import { Recorder } from '../../../src/webhooks/delivery/recorder.ts';
import { outcome } from '../../../src/webhooks/delivery/retry-policy.ts';
import { releaseClaims } from '../../../src/webhooks/delivery/sql/release-claims.ts';
import type { AttemptResult } from '../../../src/webhooks/delivery/types.ts';
import { usingPostgres } from '../../helpers/db.ts';
import { openQueue, type Queue } from './queue.ts';

describe('ClaimStage', () => {
  let queue: Queue;
  beforeAll(async () => {
    queue = await openQueue();
  });
  afterAll(async () => {
    await queue?.close();
  });

  /** A stage whose slots say `share` and `contained`, its answers and failures collected. */
  function stage(options: { share?: number; contained?: string[] } = {}) {
    const answers: ClaimAnswer[] = [];
    const events: string[] = [];
    const recorder = new Recorder(queue, () => {});
    const slots = { share: options.share ?? 100, contained: () => options.contained ?? [] };
    const claims = new ClaimStage(
      queue,
      { slots, recorder },
      {
        answered: (answer) => {
          answers.push(answer);
          events.push('answered');
        },
        failed: () => events.push('failed'),
        settled: () => events.push('settled'),
      },
    );
    return { claims, recorder, answers, events };
  }

  it('counts what it asked for until the claim answers, and tells which claim answered newest', async () => {
    const a = await queue.channel('http://127.0.0.1:9/a');
    await queue.enqueue(a, 6);
    const { claims, answers, events } = stage();
    claims.start({ wanted: 4, limits: new Map([[a, 3]]), moreDue: false, rideAlong: false });
    claims.start({ wanted: 5, limits: new Map([[a, 2]]), moreDue: false, rideAlong: false });
    expect([claims.size, claims.reserved, claims.claimingOf(a)]).toEqual([2, 9, 5]);
    await claims.settled();
    expect([claims.size, claims.reserved, claims.claimingOf(a)]).toEqual([0, 0, 0]);
    // Each took no more than its limit, the two together nothing twice.
    expect(answers.map((x) => x.rows.length).sort()).toEqual([2, 3]);
    expect(new Set(answers.flatMap((x) => x.rows.map((r) => r.id))).size).toBe(5);
    expect(answers.map((x) => x.wanted).sort()).toEqual([4, 5]);
    // The first to answer is the newest so far; the second is newest only if it was started last.
    expect(answers.map((x) => x.newest)).toEqual([true, answers[1]!.wanted === 5]);
    expect(events).toEqual(['answered', 'settled', 'answered', 'settled']);
    await releaseClaims(
      queue.db,
      answers.flatMap((x) => x.rows),
      new Date(),
    );
  });

  it('writes the waiting results in its own statement when they ride along, and leaves them otherwise', async () => {
    const b = await queue.channel('http://127.0.0.1:9/b');
    await queue.enqueue(b, 3);
    const claimed = await queue.claim(b);
    const { claims, recorder, answers } = stage();
    const results = claimed.map((c) => outcome(c, { ok: true, status: 200, latencyMs: 2 }, new Date(), [1]));
    for (const r of results) recorder.record(r, 60_000);
    claims.start({ wanted: 10, limits: new Map(), moreDue: false, rideAlong: false });
    await claims.settled();
    expect(answers[0]!.record).toEqual([]);
    claims.start({ wanted: 10, limits: new Map(), moreDue: false, rideAlong: true });
    await claims.settled();
    expect(answers[1]!.record).toHaveLength(claimed.length);
    expect(recorder.takeAll()).toEqual([]);
    const delivered = (await queue.rows(b)).filter((r) => r.status === 'ENTREGUE');
    expect(delivered.map((r) => r.id).sort()).toEqual(
      claimed
        .filter((c) => c.channelId === b)
        .map((c) => c.id)
        .sort(),
    );
  });

  it("takes one share of a channel it has no limit for, and a contained channel's probe only", async () => {
    const c = await queue.channel('http://127.0.0.1:9/c');
    const d = await queue.channel('http://127.0.0.1:9/d');
    await queue.enqueue(c, 10);
    await queue.enqueue(d, 10);
    const { claims, answers } = stage({ share: 3, contained: [d] });
    claims.start({ wanted: 50, limits: new Map(), moreDue: false, rideAlong: false });
    await claims.settled();
    const count = (channelId: string) => answers[0]!.rows.filter((r) => r.channelId === channelId).length;
    expect([count(c), count(d)]).toEqual([3, 1]);
    expect(answers[0]!.more).toBe(true);
    const again = stage({ share: 3, contained: [d] });
    again.claims.start({ wanted: 50, limits: new Map([[c, 0]]), moreDue: false, rideAlong: false });
    await again.claims.settled();
    // The probe is under way: the contained channel is held, nothing more of it is taken.
    expect(again.answers[0]!.rows).toEqual([]);
    expect(again.answers[0]!.held).toEqual([d]);
    await releaseClaims(queue.db, answers[0]!.rows, new Date());
  });

  it('hands the results it was to write back to the recorder when the claim fails', async () => {
    const e = await queue.channel('http://127.0.0.1:9/e');
    await queue.enqueue(e, 1);
    const [claimed] = await queue.claim(e);
    const { claims, recorder, events } = stage();
    const result: AttemptResult = outcome(claimed!, { ok: true, status: 200, latencyMs: 2 }, new Date(), [1]);
    recorder.record(result, 60_000);
    // A channel id the database refuses: the statement fails as a lost connection would.
    claims.start({ wanted: 10, limits: new Map([['not-a-channel', 1]]), moreDue: false, rideAlong: true });
    await claims.settled();
    expect(events).toEqual(['failed', 'settled']);
    expect([claims.size, claims.reserved, claims.claimingOf('not-a-channel')]).toEqual([0, 0, 0]);
    expect(recorder.takeAll()).toEqual([result]);
    expect(queue.logs.some((line) => line.includes('claiming deliveries failed'))).toBe(true);
    expect((await queue.rows(e))[0]!.status).toBe('PENDENTE');
  });

  it.runIf(usingPostgres())('refreshes the queue statistics for a backlog, at most once a minute', async () => {
    const analyzed = async () =>
      (
        await sql<{ n: number }>`select analyze_count::int as n from pg_stat_user_tables where relname = 'deliveries'`.execute(
          queue.db,
        )
      ).rows[0]!.n;
    const before = await analyzed();
    const { claims } = stage();
    claims.refreshStatistics();
    claims.refreshStatistics();
    await expect.poll(analyzed, { timeout: 10_000 }).toBe(before + 1);
    claims.refreshStatistics();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await analyzed()).toBe(before + 1);
  });
});
