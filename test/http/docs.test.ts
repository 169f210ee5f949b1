import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestService, type TestService } from '../helpers/service.ts';

describe('/docs (pt-BR integration guide)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('serves the guide with this service’s address in every example', async () => {
    const response = await service.inject({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.body).toContain('<html lang="pt-BR">');
    expect(response.body).not.toContain('{base_url}');
    expect(response.body).toContain(`${service.baseUrl}/v1/oauth/token`);
    expect(response.body).toContain('href="/docs/referencia/"');
    for (const section of [
      'Autenticação',
      'Criar um link',
      'Registrar o webhook',
      'Verificar a assinatura',
      'Cenários do sandbox',
      'Simuladores: jornada do cliente e proposta',
      'Jornada do cliente, sem navegador',
      'os eventos no seu servidor local',
      'Ou com uma biblioteca Standard Webhooks',
      'Receptor de testes',
      'Erros e o que fazer',
      'Limites',
    ]) {
      expect(response.body).toContain(section);
    }
  });

  it('shows the portal’s screenshot, with its text alternative, served as a small PNG', async () => {
    const page = (await service.inject({ method: 'GET', url: '/docs' })).body;
    const img = /<img src="([^"]+)" alt="([^"]+)"/.exec(page);
    expect(img, 'an <img> in the guide').not.toBeNull();
    const [, src, alt] = img!;
    expect(alt).toMatch(/^Visão geral do portal/);
    expect(src).toMatch(new RegExp(`^${service.baseUrl}/assets/portal-visao-geral\\.png\\?v=[\\w-]{8}$`));
    const image = await service.inject({
      method: 'GET',
      url: new URL(src!).pathname + new URL(src!).search,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-encoding']).toBeUndefined(); // already compressed: sent as is
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(image.rawPayload.length).toBeLessThanOrEqual(60 * 1024);
    expect((await service.inject({ method: 'GET', url: '/docs/guia.md' })).body).toContain(src);
  });

  it('explains every error code the OpenAPI document declares', async () => {
    const spec = parse((await service.inject({ method: 'GET', url: '/openapi.yaml' })).body);
    const codes = new Set<string>();
    const walk = (node: unknown) => {
      if (!node || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      for (const key of ['code', 'error']) {
        const prop = (record.properties as Record<string, { enum?: string[] }> | undefined)?.[key];
        for (const value of prop?.enum ?? []) codes.add(value);
      }
      for (const value of Object.values(record)) walk(value);
    };
    walk(spec.paths);
    expect(codes.size).toBeGreaterThan(15);
    const guide = (await service.inject({ method: 'GET', url: '/docs/guia.md' })).body;
    const missing = [...codes].filter((code) => code !== 'temporarily_unavailable' && !guide.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
});
