import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.ts';
import { createTestDatabase, describeOnPostgres } from '../helpers/db.ts';
import { waitFor } from '../helpers/wait.ts';

// Runs in the PostgreSQL pass of the suite (DATABASE_URL set), on a private server
// that the test stops and starts; the embedded database cannot be "stopped".
describeOnPostgres('database unavailable (PostgreSQL)', () => {
  let pgServer: PrivatePostgres;
  let service: TestService;

  beforeAll(async () => {
    pgServer = await startPrivatePostgres();
    service = await startTestService({ database: { url: pgServer.url, kind: 'postgres', drop: async () => {} } });
  }, 120_000);
  afterAll(async () => {
    await service?.close().catch(() => {});
    await pgServer?.destroy();
  });

  it('answers 503 db_unavailable while stopped and recovers when it is back', async () => {
    const channel = await service.createChannel();
    const headers = await service.bearer(channel);
    expect((await service.inject({ method: 'GET', url: '/v1/ping', headers })).statusCode).toBe(200);

    await pgServer.stop();
    const down = await service.inject({ method: 'GET', url: '/v1/ping', headers });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ code: 'db_unavailable', message: expect.any(String), requestId: down.headers['x-request-id'] });
    expect(down.headers['retry-after']).toBeDefined();
    expect((await service.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    const token = await service.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=client_credentials&client_id=${channel.clientId}&client_secret=${channel.clientSecret}`,
    });
    expect(token.statusCode).toBe(503);
    expect(token.json().error).toBe('temporarily_unavailable');
    expect((await service.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    await pgServer.start();
    await waitFor(async () => (await service.inject({ method: 'GET', url: '/v1/ping', headers })).statusCode === 200, {
      timeoutMs: 10_000,
      what: 'ping to recover',
    });
    expect((await service.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers 503 db_unavailable, not 500, when its database is dropped under it', async () => {
    const db = await createTestDatabase();
    const dropped = await startTestService({ database: { ...db, drop: async () => {} } });
    try {
      const channel = await dropped.createChannel();
      const headers = await dropped.bearer(channel);
      expect((await dropped.inject({ method: 'GET', url: '/v1/ping', headers })).statusCode).toBe(200);
      // Its connections are terminated (57P01), and new ones meet "database does not exist" (3D000).
      await db.drop();
      for (let i = 0; i < 2; i++) {
        const ping = await dropped.inject({ method: 'GET', url: '/v1/ping', headers });
        expect(ping.statusCode).toBe(503);
        expect(ping.json().code).toBe('db_unavailable');
        expect(ping.headers['retry-after']).toBeDefined();
      }
      const created = await dropped.inject({
        method: 'POST',
        url: '/v1/links',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: { cpf: '12345678909' },
      });
      expect(created.statusCode).toBe(503);
      expect(created.json().code).toBe('db_unavailable');
    } finally {
      await dropped.close().catch(() => {});
    }
  });
});
