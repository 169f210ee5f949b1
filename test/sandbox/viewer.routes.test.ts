// The viewer page on the server side (docs/rules.md §6): the server-rendered list,
// escaping of everything a sender controls, page headers (CSP, no-store), the form
// fallbacks (POST, 303, GET with a confirmation) and HTML answers for their errors.
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { channelWithInbox, listEvents, postToInbox } from './support.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('inbox viewer page', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service?.close());

  it('renders the stored events with the page headers, escaping what senders control', async () => {
    const { token, inbox } = await channelWithInbox(service);
    await postToInbox(service, token, '<script>alert(1)</script>', {
      'content-type': 'text/plain',
      'x-service-event-type': '<img src=x onerror=alert(1)>',
      'x-service-event-id': '"><b>id</b>',
    });
    await postToInbox(service, token, '');
    const r = await service.inject({ method: 'GET', url: new URL(inbox.visualizacaoUrl).pathname });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(r.headers['content-security-policy']).not.toMatch(/unsafe-inline/);
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.body).toContain('<html lang="pt-BR">');
    expect(r.body.match(/<h1>/g)).toHaveLength(1);
    expect(r.body).toContain(`<code class="url">${inbox.url}</code>`);
    expect(r.body).toContain(`data-token="${token}"`);
    // No inline script or style: the CSP forbids both.
    expect(r.body).not.toMatch(/<script>|<script(?![^>]*\bsrc=)|\sstyle=|<style/);
    expect(r.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(r.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(r.body).toContain('ID &quot;&gt;&lt;b&gt;id&lt;/b&gt;');
    expect(r.body).not.toContain('<b>id</b>');
    expect(r.body).toContain('Não verificada: nenhum webhook registrado para o canal');
    expect(r.body).toContain('<pre>(vazio)</pre>');
    expect(r.body.match(/<li class="evento"/g)).toHaveLength(2);

    // To a browser that accepts it, the same page gzipped (the viewer is the heaviest page we serve).
    const zipped = await service.inject({
      method: 'GET',
      url: new URL(inbox.visualizacaoUrl).pathname,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(zipped.headers['content-security-policy']).toBe(r.headers['content-security-policy']);
    const unzipped = zlib.gunzipSync(zipped.rawPayload).toString('utf8');
    expect(unzipped.replace(/data-request-id="[^"]*"/g, '')).toBe(r.body.replace(/data-request-id="[^"]*"/g, ''));
    expect(zipped.rawPayload.length).toBeLessThan(r.rawPayload.length / 2);
  });

  it('sets the status through the form fallback: 303 back to the page, which confirms it', async () => {
    const { token } = await channelWithInbox(service);
    const r = await service.inject({
      method: 'POST',
      url: `/sandbox/receptor/${token}/modo`,
      headers: form,
      payload: 'responderStatus=502',
    });
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe(`/sandbox/receptor/${token}?aviso=modo`);
    expect((await listEvents(service, token)).responderStatus).toBe(502);
    const page = await service.inject({ method: 'GET', url: r.headers.location as string });
    expect(page.body).toContain('<option value="502" selected>502</option>');
    expect(page.body).toContain('<p class="aviso" id="aviso" role="status">Agora respondendo com 502.</p>');
    // An unknown notice is ignored.
    const other = await service.inject({ method: 'GET', url: `/sandbox/receptor/${token}?aviso=<b>oi</b>` });
    expect(other.body).toContain('<p class="aviso" id="aviso" role="status"></p>');
  });

  it('answers an invalid status from the form with a 400 page and changes nothing', async () => {
    const { token } = await channelWithInbox(service);
    for (const payload of [
      'responderStatus=418',
      'responderStatus=',
      'responderStatus=%20200',
      'responderStatus=200.0',
      'outro=1',
      '',
    ]) {
      const r = await service.inject({ method: 'POST', url: `/sandbox/receptor/${token}/modo`, headers: form, payload });
      expect(r.statusCode, payload).toBe(400);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('<h1>Status inválido</h1>');
      expect(r.body).toContain(`href="/sandbox/receptor/${token}"`);
    }
    expect((await listEvents(service, token)).responderStatus).toBe(200);
  });

  it('clears the events through the form fallback', async () => {
    const { token } = await channelWithInbox(service);
    await postToInbox(service, token, '{}');
    const r = await service.inject({ method: 'POST', url: `/sandbox/receptor/${token}/limpar`, headers: form, payload: '' });
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe(`/sandbox/receptor/${token}?aviso=limpo`);
    expect((await listEvents(service, token)).eventos).toEqual([]);
    const page = await service.inject({ method: 'GET', url: r.headers.location as string });
    expect(page.body).toContain('Eventos apagados.');
    expect(page.body).toContain('Nenhum evento recebido ainda.');
  });

  it('answers an unknown token with a 404 page on every viewer route', async () => {
    const ghost = `sbx_${'G'.repeat(32)}`;
    for (const [method, url] of [
      ['GET', `/sandbox/receptor/${ghost}`],
      ['GET', '/sandbox/receptor/qualquer'],
      ['POST', `/sandbox/receptor/${ghost}/modo`],
      ['POST', `/sandbox/receptor/${ghost}/limpar`],
    ] as const) {
      const r = await service.inject({
        method,
        url,
        headers: form,
        payload: method === 'POST' ? 'responderStatus=200' : undefined,
      });
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('<h1>Receptor não encontrado</h1>');
      expect(r.body).not.toContain('viewer.js');
    }
  });
});
