// A developer who registers a URL on their own machine is told the two ways out
// (docs/rules.md §5): `listen`, or the development switch of a local service. Only for
// local-looking URLs, and only in SANDBOX.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { channelWith, putWebhook } from './support.ts';

let service: TestService;
let json: Record<string, string>;

beforeAll(async () => {
  service = await startTestService();
  ({ json } = await channelWith(service));
});
afterAll(() => service?.close());

describe('url_invalida for a local receiver', () => {
  it.each([
    'http://127.0.0.1:4000/webhooks',
    'https://localhost:4000/webhooks',
    'http://minha-maquina:8080/hook',
    'https://192.168.0.10/hook',
    'https://[::1]:4000/hook',
    'http://hooks.canal.com.br/consigna',
  ])('%s names listen and the development switch', async (url) => {
    const r = await putWebhook(service, json, { url });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('url_invalida');
    expect(r.json().message).toContain('npx @consigna/sdk listen --forward-to');
    expect(r.json().message).toContain('CONSIGNA_ALLOW_INSECURE_WEBHOOKS');
  });

  it.each(['https://hooks.canal.com.br:22/consigna', 'https://fcbarcelona.com.br:22/x', 'nao é url'])(
    '%s (not local) gets the plain message',
    async (url) => {
      const r = await putWebhook(service, json, { url });
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('url_invalida');
      expect(r.json().message).not.toContain('listen');
    },
  );
});
