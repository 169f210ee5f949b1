// Crash safety and several workers on one PostgreSQL (the embedded database serves
// one process only, so this file runs with DATABASE_URL). A worker in its own OS
// process is killed with SIGKILL while its attempt is in flight; its lease runs out
// (15 s, the configured minimum, waited for real) and another worker completes the
// delivery. Then two workers share a queue of 200 events.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { describeOnPostgres } from '../helpers/db.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { captureLogLine } from '../helpers/secrets.ts';
import { waitFor } from '../helpers/wait.ts';
import { createLinkVia } from '../helpers/links.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { proposalEvent } from '../../src/events/event-body.ts';
import { claimDue } from '../../src/webhooks/delivery/sql/claim-due.ts';
import { startDeliveryWorker } from '../../src/webhooks/delivery/worker.ts';
import { FAST_ENV, channelWith, listDeliveries, proposalLink, signedWith, simulate } from './support.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'worker-process.ts');
const LEASE_SECONDS = 15;
const ENV = {
  ...FAST_ENV,
  CONSIGNA_WORKER_LEASE_SECONDS: String(LEASE_SECONDS),
  // The lease must cover three delivery timeouts.
  CONSIGNA_DELIVERY_TIMEOUT_MS: '5000',
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});
afterAll(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function receiver(options: Parameters<typeof startReceiver>[0] = {}): Promise<Receiver> {
  const r = await startReceiver(options);
  cleanups.push(() => r.close());
  return r;
}

async function service(options: Parameters<typeof startTestService>[0]): Promise<TestService> {
  const s = await startTestService(options);
  cleanups.push(() => s.close());
  return s;
}

/** Starts the worker role in a child process against `api`'s database; resolves once it is ready. */
async function workerProcess(api: TestService): Promise<ChildProcess> {
  const child = spawn(process.execPath, [FIXTURE], {
    env: {
      PATH: process.env.PATH,
      ...ENV,
      DATABASE_URL: api.database.url,
      CONSIGNA_MASTER_KEY: api.config.masterKey!.toString('hex'),
      PUBLIC_BASE_URL: api.config.publicBaseUrl,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      // Its log lines join the secret-leak check of this file.
      for (const line of chunk.toString('utf8').split('\n')) if (line) captureLogLine(line);
      if (/^ready$/m.test(output)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`worker process exited early (${code ?? signal}): ${output}`)));
  });
  await Promise.race([
    ready,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`worker process not ready: ${output}`)), 20_000).unref()),
  ]);
  return child;
}

// On both databases, in one process: a claim whose worker "died" (claimed, never
// recorded) is taken over once its lease has run out on a ManualClock. No waiting.
describe('lease takeover (ManualClock)', () => {
  it('takes over an abandoned claim after the lease, and never numbers an attempt above 7', async () => {
    const clock = new ManualClock(new Date());
    const s = await service({ clock, env: ENV });
    const db = s.ctx.database.db;
    const r = await receiver({ status: 500 });
    const { canalId, auth, secret } = await channelWith(s, r.url, ['proposta.criada']);
    await proposalLink(s, auth);
    const row = () => db.selectFrom('deliveries').selectAll().where('channel_id', '=', canalId).executeTakeFirstOrThrow();

    // Attempt 1 is claimed by a worker that dies before sending or recording anything.
    const {
      rows: [abandoned],
    } = await claimDue(db, clock.now(), 10, LEASE_SECONDS);
    expect(abandoned).toMatchObject({ attempt: 1 });
    expect(await row()).toMatchObject({ status: 'PENDENTE', tentativas: 1 });

    let worker = await startDeliveryWorker(s.ctx);
    cleanups.push(() => worker.stop());
    // Not before the lease ends…
    clock.advance(LEASE_SECONDS - 1);
    worker.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.requests).toHaveLength(0);
    // …but right after it: attempt 2, then the schedule goes on (clock-driven retries).
    for (let attempt = 2; attempt <= 6; attempt++) {
      clock.advance(attempt === 2 ? 2 : 1);
      worker.wake();
      await waitFor(async () => r.requests.length === attempt - 1 && (await row()).lease_id === null, {
        what: `attempt ${attempt}`,
      });
    }
    expect(r.requests.map((q) => q.headers['x-service-delivery-attempt'])).toEqual(['2', '3', '4', '5', '6']);
    expect(await row()).toMatchObject({ status: 'PENDENTE', tentativas: 6, last_http_status: 500 });

    // The seventh attempt is claimed by a worker that dies too; the takeover is still attempt 7.
    await worker.stop();
    clock.advance(1);
    const {
      rows: [seventh],
    } = await claimDue(db, clock.now(), 10, LEASE_SECONDS);
    expect(seventh).toMatchObject({ attempt: 7 });
    clock.advance(LEASE_SECONDS + 1);
    r.setStatus(200);
    worker = await startDeliveryWorker(s.ctx);
    await waitFor(async () => (await row()).status === 'ENTREGUE', { what: 'ENTREGUE after the takeover' });
    expect(r.requests.at(-1)!.headers['x-service-delivery-attempt']).toBe('7');
    expect(signedWith(r.requests.at(-1)!, secret!)).toBe(true);
    expect(await row()).toMatchObject({ status: 'ENTREGUE', tentativas: 7, last_http_status: 200 });
    const [listed] = await listDeliveries(s, auth);
    expect(listed).toMatchObject({ status: 'ENTREGUE', tentativas: 7 });
  });
});

describeOnPostgres('crash safety and concurrent workers (PostgreSQL)', () => {
  it('a worker killed mid-attempt leaves a lease that expires; another worker delivers with attempt 2', async () => {
    const api = await service({ env: ENV });
    const r = await receiver();
    // Only formalizada: the journey's own events create no delivery, the simulator one does.
    const { canalId, auth, json, secret } = await channelWith(api, r.url, ['proposta.formalizada']);
    const linkId = await proposalLink(api, auth);

    const child = await workerProcess(api);
    r.hold();
    await simulate(api, json, linkId, 'FORMALIZADA');
    await waitFor(() => r.requests.length === 1, { timeoutMs: 10_000, what: 'the first attempt to arrive' });
    const firstAt = r.requests[0]!.at;
    const [row] = await api.ctx.database.db.selectFrom('deliveries').selectAll().where('channel_id', '=', canalId).execute();
    expect(row).toMatchObject({ status: 'PENDENTE', tentativas: 1, last_attempt_at: null });
    expect(row!.lease_id).not.toBeNull();
    const leaseEnd = row!.next_attempt_at!.getTime();
    expect(leaseEnd - firstAt).toBeGreaterThan((LEASE_SECONDS - 2) * 1000);

    // A second worker is already running before the crash: it must leave a live lease alone.
    const other = await service({ database: api.database, worker: true, env: ENV });
    child.kill('SIGKILL');
    const [, signal] = (await new Promise((resolve) => child.once('exit', (...a) => resolve(a)))) as [
      number | null,
      string | null,
    ];
    expect(signal).toBe('SIGKILL');
    r.release(); // the held request died with the process; later ones are answered 200

    await waitFor(async () => (await listDeliveries(other, auth))[0]?.status === 'ENTREGUE', {
      timeoutMs: (LEASE_SECONDS + 10) * 1000,
      intervalMs: 200,
      what: 'the delivery to be completed by the other worker',
    });
    const [delivered] = await listDeliveries(other, auth);
    expect(delivered).toMatchObject({ status: 'ENTREGUE', tentativas: 2, ultimoHttpStatus: 200 });
    expect(r.requests.map((q) => q.headers['x-service-delivery-attempt'])).toEqual(['1', '2']);
    expect(new Set(r.requests.map((q) => q.headers['x-service-event-id']))).toEqual(new Set([delivered!.eventoId]));
    expect(r.requests[1]!.body).toBe(r.requests[0]!.body);
    for (const q of r.requests) expect(signedWith(q, secret!)).toBe(true);
    // Not taken over before the lease ran out.
    expect(r.requests[1]!.at).toBeGreaterThanOrEqual(leaseEnd - 1000);
    console.log(`crash: lease taken over ${r.requests[1]!.at - firstAt} ms after the killed attempt`);
  }, 50_000);

  it('two workers share 200 events: every event delivered at least once', async () => {
    const one = await service({ worker: true, env: ENV, outbound: { userAgent: 'worker-1' } });
    const two = await service({ database: one.database, worker: true, env: ENV, outbound: { userAgent: 'worker-2' } });
    const r = await receiver({ delayMs: 5 });
    const { canalId, auth } = await channelWith(one, r.url);
    const link = await createLinkVia(one, auth, { cpf: '52998224725' });
    const linkRef = { id: link.json().id as string, referenciaExterna: null };
    const total = 200;
    const started = Date.now();
    // Ten commits of twenty events, each commit waking both workers.
    for (let batch = 0; batch < 10; batch++) {
      await one.ctx.database.db.transaction().execute(async (tx) => {
        for (let i = 0; i < 20; i++) {
          const n = batch * 20 + i;
          const event = proposalEvent({
            tipo: 'proposta.formalizada',
            at: new Date(),
            ambiente: 'SANDBOX',
            link: linkRef,
            proposta: { numero: 800_000 + n, status: 'FORMALIZADA', valor: 1000 + n, parcelas: 12, valorParcela: 100 },
          });
          await recordEvent(tx, canalId, event);
        }
      });
    }
    const db = two.ctx.database.db;
    await waitFor(
      async () => {
        const rows = await db
          .selectFrom('deliveries')
          .select('status')
          .where('channel_id', '=', canalId)
          .where('status', '=', 'ENTREGUE')
          .execute();
        return rows.length === total;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: 'all 200 deliveries ENTREGUE' },
    );
    const elapsed = Date.now() - started;
    const events = await db.selectFrom('events').select('id').where('channel_id', '=', canalId).execute();
    expect(events).toHaveLength(total);
    const seen = new Map<string, number>();
    for (const q of r.requests) {
      const id = q.headers['x-service-event-id'] as string;
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    for (const e of events) expect(seen.get(e.id) ?? 0, e.id).toBeGreaterThanOrEqual(1);
    const duplicates = r.requests.length - seen.size;
    const byWorker = { one: 0, two: 0 };
    for (const q of r.requests) {
      if (q.headers['user-agent'] === 'worker-1') byWorker.one += 1;
      else byWorker.two += 1;
    }
    console.log(
      `two workers: ${total} events, ${r.requests.length} requests, ${duplicates} duplicates, ` +
        `worker-1 sent ${byWorker.one}, worker-2 sent ${byWorker.two}, ${elapsed} ms`,
    );
    expect(seen.size).toBe(total);
    expect(byWorker.one + byWorker.two).toBe(r.requests.length);
    expect(byWorker.one).toBeGreaterThan(0);
    expect(byWorker.two).toBeGreaterThan(0);
    const tentativas = await db.selectFrom('deliveries').select('tentativas').where('channel_id', '=', canalId).execute();
    expect(tentativas.every((t) => t.tentativas === 1)).toBe(true);
  }, 50_000);

  it('DELETE racing an event commit leaves no orphan pending delivery', async () => {
    const api = await service({ env: ENV });
    const r = await receiver();
    const { canalId, auth, json } = await channelWith(api, r.url, ['proposta.formalizada']);
    const linkId = await proposalLink(api, auth);
    const db = api.ctx.database.db;
    // The DELETE's transaction, paused before its commit: exactly the statements of deleteWebhook.
    const client = new pg.Client({ connectionString: api.database.url });
    await client.connect();
    cleanups.push(() => client.end());
    await client.query('begin');
    await client.query('delete from webhooks where channel_id = $1', [canalId]);
    await client.query("delete from deliveries where channel_id = $1 and status = 'PENDENTE'", [canalId]);
    // An event commits meanwhile (it may wait for the DELETE: it must not slip a delivery in).
    const change = simulate(api, json, linkId, 'FORMALIZADA');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.query('commit');
    await change;
    const orphans = await db.selectFrom('deliveries').select(['id', 'status']).where('channel_id', '=', canalId).execute();
    const events = await db
      .selectFrom('events')
      .select('tipo')
      .where('channel_id', '=', canalId)
      .where('tipo', '=', 'proposta.formalizada')
      .execute();
    expect(events).toHaveLength(1);
    expect(orphans).toEqual([]);
  });
});
