// One channel's broken endpoint never delays another channel's webhooks (issue 14),
// with real local receivers: channel A's endpoint accepts connections and never
// answers; channel B's answers at once. B's events arrive within a second or two
// while A's deliveries wait, not attempted, with their attempt counts intact; A is
// contained (one probing attempt at a time) and, once its endpoint answers again,
// drains at full speed, each event received as many times as it was attempted.
// On PostgreSQL, two worker processes hold the per-channel cap together.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { createTestDatabase, describeOnPostgres } from '../helpers/db.ts';
import { killAll, startConsigna } from '../helpers/processes.ts';
import { waitFor } from '../helpers/wait.ts';
import { channelWith, FAST_ENV } from './support.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { uuidv7 } from '../../src/crypto/random.ts';

const SMALL_ENGINE = {
  ...FAST_ENV,
  CONSIGNA_WORKER_CONCURRENCY: '8',
  CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: '3',
  CONSIGNA_WORKER_CONTAIN_AFTER: '3',
  CONSIGNA_DELIVERY_TIMEOUT_MS: '1500',
};

/** Events for a channel, written as a state change writes them (event + delivery + NOTIFY, one transaction). */
async function emit(service: TestService, channelId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  await service.ctx.database.db.transaction().execute(async (tx) => {
    for (let i = 0; i < count; i++) {
      const at = new Date();
      const id = uuidv7(at.getTime());
      ids.push(id);
      await recordEvent(tx, channelId, {
        id,
        tipo: 'proposta.aprovada',
        ocorridoEm: at.toISOString(),
        ambiente: 'SANDBOX',
        proposta: { numero: 1000 + i, status: 'APROVADA', valor: 5000, parcelas: 24, valorParcela: 281.35 },
      });
    }
  });
  return ids;
}

const deliveriesOf = (service: TestService, channelId: string) =>
  service.ctx.database.db
    .selectFrom('deliveries')
    .select(['event_id', 'status', 'tentativas', 'lease_id'])
    .where('channel_id', '=', channelId)
    .execute();

describe('a hanging endpoint and a healthy one (one worker)', () => {
  let service: TestService;
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await service?.close();
    for (const r of receivers.splice(0)) await r.close();
  });

  it("delivers B's events at once while A hangs, contains A, then drains A when it answers again", async () => {
    service = await startTestService({ worker: true, env: SMALL_ENGINE });
    const hanging = await startReceiver();
    const healthy = await startReceiver();
    receivers.push(hanging, healthy);
    hanging.hold();
    const a = await channelWith(service, hanging.url);
    const b = await channelWith(service, healthy.url);

    const aEvents = await emit(service, a.canalId, 30);
    // A takes its cap of slots and no more: 3 requests open, none answered.
    await waitFor(() => hanging.requests.length >= 3, { timeoutMs: 5000, what: "A's first attempts" });
    // The rest of A's burst waits for its cap, not attempted, and operators see it.
    const heldBack = async (motivo: string) =>
      Number(
        new RegExp(`^consigna_webhook_deliveries_held_back\\{motivo="${motivo}"\\} (\\d+)$`, 'm').exec(
          (await service.inject({ method: 'GET', url: '/metrics' })).body,
        )?.[1],
      );
    expect(await heldBack('limite')).toBe(27);

    // B's events, one every 100 ms, each arriving within a second or two.
    const latencies: number[] = [];
    for (let i = 0; i < 8; i++) {
      const sentAt = Date.now();
      const [id] = await emit(service, b.canalId, 1);
      await waitFor(() => healthy.forEvent(id!).length === 1, { timeoutMs: 2000, what: `B's event ${i}` });
      latencies.push(healthy.forEvent(id!)[0]!.at - sentAt);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(Math.max(...latencies)).toBeLessThan(2000);

    // A's attempts time out (1.5 s); after three in a row A is contained: one probe at a time.
    await waitFor(
      async () =>
        (
          await sql<{
            c: Date | null;
          }>`select contained_since as c from delivery_channels where channel_id = ${a.canalId}`.execute(service.ctx.database.db)
        ).rows[0]?.c instanceof Date,
      { timeoutMs: 8000, what: 'A contained' },
    );
    // Visible to operators: one channel contained, its due rows held back (no channel id as a label).
    const metrics = (await service.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^consigna_webhook_channels_contained 1$/m);
    expect(await heldBack('contido')).toBeGreaterThan(0);
    expect(metrics).not.toContain(a.canalId);
    const attemptedBefore = hanging.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    // Contained: at most one probe per timeout (1.5 s) since, plus the wave in flight when it began.
    expect(hanging.requests.length - attemptedBefore).toBeLessThanOrEqual(3);
    // Held back, not attempted: the attempts counted are exactly the requests A received.
    let rows = await deliveriesOf(service, a.canalId);
    expect(rows.every((r) => r.status === 'PENDENTE')).toBe(true);
    expect(rows.reduce((sum, r) => sum + r.tentativas, 0)).toBe(hanging.requests.length);
    expect(rows.filter((r) => r.tentativas === 0).length).toBeGreaterThanOrEqual(30 - hanging.requests.length);
    // B is untouched by all this.
    expect((await deliveriesOf(service, b.canalId)).every((r) => r.status === 'ENTREGUE')).toBe(true);

    // A's endpoint comes back: the next probe succeeds and the backlog drains.
    hanging.release();
    await waitFor(async () => (await deliveriesOf(service, a.canalId)).every((r) => r.status === 'ENTREGUE'), {
      timeoutMs: 20_000,
      what: "A's backlog delivered",
    });
    rows = await deliveriesOf(service, a.canalId);
    for (const id of aEvents) {
      const row = rows.find((r) => r.event_id === id)!;
      // At least once; and never received more often than it was attempted.
      expect(hanging.forEvent(id).length, id).toBeGreaterThanOrEqual(1);
      expect(hanging.forEvent(id).length, id).toBe(row.tentativas);
    }
    const state = await sql<{ contained_since: Date | null; released_at: Date | null; failures: number }>`
      select contained_since, released_at, failures from delivery_channels where channel_id = ${a.canalId}
    `.execute(service.ctx.database.db);
    expect(state.rows[0]).toMatchObject({ contained_since: null, failures: 0 });
    expect(state.rows[0]!.released_at).not.toBeNull();
    expect(service.logs.some((l) => l.includes(a.canalId) && l.includes('one probing attempt'))).toBe(true);
    expect(service.logs.some((l) => l.includes(a.canalId) && l.includes('full speed'))).toBe(true);
  }, 60_000);
});

describe("a burst to one channel's healthy endpoint", () => {
  let service: TestService | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await service?.close();
    await receiver?.close();
  });

  it('reaches it at most the cap at once, drains without waiting for the poll, one attempt each', async () => {
    // The poll is a minute away: only the engine's own claims can drain the backlog.
    service = await startTestService({
      worker: true,
      env: {
        ...SMALL_ENGINE,
        CONSIGNA_WORKER_CONCURRENCY: '16',
        CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: '4',
        CONSIGNA_WORKER_POLL_SECONDS: '60',
      },
    });
    receiver = await startReceiver({ delayMs: 10 });
    const a = await channelWith(service, receiver.url);
    const events = await emit(service, a.canalId, 400);
    await waitFor(async () => (await deliveriesOf(service!, a.canalId)).every((r) => r.status === 'ENTREGUE'), {
      timeoutMs: 30_000,
      what: 'the burst delivered',
    });
    expect(receiver.mostOpen).toBeLessThanOrEqual(4);
    expect(receiver.mostOpen).toBeGreaterThanOrEqual(2);
    for (const id of events) expect(receiver.forEvent(id).length, id).toBe(1);
    expect((await deliveriesOf(service, a.canalId)).every((r) => r.tentativas === 1)).toBe(true);
  }, 60_000);
});

describeOnPostgres('two worker processes on one PostgreSQL', () => {
  afterAll(() => killAll());

  it('hold the per-channel cap together', async () => {
    const database = await createTestDatabase();
    // Four slots a worker, so that a claim takes no more than a few rows (a worker never
    // buffers far beyond its slots) and both workers get some of the backlog.
    const env = {
      ...SMALL_ENGINE,
      CONSIGNA_WORKER_CONCURRENCY: '4',
      CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: '4',
      CONSIGNA_DELIVERY_TIMEOUT_MS: '5000',
      CONSIGNA_MASTER_KEY: 'cd'.repeat(32),
    };
    const admin = await startTestService({ database, env });
    const hanging = await startReceiver();
    try {
      hanging.hold();
      const a = await channelWith(admin, hanging.url);
      const workers = [
        await startConsigna('worker', { ...env, DATABASE_URL: database.url! }),
        await startConsigna('worker', { ...env, DATABASE_URL: database.url! }),
      ];
      // Both alive, and each has counted the other (a heartbeat every 2 s).
      await waitFor(
        async () =>
          (await sql<{ n: number }>`select count(*)::int as n from delivery_workers`.execute(admin.ctx.database.db)).rows[0]!
            .n === 2,
        { timeoutMs: 5000, what: 'two workers registered' },
      );
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await emit(admin, a.canalId, 20);
      await waitFor(() => hanging.requests.length >= 4, { timeoutMs: 5000, what: 'the cap reached' });
      // Both workers keep claiming (new events wake them) while the first four hang.
      await emit(admin, a.canalId, 5);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(hanging.requests.length).toBe(4);
      // Two each: the cap shared by the two processes.
      const byWorker = await sql<{ n: number }>`
        select count(*)::int as n from deliveries where channel_id = ${a.canalId} and lease_id is not null
        group by lease_id
      `.execute(admin.ctx.database.db);
      expect(byWorker.rows.reduce((sum, r) => sum + r.n, 0)).toBeGreaterThanOrEqual(4);
      for (const worker of workers) await worker.kill();
    } finally {
      await hanging.close();
      await admin.close();
      await database.drop();
    }
  }, 60_000);
});
