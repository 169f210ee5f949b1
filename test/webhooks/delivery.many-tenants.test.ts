// Many endpoints that start hanging at once never stall the healthy channels (issue 34):
// a request not answered within CONSIGNA_WORKER_SLOW_AFTER_MS stops holding a worker
// slot, slow channels share a quarter of the slots, and the last quarter is kept for
// channels with nothing under way (attempt-pool.ts). Real receivers; the hanging ones
// accept every request and never answer.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { createTestDatabase, describeOnPostgres } from '../helpers/db.ts';
import { killAll, startConsigna } from '../helpers/processes.ts';
import { waitFor } from '../helpers/wait.ts';
import { channelWith, FAST_ENV, putWebhook } from './support.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { uuidv7 } from '../../src/crypto/random.ts';
import type { DB } from '../../src/db/database.ts';

/** A healthy event's bound: the time a hanging request holds its slot, plus two seconds of margin for a busy machine. */
const run = promisify(execFile);
const SLOW_AFTER_MS = 1000;
const BOUND_MS = SLOW_AFTER_MS + 2000;

async function emit(db: DB, channelId: string, count: number): Promise<Array<{ id: string; at: number }>> {
  const events: Array<{ id: string; at: number }> = [];
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < count; i++) {
      const at = new Date();
      const id = uuidv7(at.getTime());
      events.push({ id, at: at.getTime() });
      await recordEvent(tx, channelId, {
        id,
        tipo: 'proposta.aprovada',
        ocorridoEm: at.toISOString(),
        ambiente: 'SANDBOX',
        proposta: { numero: 1000 + i, status: 'APROVADA', valor: 5000, parcelas: 24, valorParcela: 281.35 },
      });
    }
  });
  const committed = Date.now();
  return events.map((e) => ({ ...e, at: committed }));
}

/**
 * The hanging channels' backlogs and the healthy channels' steady events start together;
 * each healthy event's latency from its commit to its arrival.
 */
async function healthyBesideHanging(
  db: DB,
  healthy: { channels: string[]; receiver: Receiver; rounds: number },
  hanging: { channels: string[]; backlog: number },
): Promise<{ latencies: number[]; startedAt: number }> {
  const startedAt = Date.now();
  const backlogs = Promise.all(hanging.channels.map((c) => emit(db, c, hanging.backlog)));
  const sent: Array<{ id: string; at: number }> = [];
  for (let round = 0; round < healthy.rounds; round++) {
    for (const channel of healthy.channels) sent.push(...(await emit(db, channel, 1)));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await backlogs;
  await waitFor(() => sent.every((e) => healthy.receiver.forEvent(e.id).length > 0), {
    timeoutMs: 30_000,
    what: 'every healthy event',
  });
  return { latencies: sent.map((e) => healthy.receiver.forEvent(e.id)[0]!.at - e.at), startedAt };
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;

describe('fifty healthy channels beside five endpoints that start hanging together (one worker, default slots)', () => {
  let service: TestService | undefined;
  const receivers: Receiver[] = [];
  afterEach(async () => {
    // The hanging sockets first: the worker's attempts then end at once.
    for (const r of receivers.splice(0)) await r.close();
    await service?.close();
  });

  it(`delivers every healthy event within ${BOUND_MS} ms while the hanging ones hold more sockets than the worker has slots`, async () => {
    service = await startTestService({
      worker: true,
      env: { ...FAST_ENV, CONSIGNA_DELIVERY_TIMEOUT_MS: '10000', CONSIGNA_WORKER_SLOW_AFTER_MS: String(SLOW_AFTER_MS) },
    });
    const healthyReceiver = await startReceiver();
    receivers.push(healthyReceiver);
    const hangingReceivers = await Promise.all(Array.from({ length: 5 }, () => startReceiver()));
    receivers.push(...hangingReceivers);
    for (const r of hangingReceivers) r.hold();
    const hanging = [];
    for (const r of hangingReceivers) hanging.push((await channelWith(service, r.url)).canalId);
    const healthy = [];
    for (let i = 0; i < 50; i++) healthy.push((await channelWith(service, healthyReceiver.url)).canalId);

    // What operators see, sampled while the endpoints hang (before any request can time out).
    const metric = async (name: string) =>
      Number(new RegExp(`^${name} (\\S+)$`, 'm').exec((await service!.inject({ method: 'GET', url: '/metrics' })).body)?.[1]);
    const seen = { slow: 0, channels: 0, oldest: 0 };
    const sampling = (async () => {
      const until = Date.now() + 9000;
      while (Date.now() < until) {
        seen.slow = Math.max(seen.slow, await metric('consigna_webhook_requests_slow'));
        seen.channels = Math.max(seen.channels, await metric('consigna_webhook_channels_slow'));
        seen.oldest = Math.max(seen.oldest, await metric('consigna_webhook_requests_slow_oldest_seconds'));
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const { latencies, startedAt } = await healthyBesideHanging(
      service.ctx.database.db,
      { channels: healthy, receiver: healthyReceiver, rounds: 4 },
      { channels: hanging, backlog: 100 },
    );
    await sampling;
    expect(latencies).toHaveLength(200);
    expect(Math.max(...latencies), `p95 ${p95(latencies)} ms`).toBeLessThan(BOUND_MS);

    // The hanging endpoints held more requests at once than the worker has slots (64):
    // those past slowAfterMs hold a socket, not a slot. Counted before the first of them
    // could time out (10 s), so all were open together. Each within its channel's cap (32).
    const openTogether = hangingReceivers.reduce((n, r) => n + r.requests.filter((q) => q.at < startedAt + 9000).length, 0);
    expect(openTogether).toBeGreaterThan(64);
    for (const r of hangingReceivers) expect(r.mostOpen).toBeLessThanOrEqual(32);
    expect(seen.slow).toBeGreaterThan(64);
    expect(seen.channels).toBe(5);
    expect(seen.oldest).toBeGreaterThanOrEqual(1);

    // Nothing given up on: every hanging channel's delivery is still PENDENTE.
    const { rows } = await sql<{ pending: number }>`
      select count(*) filter (where status = 'PENDENTE')::int as pending
      from deliveries where channel_id = any(${hanging}::uuid[])
    `.execute(service.ctx.database.db);
    expect(rows[0]!.pending).toBe(500);
  }, 90_000);

  it('gives a channel that was slow and recovers its full share back', async () => {
    const cap = 8;
    service = await startTestService({
      worker: true,
      env: {
        ...FAST_ENV,
        CONSIGNA_WORKER_CONCURRENCY: '16',
        CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: String(cap),
        CONSIGNA_WORKER_SLOW_AFTER_MS: '300',
        CONSIGNA_DELIVERY_TIMEOUT_MS: '3000',
      },
    });
    const first = await startReceiver();
    receivers.push(first);
    first.hold();
    const channel = await channelWith(service, first.url);
    const db = service.ctx.database.db;
    const delivered = async () =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from deliveries where channel_id = ${channel.canalId} and status = 'ENTREGUE'`.execute(db)
      ).rows[0]!.n;

    // Its endpoint hangs: its cap of requests open, past slowAfterMs: the channel is slow.
    await emit(db, channel.canalId, 12);
    await waitFor(() => first.requests.length >= cap, { timeoutMs: 5000, what: 'the cap of requests open' });
    await waitFor(
      async () => /^consigna_webhook_channels_slow 1$/m.test((await service!.inject({ method: 'GET', url: '/metrics' })).body),
      { timeoutMs: 5000, what: 'the channel counted slow' },
    );
    // It answers again: the late answers, then quick ones, which end its slowness.
    first.release();
    await waitFor(async () => (await delivered()) === 12, { timeoutMs: 15_000, what: 'the first events delivered' });
    await waitFor(
      async () => /^consigna_webhook_channels_slow 0$/m.test((await service!.inject({ method: 'GET', url: '/metrics' })).body),
      { timeoutMs: 5000, what: 'the channel no longer slow' },
    );

    // A burst to an endpoint that answers in 200 ms: its whole cap at once again, not the
    // slow channels' share (a quarter of the 16 slots).
    const second = await startReceiver({ delayMs: 200 });
    receivers.push(second);
    expect((await putWebhook(service, channel.json, { url: second.url })).statusCode).toBe(200);
    await emit(db, channel.canalId, 40);
    await waitFor(async () => (await delivered()) === 52, { timeoutMs: 20_000, what: 'the burst delivered' });
    expect(second.mostOpen).toBe(cap);
  }, 60_000);
});

describeOnPostgres('two worker processes beside endpoints that start hanging together', () => {
  afterAll(() => killAll());

  it(`deliver every healthy event within ${BOUND_MS} ms`, async () => {
    const database = await createTestDatabase();
    const env = {
      ...FAST_ENV,
      CONSIGNA_WORKER_CONCURRENCY: '16',
      CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: '16',
      CONSIGNA_WORKER_SLOW_AFTER_MS: String(SLOW_AFTER_MS),
      CONSIGNA_DELIVERY_TIMEOUT_MS: '10000',
      CONSIGNA_MASTER_KEY: 'ab'.repeat(32),
    };
    const admin = await startTestService({ database, env });
    const healthyReceiver = await startReceiver();
    const hangingReceivers = await Promise.all(Array.from({ length: 5 }, () => startReceiver()));
    try {
      for (const r of hangingReceivers) r.hold();
      const hanging = [];
      for (const r of hangingReceivers) hanging.push((await channelWith(admin, r.url)).canalId);
      const healthy = [];
      for (let i = 0; i < 20; i++) healthy.push((await channelWith(admin, healthyReceiver.url)).canalId);
      const workers = [
        await startConsigna('worker', { ...env, DATABASE_URL: database.url! }),
        await startConsigna('worker', { ...env, DATABASE_URL: database.url! }),
      ];
      await waitFor(
        async () =>
          (await sql<{ n: number }>`select count(*)::int as n from delivery_workers`.execute(admin.ctx.database.db)).rows[0]!
            .n === 2,
        { timeoutMs: 5000, what: 'two workers registered' },
      );
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const { latencies } = await healthyBesideHanging(
        admin.ctx.database.db,
        { channels: healthy, receiver: healthyReceiver, rounds: 5 },
        { channels: hanging, backlog: 50 },
      );
      expect(Math.max(...latencies), `p95 ${p95(latencies)} ms`).toBeLessThan(BOUND_MS);
      // Both workers' 32 slots together were not enough for the hanging requests: they let go of them.
      expect(hangingReceivers.reduce((n, r) => n + r.requests.length, 0)).toBeGreaterThan(32);
      // Both report their pool through the heartbeat, for `consigna status`.
      // Both report their slots with their heartbeat, and `consigna status` lists them.
      const status = async () => {
        const { stdout } = await run(process.execPath, ['bin/consigna.js', 'status', '--json'], {
          env: { ...process.env, ...env, DATABASE_URL: database.url!, LOG_LEVEL: 'warn' },
        });
        return JSON.parse(stdout) as { trabalhadores: Array<Record<string, number | string>> };
      };
      await waitFor(
        async () => {
          const { trabalhadores } = await status();
          return trabalhadores.length === 2 && trabalhadores.some((w) => Number(w.pedidosLentos) > 0);
        },
        { timeoutMs: 10_000, what: 'slow requests in consigna status' },
      );
      const { trabalhadores } = await status();
      for (const w of trabalhadores) {
        expect(w).toMatchObject({
          vagasOcupadas: expect.any(Number),
          vagasDeCanaisLentos: expect.any(Number),
          pedidosLentos: expect.any(Number),
          lentoMaisAntigoSegundos: expect.any(Number),
          canaisLentos: expect.any(Number),
        });
      }
      for (const r of [healthyReceiver, ...hangingReceivers]) await r.close();
      for (const worker of workers) await worker.kill();
    } finally {
      for (const r of [healthyReceiver, ...hangingReceivers]) await r.close().catch(() => {});
      await admin.close();
      await database.drop();
    }
  }, 90_000);
});
