import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

const CPF = '52998224725';

const parsed = (service: TestService) => service.logs.map((line) => JSON.parse(line) as Record<string, unknown>);

// Request loggers are made only when a request logs (src/observability/logger.ts):
// the lines that are written must still carry the request id and the route.
describe('request log lines', () => {
  describe('at LOG_LEVEL=info', () => {
    let service: TestService;
    let channel: IssuedCredentials;
    beforeAll(async () => {
      service = await startTestService();
      channel = await service.createChannel();
    });
    afterAll(() => service.close());

    it('one line per request with its request id, route pattern, status and channel, never the link url', async () => {
      const created = await service.inject({
        method: 'POST',
        url: '/v1/links',
        headers: { ...(await service.bearer(channel)), 'content-type': 'application/json' },
        payload: { cpf: CPF },
      });
      expect(created.statusCode).toBe(201);
      const requestId = created.headers['x-request-id'];
      const lines = parsed(service).filter((line) => line.requestId === requestId);
      expect(lines).toEqual([
        expect.objectContaining({
          level: 'info',
          msg: 'request',
          method: 'POST',
          route: '/v1/links',
          status: 201,
          channelId: channel.canalId,
        }),
      ]);
      const token = (created.json() as { url: string }).url.split('/').pop()!;
      const opened = await service.inject({ method: 'GET', url: `/c/${token}` });
      const openedLines = parsed(service).filter((line) => line.requestId === opened.headers['x-request-id']);
      expect(openedLines).toEqual([expect.objectContaining({ msg: 'request', route: '/c/:token', status: opened.statusCode })]);
      expect(service.logs.join('\n')).not.toContain(token);
    });
  });

  describe('at LOG_LEVEL=warn', () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startTestService({ env: { LOG_LEVEL: 'warn' } });
    });
    afterAll(() => service.close().catch(() => undefined));

    it('writes no request lines, and a warning still carries its request id', async () => {
      const ok = await service.inject({ method: 'GET', url: '/healthz' });
      expect(ok.statusCode).toBe(200);
      expect(parsed(service).filter((line) => line.msg === 'request')).toEqual([]);

      // A request that fails on the database logs through its own logger.
      await service.ctx.database.close();
      const failed = await service.inject({
        method: 'GET',
        url: '/v1/ping',
        headers: { authorization: `Bearer cat_${'x'.repeat(48)}` },
      });
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      const lines = parsed(service).filter((line) => line.requestId === failed.headers['x-request-id']);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(['warn', 'error']).toContain(line.level);
    });
  });
});
