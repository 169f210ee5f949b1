// The channel portal's access (docs/rules.md §10): the entry link is single use, expires
// in 10 minutes and is not used up by a GET; a forged, replayed or expired link gets one
// and the same page; the session cookie's attributes; a session sees only its channel;
// a change needs the CSRF token and `escrita`, and is recorded; "Sair", DELETE
// /v1/portal/sessoes and deactivating the channel each end sessions; the operator's
// `channels portal`.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { makeLink } from '../helpers/link-journeys.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';
import { setChannelActive } from '../../src/channels/channels.service.ts';
import { createHttpServer, type App } from '../../src/http/fastify.ts';
import { registerPortalRoutes } from '../../src/portal/portal.routes.ts';
import { PORTAL_SECTIONS } from '../../src/portal/sections.ts';
import type { PortalSection } from '../../src/portal/portal-pages.ts';
import { postForm, recentChangesPanel } from '../../src/portal/views/components.ts';
import { html } from '../../src/http/html.ts';
import { recentChanges } from '../../src/portal/changes.service.ts';
import { answerChannelsRequest } from '../../src/cli/channels.command.ts';

const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let service: TestService;
let channelA: IssuedCredentials;
let channelB: IssuedCredentials;

/** What the test section's action changed: it runs only when the plumbing lets it. */
const applied: string[] = [];
const testSection: PortalSection = {
  label: 'Teste',
  path: '/portal/teste',
  register(portal) {
    portal.page('/portal/teste', async ({ csrf, session }) => {
      const changes = await recentChanges(portal.ctx, session.channelId, { alvoTipo: 'teste', alvoId: session.channelId });
      return {
        title: 'Teste',
        body: html`${postForm({ action: '/portal/teste/mudar', csrf, button: 'Mudar' })}${recentChangesPanel(changes, {
          'teste.mudado': 'Valor de teste alterado',
        })}`,
      };
    });
    portal.action('/portal/teste/mudar', async ({ session, form }) => {
      applied.push(form.valor ?? '');
      return { redirect: '/portal/teste', change: { acao: 'teste.mudado', alvoTipo: 'teste', alvoId: session.channelId } };
    });
  },
};
/** The portal with one more section that changes something, over the service's own database. */
let withAction: App;

beforeAll(async () => {
  service = await startTestService({ clock });
  channelA = await service.createChannel({ name: 'Canal A' });
  channelB = await service.createChannel({ name: 'Canal B' });
  const { app, limiter } = createHttpServer(service.ctx);
  registerPortalRoutes(app, service.ctx, limiter, [...PORTAL_SECTIONS, testSection]);
  await app.ready();
  withAction = app;
});
afterAll(async () => {
  await withAction?.close();
  await service?.close();
});

const json = { 'content-type': 'application/json' };
const pathOf = (url: string) => new URL(url).pathname;

async function portalLink(channel: IssuedCredentials, body?: unknown) {
  const response = await service.inject({
    method: 'POST',
    url: '/v1/portal/sessoes',
    headers: { ...(await service.bearer(channel)), ...(body === undefined ? {} : json) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  if (response.statusCode === 201) {
    const { url } = response.json<{ url: string }>();
    rememberSecret(url, url.split('/').pop());
  }
  return response;
}

async function newLinkUrl(channel: IssuedCredentials = channelA, body?: unknown): Promise<string> {
  const response = await portalLink(channel, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ url: string }>().url;
}

const setCookieOf = (response: LightMyRequestResponse): string => {
  const header = response.headers['set-cookie'];
  return String(Array.isArray(header) ? header[0] : (header ?? ''));
};

/** Uses an entry link: the session's cookie (`consigna_portal=…`). */
async function enter(url: string): Promise<string> {
  const response = await service.inject({ method: 'POST', url: pathOf(url) });
  expect(response.statusCode, response.body).toBe(303);
  expect(response.headers.location).toBe('/portal');
  const cookie = setCookieOf(response).split(';')[0]!;
  rememberSecret(cookie.split('=')[1]);
  return cookie;
}

const get = (path: string, cookie?: string, app: { inject: TestService['inject'] } = service) =>
  app.inject({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });

const csrfOf = (html: string): string => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

const changesOf = async (channel: IssuedCredentials) =>
  (
    await sql<{ n: number }>`select count(*)::int as n from portal_changes where channel_id = ${channel.canalId}`.execute(
      service.ctx.database.db,
    )
  ).rows[0]!.n;

describe('POST /v1/portal/sessoes and the entry link', () => {
  it('answers a single-use URL valid 10 minutes, full by default; opening it only shows a button', async () => {
    const created = await portalLink(channelA);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const body = created.json<{ url: string; expiraEm: string; permissoes: string[] }>();
    expect(body.url).toMatch(new RegExp(`^${service.baseUrl}/portal/entrar/[A-Za-z0-9]{43}$`));
    expect(body.expiraEm).toBe('2026-11-22T12:10:00.000Z');
    expect(body.permissoes).toEqual(['leitura', 'escrita']);

    // A previewer's GETs change nothing: the link still lets one in afterwards.
    for (let i = 0; i < 3; i++) {
      const page = await get(pathOf(body.url));
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('<button type="submit" class="botao">Entrar no portal</button>');
      expect(page.body).toContain(`action="${pathOf(body.url)}"`);
    }
    const response = await service.inject({ method: 'POST', url: pathOf(body.url) });
    expect(response.statusCode).toBe(303);
    const cookie = setCookieOf(response);
    rememberSecret(cookie.split(';')[0]!.split('=')[1]);
    expect(cookie).toMatch(/^consigna_portal=[A-Za-z0-9]{43}; Max-Age=28800; Path=\/portal; HttpOnly; SameSite=Strict$/);

    const overview = await get('/portal', cookie.split(';')[0]);
    expect(overview.statusCode).toBe(200);
    expect(overview.body).toContain('<h1>Visão geral</h1>');
    expect(overview.body).not.toMatch(/<script|style=/);
  });

  it('refuses a used, an expired, a forged and a revoked link with one and the same page', async () => {
    const used = await newLinkUrl();
    await enter(used);
    const expired = await newLinkUrl();
    const almost = await newLinkUrl();
    clock.advance(599);
    await enter(almost); // one second left: still good
    clock.advance(2);
    const forged = `${service.baseUrl}/portal/entrar/${'A1b2C3d4E5'.repeat(4)}xyz`;
    const pages: string[] = [];
    for (const url of [used, expired, forged, `${service.baseUrl}/portal/entrar/curto`]) {
      for (const method of ['GET', 'POST'] as const) {
        const response = await service.inject({ method, url: pathOf(url) });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.headers['set-cookie']).toBeUndefined();
        pages.push(response.body);
      }
    }
    expect(pages[0]).toContain('Link de acesso inválido');
    expect(new Set(pages).size).toBe(1);
  });

  it('takes ["leitura"] for a read-only session, and refuses other permissions with permissoes_invalidas', async () => {
    const readOnly = await portalLink(channelA, { permissoes: ['leitura'] });
    expect(readOnly.statusCode).toBe(201);
    expect(readOnly.json().permissoes).toEqual(['leitura']);
    expect((await portalLink(channelA, { permissoes: ['escrita', 'leitura'] })).json().permissoes).toEqual([
      'leitura',
      'escrita',
    ]);
    for (const permissoes of [['escrita'], ['admin'], [], ['leitura', 'leitura'], 'leitura', null, [1]]) {
      const refused = await portalLink(channelA, { permissoes });
      expect(refused.statusCode, JSON.stringify(permissoes)).toBe(400);
      expect(refused.json().code).toBe('permissoes_invalidas');
      expect(refused.json().message).toContain('permissoes inválidas');
    }
    const unknown = await portalLink(channelA, { permissoes: ['leitura'], canal: 'outro' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([400, 'requisicao_invalida']);
    const anonymous = await service.inject({ method: 'POST', url: '/v1/portal/sessoes' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('ends a session after 8 hours', async () => {
    const cookie = await enter(await newLinkUrl());
    clock.advance(8 * 3600 - 1);
    expect((await get('/portal', cookie)).statusCode).toBe(200);
    clock.advance(1);
    const ended = await get('/portal', cookie);
    expect(ended.statusCode).toBe(401);
    expect(ended.body).toContain('Sessão encerrada');
    expect(setCookieOf(ended)).toMatch(/^consigna_portal=; Max-Age=0; Path=\/portal/);
  });

  it('marks the cookie Secure when the public address is https', async () => {
    const https = await startTestService({
      clock,
      sameDatabaseAs: service,
      env: { PUBLIC_BASE_URL: 'https://portal.exemplo.com.br' },
    });
    try {
      const created = await https.inject({
        method: 'POST',
        url: '/v1/portal/sessoes',
        headers: await https.bearer(channelA),
      });
      const { url } = created.json<{ url: string }>();
      rememberSecret(url, url.split('/').pop());
      expect(url).toMatch(/^https:\/\/portal\.exemplo\.com\.br\/portal\/entrar\//);
      const response = await https.inject({ method: 'POST', url: pathOf(url) });
      rememberSecret(setCookieOf(response).split(';')[0]!.split('=')[1]);
      expect(setCookieOf(response)).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    } finally {
      await https.close();
    }
  });

  it('answers pages, not JSON, without a session', async () => {
    for (const path of ['/portal', '/portal/nao-existe']) {
      const response = await get(path);
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('Sessão encerrada');
    }
    const cookie = await enter(await newLinkUrl());
    const missing = await get('/portal/nao-existe', cookie);
    expect([missing.statusCode, missing.body.includes('Esta página não existe no portal.')]).toEqual([404, true]);
  });
});

describe('a session sees its own channel only', () => {
  it('shows each channel its own funnel and promoters', async () => {
    const authA = await service.bearer(channelA);
    const authB = await service.bearer(channelB);
    await makeLink(service, authA, { referenciaExterna: 'promotor-do-a' });
    await makeLink(service, authA, { referenciaExterna: 'promotor-do-a' });
    for (let i = 0; i < 3; i++) await makeLink(service, authB, { referenciaExterna: 'promotor-do-b' });

    const pageA = (await get('/portal', await enter(await newLinkUrl(channelA)))).body;
    const pageB = (await get('/portal', await enter(await newLinkUrl(channelB)))).body;
    expect(pageA).toContain('Funil dos últimos 7 dias. Criados: 2;');
    expect(pageA).toContain('promotor-do-a');
    expect(pageA).not.toContain('promotor-do-b');
    expect(pageA).toContain('<span class="marca">Canal A</span>');
    expect(pageB).toContain('Funil dos últimos 30 dias. Criados: 3;');
    expect(pageB).toContain('promotor-do-b');
    expect(pageB).not.toContain('promotor-do-a');
  });
});

describe('changes: CSRF token, escrita, and the record', () => {
  async function enterWithAction(body?: unknown): Promise<{ cookie: string; csrf: string }> {
    const cookie = await enter(await newLinkUrl(channelA, body));
    const page = await get('/portal/teste', cookie, withAction);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/portal/teste" aria-current="page">Teste</a>');
    return { cookie, csrf: csrfOf(page.body) };
  }
  const change = (cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const { headers: formHeaders, payload } = form(fields);
    return withAction.inject({
      method: 'POST',
      url: '/portal/teste/mudar',
      headers: { cookie, ...formHeaders, ...headers },
      payload,
    });
  };

  it('runs a change with the session’s token and records who, what, which target and when', async () => {
    const { cookie, csrf } = await enterWithAction();
    const before = await changesOf(channelA);
    const done = await change(cookie, { _csrf: csrf, valor: 'um' });
    expect(done.statusCode, done.body).toBe(303);
    expect(done.headers.location).toBe('/portal/teste');
    expect(applied).toEqual(['um']);
    expect(await changesOf(channelA)).toBe(before + 1);
    const [latest] = await recentChanges(service.ctx, channelA.canalId, { alvoTipo: 'teste', alvoId: channelA.canalId });
    expect(latest).toMatchObject({ acao: 'teste.mudado', criadoEm: clock.now() });
    const { rows } = await sql<{ session_id: string }>`
      select session_id from portal_changes where channel_id = ${channelA.canalId} order by criado_em desc, id desc limit 1
    `.execute(service.ctx.database.db);
    const shown = (await get('/portal/teste', cookie, withAction)).body;
    expect(shown).toContain('Valor de teste alterado');
    expect(shown).toContain(`(sessão …${rows[0]!.session_id.slice(-8)})`);
    applied.length = 0;
  });

  it('refuses a change without the token, with another session’s, from another site or as JSON: 403, nothing changed', async () => {
    const { cookie, csrf } = await enterWithAction();
    const other = await enterWithAction();
    const before = await changesOf(channelA);
    const refused = [
      await change(cookie, { valor: 'sem-token' }),
      await change(cookie, { _csrf: '', valor: 'vazio' }),
      await change(cookie, { _csrf: other.csrf, valor: 'de-outra-sessao' }),
      await change(cookie, { _csrf: `${csrf}x`, valor: 'alterado' }),
      await change(cookie, { _csrf: csrf, valor: 'outro-site' }, { origin: 'https://atacante.example' }),
      await withAction.inject({
        method: 'POST',
        url: '/portal/teste/mudar',
        headers: { cookie, ...json },
        payload: JSON.stringify({ _csrf: csrf, valor: 'json' }),
      }),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('Envio recusado');
    }
    expect(applied).toEqual([]);
    expect(await changesOf(channelA)).toBe(before);
  });

  it('refuses any change of a read-only session: 403, nothing changed', async () => {
    const { cookie, csrf } = await enterWithAction({ permissoes: ['leitura'] });
    const before = await changesOf(channelA);
    const refused = await change(cookie, { _csrf: csrf, valor: 'somente-leitura' });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Somente leitura');
    expect(applied).toEqual([]);
    expect(await changesOf(channelA)).toBe(before);
  });
});

describe('ending sessions', () => {
  it('"Sair" needs the token, ends the session and clears the cookie', async () => {
    const cookie = await enter(await newLinkUrl());
    const page = await get('/portal', cookie);
    const refused = await service.inject({
      method: 'POST',
      url: '/portal/sair',
      headers: { cookie, ...form({}).headers },
      payload: '',
    });
    expect(refused.statusCode).toBe(403);
    expect((await get('/portal', cookie)).statusCode).toBe(200);

    const signOut = form({ _csrf: csrfOf(page.body) });
    const out = await service.inject({
      method: 'POST',
      url: '/portal/sair',
      headers: { cookie, ...signOut.headers },
      payload: signOut.payload,
    });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/portal/saiu');
    expect(setCookieOf(out)).toMatch(/^consigna_portal=; Max-Age=0; Path=\/portal; HttpOnly; SameSite=Strict$/);
    expect((await get('/portal/saiu')).body).toContain('Você saiu do portal');
    expect((await get('/portal', cookie)).statusCode).toBe(401);
  });

  it('DELETE /v1/portal/sessoes ends every session and unused link of the channel, only of that channel', async () => {
    const revokeAll = async (channel: IssuedCredentials) =>
      service.inject({ method: 'DELETE', url: '/v1/portal/sessoes', headers: await service.bearer(channel) });
    await revokeAll(channelA); // whatever earlier tests left
    await revokeAll(channelB);
    const first = await enter(await newLinkUrl());
    const second = await enter(await newLinkUrl(channelA, { permissoes: ['leitura'] }));
    const unused = await newLinkUrl();
    const ofB = await enter(await newLinkUrl(channelB));

    const revoked = await revokeAll(channelA);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ encerradas: 2 });
    expect((await get('/portal', first)).statusCode).toBe(401);
    expect((await get('/portal', second)).statusCode).toBe(401);
    expect((await get(pathOf(unused))).statusCode).toBe(404);
    expect((await get('/portal', ofB)).statusCode).toBe(200);
    expect((await revokeAll(channelA)).json()).toEqual({ encerradas: 0 });
  });

  it('deactivating the channel ends its sessions and links; an inactive channel lets no session in', async () => {
    const cookie = await enter(await newLinkUrl());
    const unused = await newLinkUrl();
    await setChannelActive(service.ctx, channelA.canalId, false);
    expect((await get('/portal', cookie)).statusCode).toBe(401);
    expect((await get(pathOf(unused))).statusCode).toBe(404);
    await setChannelActive(service.ctx, channelA.canalId, true);
    expect((await get('/portal', cookie)).statusCode).toBe(401);

    // Checked on every request too, whatever ends the channel's activity.
    const live = await enter(await newLinkUrl());
    const waiting = await newLinkUrl();
    await sql`update channels set active = false where id = ${channelA.canalId}`.execute(service.ctx.database.db);
    try {
      expect((await get('/portal', live)).statusCode).toBe(401);
      expect((await service.inject({ method: 'POST', url: pathOf(waiting) })).statusCode).toBe(404);
    } finally {
      await sql`update channels set active = true where id = ${channelA.canalId}`.execute(service.ctx.database.db);
    }
    expect((await get('/portal', live)).statusCode).toBe(200);
  });
});

describe('consigna channels portal', () => {
  it('prints an entry link, read-only with --leitura, as the running service does it', async () => {
    const request = {
      sub: 'portal',
      id: channelA.canalId,
      several: false,
      allowIps: [],
      json: true,
      remove: false,
      leitura: true,
    };
    const { saida } = await answerChannelsRequest(service.ctx, request);
    const issued = JSON.parse(saida) as { url: string; permissoes: string[] };
    rememberSecret(issued.url, issued.url.split('/').pop());
    expect(issued.permissoes).toEqual(['leitura']);
    const cookie = await enter(issued.url);
    expect((await get('/portal', cookie)).statusCode).toBe(200);
  });
});
