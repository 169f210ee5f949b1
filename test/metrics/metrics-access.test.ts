// Who may read /metrics (README "Operating it"): a bearer token on the API port, or an
// address of its own that the API port does not answer for; public only when neither is set.
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startTestService, type TestService } from '../helpers/service.ts';
import type { ConfigError } from '../../src/config/config.ts';
import { loadConfig } from '../../src/config/config.ts';

const TOKEN = 'metricas-token-de-teste-0123456789';
const services: TestService[] = [];
afterAll(() => Promise.all(services.map((s) => s.close())));
const start = async (env: Record<string, string>, listen = false) => {
  const service = await startTestService({ env, listen });
  services.push(service);
  return service;
};

describe('/metrics access', () => {
  it('is public on the API port when nothing is set (local use), and says so in the log', async () => {
    const service = await start({}, true);
    expect((await service.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    expect(service.logs.join('\n')).toContain('GET /metrics is public on the API port');
  });

  it('asks for the token on the API port when CONSIGNA_METRICS_TOKEN is set', async () => {
    const service = await start({ CONSIGNA_METRICS_TOKEN: TOKEN });
    for (const authorization of [undefined, 'Bearer errado', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const response = await service.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect([authorization, response.statusCode, response.json().code]).toEqual([authorization, 401, 'unauthorized']);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
    const ok = await service.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('consigna_http_requests_total');
    expect(service.logs.join('\n')).not.toContain(TOKEN);
  });

  it('serves it only on its own address with CONSIGNA_METRICS_LISTEN (every role starts it, the worker too)', async () => {
    const port = await freePort();
    const service = await start({ CONSIGNA_METRICS_LISTEN: `127.0.0.1:${port}`, CONSIGNA_METRICS_TOKEN: TOKEN }, true);
    expect(service.metricsUrl).toBe(`http://127.0.0.1:${port}/metrics`);
    expect(
      (await service.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode,
    ).toBe(404);
    expect((await fetch(service.metricsUrl!)).status).toBe(401);
    const scraped = await fetch(service.metricsUrl!, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('consigna_database_up 1');
    expect((await fetch(`http://127.0.0.1:${port}/outra`)).status).toBe(404);
  });

  it('refuses a bad address or a short token at start-up, without echoing the token', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ CONSIGNA_METRICS_LISTEN: 'localhost' })).toEqual([
      'CONSIGNA_METRICS_LISTEN: expected host:port or a port, e.g. 127.0.0.1:9464, got "localhost"',
    ]);
    expect(problems({ CONSIGNA_METRICS_LISTEN: '127.0.0.1:70000' })).toHaveLength(1);
    expect(problems({ CONSIGNA_METRICS_TOKEN: 'curto' })).toEqual([
      'CONSIGNA_METRICS_TOKEN: expected at least 16 characters without spaces',
    ]);
    expect(loadConfig({ CONSIGNA_METRICS_LISTEN: '9464' }).metrics.listen).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ CONSIGNA_METRICS_LISTEN: '[::1]:9464' }).metrics.listen).toEqual({ host: '::1', port: 9464 });
  });
});
