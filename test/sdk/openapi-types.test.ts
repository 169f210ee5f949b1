// The SDK cannot drift from the contract: its types file is regenerated from the
// /openapi.json of a running service and must be identical, and every API operation
// of that document has an SDK method.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Consigna } from '../../packages/sdk/src/index.ts';
import { TYPES_FILE, generateTypes } from '../../packages/sdk/scripts/generate-types.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

/** Operation → SDK method. Left out on purpose: probes, and what only the inbox page or the service itself calls. */
const METHODS: Record<string, keyof Consigna | null> = {
  'POST /v1/oauth/token': 'getAccessToken',
  'GET /v1/ping': 'ping',
  'POST /v1/links': 'createLink',
  'GET /v1/links': 'listLinks',
  'GET /v1/links/{id}': 'getLink',
  'POST /v1/links/{id}/proposta/simular': 'simulateProposal',
  'POST /v1/links/{id}/jornada/simular': 'simulateJourney',
  'POST /v1/links/{id}/expiracao/simular': 'simulateExpiry',
  'PUT /v1/marca': 'putBrand',
  'GET /v1/marca': 'getBrand',
  'DELETE /v1/marca': 'deleteBrand',
  'GET /v1/eventos': 'listEvents',
  'GET /v1/eventos/{id}': 'getEvent',
  'GET /v1/relatorios/funil': 'getFunnel',
  'POST /v1/portal/sessoes': 'createPortalSession',
  'DELETE /v1/portal/sessoes': 'revokePortalSessions',
  'PUT /v1/webhooks': 'putWebhook',
  'GET /v1/webhooks': 'getWebhook',
  'DELETE /v1/webhooks': 'deleteWebhook',
  'POST /v1/webhooks/segredo': 'rotateWebhookSecret',
  'POST /v1/webhooks/teste': 'sendTestEvent',
  'GET /v1/webhooks/entregas': 'listDeliveries',
  'GET /v1/webhooks/entregas/{id}': 'getDelivery',
  'POST /v1/webhooks/entregas/{id}/reenviar': 'resendDelivery',
  'POST /v1/webhooks/entregas/reenviar': 'recoverDeliveries',
  'POST /v1/webhooks/retentativas/simular': 'simulateRetries',
  'PUT /v1/sandbox/receptor': 'ensureInbox',
  'PUT /v1/sandbox/receptor/{token}/modo': 'setInboxStatus',
  'GET /v1/sandbox/receptor/{token}/eventos': 'listInboxEvents',
  'GET /v1/sandbox/receptor/{token}/eventos/{id}/corpo': 'getInboxEventBody',
  'DELETE /v1/sandbox/receptor/eventos': 'clearInbox',
  // The inbox's own URL (the service posts events to it) and the viewer's clear button.
  'POST /v1/sandbox/receptor/{token}': null,
  'DELETE /v1/sandbox/receptor/{token}/eventos': null,
  // Followed by the SDK's `listen` function (a stream, not a request/answer method).
  'GET /v1/sandbox/receptor/{token}/eventos/fluxo': null,
  'GET /healthz': null,
  'GET /readyz': null,
};

let service: TestService;
let document: { paths: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  service = await startTestService({ listen: true });
  const response = await fetch(`${service.baseUrl}/openapi.json`);
  expect(response.status).toBe(200);
  document = await response.json();
});

afterAll(async () => {
  await service?.close();
});

describe('SDK types and the served contract', () => {
  it('packages/sdk/src/openapi.d.ts is exactly what the running service generates', async () => {
    const generated = await generateTypes(document);
    const committed = fs.readFileSync(TYPES_FILE, 'utf8');
    if (generated !== committed) {
      if (process.env.CONSIGNA_UPDATE_SDK_TYPES === '1') {
        fs.writeFileSync(TYPES_FILE, generated);
        return;
      }
      const out = path.resolve(import.meta.dirname, '../../test-output/openapi.d.ts');
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, generated);
      expect.fail(
        `packages/sdk/src/openapi.d.ts is out of date with the service's /openapi.json. Regenerate it with\n` +
          `  CONSIGNA_UPDATE_SDK_TYPES=1 npx vitest run test/sdk/openapi-types.test.ts\n` +
          `(or npm run generate -w @consigna/sdk against a running service), review the diff, and run npm run typecheck:\n` +
          `a changed schema may need a change in packages/sdk/src/types.ts or client.ts. Fresh copy: test-output/openapi.d.ts`,
      );
    }
  });

  it('every operation of the document has an SDK method', () => {
    const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${route}`),
    );
    expect(operations.filter((op) => !(op in METHODS))).toEqual([]);
    expect(Object.keys(METHODS).filter((op) => !operations.includes(op))).toEqual([]);
    for (const method of Object.values(METHODS)) if (method) expect(typeof Consigna.prototype[method]).toBe('function');
  });
});
