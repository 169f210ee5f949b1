import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestService, type TestService } from '../helpers/service.ts';

type Operation = { responses: Record<string, { description?: string; headers?: Record<string, unknown> }>; security?: unknown[] };

describe('/openapi.yaml', () => {
  let service: TestService;
  let spec: { openapi: string; paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    service = await startTestService();
    const response = await service.inject({ method: 'GET', url: '/openapi.yaml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/yaml/);
    spec = parse(response.body);
  });
  afterAll(() => service.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(spec.openapi).toBe('3.1.0');
    const result = await new Validator().validate(spec as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every response of the token endpoint and ping', () => {
    const token = spec.paths['/v1/oauth/token']!.post!;
    expect(Object.keys(token.responses).sort()).toEqual(['200', '400', '401', '413', '429', '503']);
    expect(token.responses['429']!.headers).toHaveProperty('Retry-After');
    expect(token.responses['401']!.headers).toHaveProperty('WWW-Authenticate');
    const ping = spec.paths['/v1/ping']!.get!;
    expect(Object.keys(ping.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '503']));
    expect(ping.responses['401']!.headers).toHaveProperty('WWW-Authenticate');
    expect(ping.security).toEqual([{ bearerAuth: [] }]);
  });

  it('every documented operation lists an error response besides success', () => {
    for (const [path, operations] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses);
        expect(
          statuses.some((s) => s.startsWith('2')),
          `${method} ${path}`,
        ).toBe(true);
        if (path.startsWith('/v1/'))
          expect(
            statuses.some((s) => /^[45]/.test(s)),
            `${method} ${path}`,
          ).toBe(true);
      }
    }
  });

  it('serves the API reference page from local assets', async () => {
    const docs = await service.inject({ method: 'GET', url: '/docs/referencia/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
    expect(docs.body).not.toMatch(/src="https?:\/\//);
    const json = await service.inject({ method: 'GET', url: '/docs/referencia/json' });
    expect(json.statusCode).toBe(200);
  });
});
