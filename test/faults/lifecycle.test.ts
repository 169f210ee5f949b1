// Graceful shutdown of a real `serve` process (issue 7): SIGTERM lets in-flight
// HTTP requests and delivery attempts finish, records them, and exits in bounded time.
import { afterAll, expect, it } from 'vitest';
import { startTestService } from '../helpers/service.ts';
import { createTestDatabase, describeOnPostgres } from '../helpers/db.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { startConsigna, killAll } from '../helpers/processes.ts';
import { createLinkVia } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { waitFor, sleep } from '../helpers/wait.ts';

const MASTER_KEY = 'cd'.repeat(32);

describeOnPostgres('graceful shutdown (PostgreSQL, real process)', () => {
  afterAll(() => killAll());

  it('SIGTERM finishes the in-flight delivery and request, records them, then exits 0', async () => {
    const database = await createTestDatabase();
    const env = { CONSIGNA_MASTER_KEY: MASTER_KEY, CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true' };
    const admin = await startTestService({ database, env });
    const receiver = await startReceiver();
    try {
      const channel = await admin.createChannel();
      const auth = await admin.bearer(channel);
      const webhook = await admin.inject({
        method: 'PUT',
        url: '/v1/webhooks',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: receiver.url }),
      });
      rememberSecret(webhook.json().segredo);
      const link = (await createLinkVia(admin, auth, { cpf: '12345678909' })).json();

      receiver.hold();
      const serve = await startConsigna('serve', { ...env, DATABASE_URL: database.url!, CONSIGNA_SHUTDOWN_TIMEOUT_MS: '15000' });
      const journey = new JourneyClient(admin, link.url);
      await journey.upToReview();
      await journey.post('proposta');
      await waitFor(() => receiver.requests.length >= 1, { timeoutMs: 10_000, what: 'an attempt in flight' });

      // An HTTP request running when the signal arrives (the test event waits on the
      // held receiver) still gets its answer.
      const inFlight = fetch(`${serve.url}/v1/webhooks/teste`, { method: 'POST', headers: auth });
      await waitFor(() => receiver.requests.some((r) => r.headers['x-service-event-type'] === 'webhook.teste'), {
        timeoutMs: 10_000,
        what: 'the test event in flight',
      });
      serve.child.kill('SIGTERM');
      await sleep(500);
      expect(serve.alive()).toBe(true); // waiting for the held attempt and request
      const started = Date.now();
      receiver.release();
      const answer = await inFlight.catch((error) => {
        throw new Error(`in-flight request failed: ${String(error.cause ?? error)}\n${serve.output().slice(-1500)}`);
      });
      expect(answer.status).toBe(200);
      expect((await answer.json()).entregue).toBe(true);
      const code = await serve.exited();
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);

      const rows = await admin.ctx.database.db.selectFrom('deliveries').select(['status', 'tentativas']).execute();
      const delivered = rows.filter((r) => r.status === 'ENTREGUE');
      expect(delivered.length).toBeGreaterThanOrEqual(1);
      for (const row of delivered) expect(row.tentativas).toBe(1);
    } finally {
      await receiver.close();
      await admin.close();
      await database.drop();
    }
  }, 120_000);
});
