// Crash and fault tests on PostgreSQL with real processes (issue 7): a serve process
// killed mid-burst, the database stopped under load, and two apis plus two workers
// on one database. In each, every event must reach the receiver at least once.
import { afterAll, afterEach, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../helpers/db.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { startConsigna, killAll } from '../helpers/processes.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.ts';
import { createLinkVia } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { waitFor, sleep } from '../helpers/wait.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

const MASTER_KEY = 'fe'.repeat(32);
const DOWN_SECONDS = Number(process.env.FAULT_DB_DOWN_SECONDS ?? 30);

const processEnv = (databaseUrl: string): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  CONSIGNA_MASTER_KEY: MASTER_KEY,
  CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
  CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1',
  CONSIGNA_WORKER_LEASE_SECONDS: '15',
  CONSIGNA_DELIVERY_TIMEOUT_MS: '5000',
  CONSIGNA_WORKER_POLL_SECONDS: '1',
  CONSIGNA_RATE_LIMIT_API: '0/60',
  CONSIGNA_PG_POOL_SIZE: '5',
});

interface Setup {
  admin: TestService;
  channel: IssuedCredentials;
  auth: Record<string, string>;
  receiver: Receiver;
  linkIds: string[];
}

/** A channel with a webhook to a real receiver, and `links` links with proposals (2 events each). */
async function setUp(database: TestDatabase, links: number, receiverDelayMs = 0): Promise<Setup> {
  const admin = await startTestService({
    database,
    env: {
      CONSIGNA_MASTER_KEY: MASTER_KEY,
      CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
      CONSIGNA_RATE_LIMIT_API: '0/60',
      CONSIGNA_RATE_LIMIT_JOURNEY: '0/60',
    },
  });
  const channel = await admin.createChannel();
  const auth = await admin.bearer(channel);
  const receiver = await startReceiver({ delayMs: receiverDelayMs });
  const registered = await admin.inject({
    method: 'PUT',
    url: '/v1/webhooks',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ url: receiver.url }),
  });
  expect(registered.statusCode).toBe(201);
  rememberSecret(registered.json().segredo);
  const linkIds: string[] = [];
  for (let i = 0; i < links; i++) {
    const link = (await createLinkVia(admin, auth, { cpf: '12345678909', referenciaExterna: `falha-${i}` })).json();
    const journey = new JourneyClient(admin, link.url);
    await journey.upToReview();
    await journey.post('proposta');
    linkIds.push(link.id);
  }
  return { admin, channel, auth, receiver, linkIds };
}

async function eventIds(admin: TestService): Promise<string[]> {
  return (await admin.ctx.database.db.selectFrom('deliveries').select('event_id').execute()).map((r) => r.event_id);
}

function deliveryReport(receiver: Receiver, expected: string[]) {
  const received = receiver.requests
    .filter((r) => r.headers['x-service-event-id'])
    .map((r) => String(r.headers['x-service-event-id']));
  const unique = new Set(received);
  return {
    expected: expected.length,
    received: received.length,
    unique: unique.size,
    duplicates: received.length - unique.size,
    missing: expected.filter((id) => !unique.has(id)),
  };
}

describeOnPostgres('crash and fault tests (PostgreSQL, real processes)', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    await killAll();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });
  afterAll(() => killAll());

  it('a serve process killed with SIGKILL during a burst loses no event', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const setup = await setUp(database, 12, 150);
    cleanups.push(
      () => setup.receiver.close(),
      () => setup.admin.close(),
    );

    const first = await startConsigna('serve', processEnv(database.url!));
    // More events through the process's own API while it delivers the first ones.
    const burst = Promise.allSettled(
      setup.linkIds.map((id) =>
        fetch(`${first.url}/v1/links/${id}/proposta/simular`, {
          method: 'POST',
          headers: { ...setup.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'FORMALIZADA' }),
        }),
      ),
    );
    await waitFor(() => setup.receiver.requests.length >= 5, { timeoutMs: 20_000, what: 'the first deliveries' });
    expect(await first.kill('SIGKILL')).toBe(null);
    await burst;

    const second = await startConsigna('serve', processEnv(database.url!));
    const expected = await eventIds(setup.admin);
    expect(expected.length).toBeGreaterThanOrEqual(24);
    await waitFor(() => deliveryReport(setup.receiver, expected).missing.length === 0, {
      timeoutMs: 60_000,
      what: 'every event delivered after the restart',
    });
    const report = deliveryReport(setup.receiver, expected);
    console.log(`SIGKILL during a burst: ${JSON.stringify({ ...report, missing: report.missing.length })}`);
    await waitFor(
      async () => {
        const pending = await setup.admin.ctx.database.db
          .selectFrom('deliveries')
          .select('id')
          .where('status', '<>', 'ENTREGUE')
          .execute();
        return pending.length === 0;
      },
      { timeoutMs: 30_000, what: 'every delivery recorded as ENTREGUE' },
    );
    await second.kill('SIGTERM');
  }, 180_000);

  it(`the database stopped for ${DOWN_SECONDS} s under load: 503 db_unavailable, no crash, recovery within 5 s, no event lost`, async () => {
    const pg: PrivatePostgres = await startPrivatePostgres();
    cleanups.push(() => pg.destroy());
    const database: TestDatabase = { url: pg.url, kind: 'postgres', drop: async () => {} };
    const setup = await setUp(database, 6);
    cleanups.push(
      () => setup.receiver.close(),
      () => setup.admin.close(),
    );
    setup.receiver.setStatus(500); // deliveries stay pending across the outage

    const service = await startConsigna('serve', processEnv(pg.url));
    const statuses: Record<string, number> = {};
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const r = await fetch(`${service.url}/v1/links/${setup.linkIds[0]}`, { headers: setup.auth }).catch(() => undefined);
        const key = r ? `${r.status}${r.status === 503 ? `:${(await r.json()).code}` : ''}` : 'network-error';
        if (r && r.status !== 503) await r.arrayBuffer().catch(() => {});
        statuses[key] = (statuses[key] ?? 0) + 1;
        await sleep(20);
      }
    })();

    await sleep(1000);
    await pg.stop();
    const stoppedAt = Date.now();
    await sleep(DOWN_SECONDS * 1000);
    expect(service.alive(), `the service died during the outage:\n${service.output().slice(-3000)}`).toBe(true);
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${service.url}/readyz`)).status).toBe(503);
    setup.receiver.setStatus(200);
    await pg.start();
    const startedAt = Date.now();
    await waitFor(async () => (await fetch(`${service.url}/v1/ping`, { headers: setup.auth })).status === 200, {
      timeoutMs: 5000,
      intervalMs: 50,
      what: 'the API to answer again',
    });
    const recoveredMs = Date.now() - startedAt;
    stop = true;
    await load;

    console.log(
      `database down ${Math.round((startedAt - stoppedAt) / 1000)} s: answers ${JSON.stringify(statuses)}, API back ${recoveredMs} ms after the database`,
    );
    expect(recoveredMs).toBeLessThan(5000);
    expect(Object.keys(statuses).filter((k) => !['200', '503:db_unavailable'].includes(k))).toEqual([]);
    expect(statuses['503:db_unavailable']).toBeGreaterThan(0);
    expect(service.alive()).toBe(true);

    const expected = await eventIds(setup.admin);
    await waitFor(() => deliveryReport(setup.receiver, expected).missing.length === 0, {
      timeoutMs: 30_000,
      what: 'every event delivered after the outage',
    });
    console.log(`after the outage: ${JSON.stringify({ ...deliveryReport(setup.receiver, expected), missing: 0 })}`);
    await service.kill('SIGTERM');
  }, 180_000);

  it('two apis and two workers on one database under load deliver every event (duplicates counted)', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const setup = await setUp(database, 20);
    cleanups.push(
      () => setup.receiver.close(),
      () => setup.admin.close(),
    );
    const env = processEnv(database.url!);
    const [apiA, apiB] = await Promise.all([startConsigna('api', env), startConsigna('api', env)]);
    await Promise.all([startConsigna('worker', env), startConsigna('worker', env)]);

    // Load on both apis: every link goes FORMALIZADA → APROVADA → CANCELADA.
    await Promise.all(
      setup.linkIds.map(async (id, i) => {
        const api = i % 2 === 0 ? apiA : apiB;
        for (const status of ['FORMALIZADA', 'APROVADA', 'CANCELADA']) {
          const r = await fetch(`${api.url}/v1/links/${id}/proposta/simular`, {
            method: 'POST',
            headers: { ...setup.auth, 'content-type': 'application/json' },
            body: JSON.stringify({ status }),
          });
          expect(r.status).toBe(200);
        }
      }),
    );
    const expected = await eventIds(setup.admin);
    expect(expected).toHaveLength(20 * 5);
    await waitFor(() => deliveryReport(setup.receiver, expected).missing.length === 0, {
      timeoutMs: 60_000,
      what: 'every event delivered',
    });
    const report = deliveryReport(setup.receiver, expected);
    console.log(`2 apis + 2 workers: ${JSON.stringify({ ...report, missing: 0 })}`);
    expect(report.missing).toEqual([]);
  }, 180_000);
});
