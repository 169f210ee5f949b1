import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

describe('errors and request ids', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('unknown routes are 404 nao_encontrado with the request id', async () => {
    for (const url of ['/v1/nada', '/qualquer', '/v2/links']) {
      const response = await service.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'nao_encontrado',
        message: expect.any(String),
        requestId: response.headers['x-request-id'],
      });
    }
  });

  it('every response carries a distinct X-Request-Id', async () => {
    const a = await service.inject({ method: 'GET', url: '/healthz' });
    const b = await service.inject({ method: 'GET', url: '/healthz' });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('health and readiness', async () => {
    expect((await service.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await service.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('an unexpected error is 500 erro_interno with nothing internal in the body', async () => {
    const { buildApp } = await import('../../src/app.ts');
    const app = await buildApp(service.ctx);
    app.get('/boom', async () => {
      throw new Error('segredo interno: stack e SQL');
    });
    const response = await app.inject({ method: 'GET', url: '/boom' });
    await app.close();
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body.code).toBe('erro_interno');
    expect(JSON.stringify(body)).not.toContain('segredo interno');
    expect(body.requestId).toBe(response.headers['x-request-id']);
  });

  it('request logs name the route pattern, never the raw url', async () => {
    await service.inject({ method: 'GET', url: '/healthz?token=abcdefgh12345' });
    const line = service.logs.find((l) => l.includes('"route":"/healthz"'));
    expect(line).toBeDefined();
    expect(service.logs.join('\n')).not.toContain('abcdefgh12345');
  });
});
