// The portal's "Links" and "Webhooks" sections (docs/rules.md §10.6): the list's filters
// and cursor, invalid filters on the page (422); one link's timeline; a session of one
// channel asking for another's link, cursor or delivery gets the 404 page; every webhook
// action refused without CSRF or for a read-only session, with nothing changed; and each
// action's effect (through the webhooks domain's services) and its change record.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { makeLink, simulateJourney, type MadeLink } from '../helpers/link-journeys.ts';
import { receiverPool, type Receiver } from '../helpers/receiver.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { waitFor } from '../helpers/wait.ts';
import { FAST_ENV, channelWith, type ChannelSetup } from '../webhooks/support.ts';
import { LIST_STATUS_MESSAGE } from '../../src/links/links-list.service.ts';
import { recentChanges } from '../../src/portal/changes.service.ts';

const clock = new ManualClock('2026-11-22T12:00:00.000Z');
const receivers = receiverPool();
let service: TestService;
let receiver: Receiver;
let a: ChannelSetup;
let b: ChannelSetup;
let concluded: MadeLink;

beforeAll(async () => {
  service = await startTestService({ clock, env: FAST_ENV });
  receiver = await receivers.start({ status: 200 });
  a = await channelWith(service, receiver.url);
  b = await channelWith(service, receiver.url);
  // 22 links of A (more than a page of 20), 2 of B.
  for (let i = 0; i < 21; i++) {
    clock.advance(1);
    await makeLink(service, a.auth, { referenciaExterna: i % 2 === 0 ? 'loja-par' : 'loja-impar' });
  }
  clock.advance(1);
  concluded = await makeLink(service, a.auth, { referenciaExterna: 'loja-fim' });
  expect(await simulateJourney(service, a.auth, concluded)).toBe('CONCLUIDO');
  for (let i = 0; i < 2; i++) await makeLink(service, b.auth, { referenciaExterna: 'do-canal-b' });
});
afterAll(async () => {
  await service?.close();
  await receivers.closeAll();
});

const pathOf = (url: string) => new URL(url).pathname;
const csrfOf = (body: string): string => /name="_csrf" value="([^"]+)"/.exec(body)![1]!;
const get = (path: string, cookie: string) => service.inject({ method: 'GET', url: path, headers: { cookie } });
const post = (path: string, cookie: string, fields: Record<string, string>) =>
  service.inject({
    method: 'POST',
    url: path,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
const rows = (response: LightMyRequestResponse) => (response.body.match(/<tr><th scope="row">/g) ?? []).length;
const decoded = (text: string) => text.replaceAll('&amp;', '&');

/** A session of the channel (read-only with `leitura`): its cookie and CSRF token. */
async function session(channel: ChannelSetup, leitura = false): Promise<{ cookie: string; csrf: string }> {
  const created = await service.inject({
    method: 'POST',
    url: '/v1/portal/sessoes',
    headers: leitura ? channel.json : channel.auth,
    ...(leitura ? { payload: JSON.stringify({ permissoes: ['leitura'] }) } : {}),
  });
  expect(created.statusCode, created.body).toBe(201);
  const { url } = created.json<{ url: string }>();
  rememberSecret(url, url.split('/').pop());
  const entered = await service.inject({ method: 'POST', url: pathOf(url) });
  expect(entered.statusCode).toBe(303);
  const cookie = String(entered.headers['set-cookie']).split(';')[0]!;
  rememberSecret(cookie.split('=')[1]);
  const page = await get('/portal/webhooks', cookie);
  expect(page.statusCode, page.body).toBe(200);
  return { cookie, csrf: csrfOf(page.body) };
}

/** `count` FALHOU deliveries of the channel (events of its own), as after seven failed attempts. */
async function failedDeliveries(channelId: string, count: number, at: Date): Promise<string[]> {
  const { rows: made } = await sql<{ id: string }>`
    with e as (
      insert into events (id, channel_id, tipo, payload, ocorrido_em)
      select gen_random_uuid(), ${channelId}, 'proposta.aprovada', '{"n":' || n || '}', ${at}::timestamptz + make_interval(secs => n)
      from generate_series(0, ${count - 1}) as n
      returning id, ocorrido_em
    )
    insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, last_http_status, last_error, last_attempt_at, criado_em)
    select gen_random_uuid(), e.id, ${channelId}, 'proposta.aprovada', 'FALHOU', 7, 500, 'HTTP 500', e.ocorrido_em, e.ocorrido_em from e
    returning id
  `.execute(service.ctx.database.db);
  return made.map((r) => r.id);
}

const deliveryState = async (id: string) =>
  (
    await sql<{ status: string; tentativas: number }>`select status, tentativas from deliveries where id = ${id}`.execute(
      service.ctx.database.db,
    )
  ).rows[0];

const webhookRow = async (channelId: string) =>
  (
    await sql<{ url: string; eventos: string[]; secret_sealed: Buffer; previous_valid_until: Date | null }>`
      select url, eventos, secret_sealed, previous_valid_until from webhooks where channel_id = ${channelId}`.execute(
      service.ctx.database.db,
    )
  ).rows[0]!;

const changeCount = async (channelId: string) =>
  (
    await sql<{ n: number }>`select count(*)::int as n from portal_changes where channel_id = ${channelId}`.execute(
      service.ctx.database.db,
    )
  ).rows[0]!.n;

describe('Links', () => {
  it('lists the channel’s links newest first, 20 a page, "Mais antigos" carrying the cursor and the filters', async () => {
    const { cookie } = await session(a);
    const first = await get('/portal/links', cookie);
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<h1>Links</h1>');
    expect(first.body).toContain('<a href="/portal/links" aria-current="page">Links</a>');
    expect(rows(first)).toBe(20);
    expect(first.body).not.toContain('do-canal-b');
    expect(first.body).toContain('<td>***.456.789-**</td>'); // masked CPF, never the whole
    expect(first.body).not.toMatch(/12345678909|\/l\/[A-Za-z0-9]{43}/);
    const next = decoded(/<a class="botao secundario" href="([^"]+)">Mais antigos<\/a>/.exec(first.body)![1]!);
    expect(next).toMatch(/^\/portal\/links\?cursor=/);
    const second = await get(next, cookie);
    expect(second.statusCode).toBe(200);
    expect(rows(second)).toBe(2);
    expect(second.body).not.toContain('Mais antigos</a>');

    const filtered = await get('/portal/links?referenciaExterna=loja-par&status=&propostaStatus=', cookie);
    expect(rows(filtered)).toBe(11);
    const concludedOnly = await get('/portal/links?status=CONCLUIDO&propostaStatus=AGUARDANDO_FORMALIZACAO', cookie);
    expect(concludedOnly.statusCode).toBe(200);
    expect(rows(concludedOnly)).toBe(1);
    expect(concludedOnly.body).toContain(`/portal/links/${concluded.id}`);
    expect(concludedOnly.body).toContain('<option value="CONCLUIDO" selected>Concluído</option>');
    expect(rows(await get('/portal/links?desde=2026-11-23', cookie))).toBe(0);
    const day = await get('/portal/links?desde=2026-11-22&ate=2026-11-22&referenciaExterna=loja-impar', cookie);
    expect(rows(day)).toBe(10);
    expect(rows(await get('/portal/links?ate=2026-11-21', cookie))).toBe(0);
  });

  it('shows an invalid filter’s pt-BR message on the page (422), not a crash', async () => {
    const { cookie } = await session(a);
    const status = await get('/portal/links?status=PERDIDO', cookie);
    expect(status.statusCode).toBe(422);
    expect(status.body).toContain('<h1>Links</h1>');
    expect(status.body).toContain(LIST_STATUS_MESSAGE);
    expect(status.body).toContain('role="alert"');
    const day = await get('/portal/links?desde=2026-02-30', cookie);
    expect([day.statusCode, day.body.includes('Data inválida')]).toEqual([422, true]);
    const reference = await get(`/portal/links?referenciaExterna=${'x'.repeat(101)}`, cookie);
    expect([reference.statusCode, reference.body.includes('referenciaExterna inválido')]).toEqual([422, true]);
    const backwards = await get('/portal/links?desde=2026-11-23&ate=2026-11-20', cookie);
    expect([backwards.statusCode, backwards.body.includes('Período inválido')]).toEqual([422, true]);
  });

  it('shows one link’s timeline: created, opened, consent (time only), proposal events and their deliveries', async () => {
    const { cookie } = await session(a);
    // Events are listed once no older transaction is still running (events.repository.ts): on
    // a shared PostgreSQL that may take a moment.
    let page = await get(`/portal/links/${concluded.id}`, cookie);
    await waitFor(async () => (page = await get(`/portal/links/${concluded.id}`, cookie)).body.includes('proposta.criada'), {
      what: 'the link’s events listed',
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('<h1>Linha do tempo do link</h1>');
    for (const text of [
      'Link criado',
      'Aberto pelo cliente',
      'Consentimento dado para a consulta',
      'Código de confirmação enviado',
    ]) {
      expect(page.body).toContain(text);
    }
    expect(page.body).toMatch(/Evento <code>proposta\.criada<\/code> \(Criada\)/);
    expect(page.body).toMatch(/Evento <code>proposta\.aguardando_formalizacao<\/code>/);
    expect(page.body).toMatch(/webhook: <a href="\/portal\/webhooks\/entregas\/[0-9a-f-]{36}">Pendente, 0 tentativas<\/a>/);
    expect(page.body).toContain('Jornada na etapa');
    expect(page.body).not.toMatch(/11987654321|12345678909|\/l\/[A-Za-z0-9]{43}/);
  });

  it('answers the 404 page for another channel’s link or cursor, and for a malformed id', async () => {
    const { cookie: cookieA } = await session(a);
    const { cookie: cookieB } = await session(b);
    const own = await get('/portal/links', cookieA);
    const cursorOfA = decoded(/href="(\/portal\/links\?[^"]*cursor=[^"]+)"/.exec(own.body)![1]!);
    for (const path of [`/portal/links/${concluded.id}`, cursorOfA, '/portal/links/nao-e-um-id', '/portal/links?cursor=AAAA']) {
      const response = await get(path, cookieB);
      expect(response.statusCode, path).toBe(404);
      expect(response.body).toContain('<h1>Não encontrado</h1>');
      expect(response.body).not.toContain('loja-');
    }
  });
});

describe('Webhooks', () => {
  it('shows the URL, events, health and the "Alterações recentes" panel', async () => {
    const { cookie } = await session(a);
    const page = await get('/portal/webhooks', cookie);
    expect(page.body).toContain('<h1>Webhooks</h1>');
    expect(page.body).toContain(`value="${receiver.url}"`);
    expect(page.body).toContain('Saúde do endereço');
    expect(page.body).toContain('Envios normais');
    expect(page.body).toContain('<h2>Alterações recentes</h2>');
  });

  it('lists deliveries by status, with a cursor; another channel’s delivery or cursor is the 404 page', async () => {
    const failed = await failedDeliveries(a.canalId, 25, new Date('2026-11-21T10:00:00Z'));
    const { cookie: cookieA } = await session(a);
    let list = await get('/portal/webhooks/entregas?status=FALHOU', cookieA);
    await waitFor(async () => rows((list = await get('/portal/webhooks/entregas?status=FALHOU', cookieA))) === 20, {
      what: 'the failed deliveries listed',
    });
    expect(list.statusCode).toBe(200);
    expect(rows(list)).toBe(20);
    expect(list.body).not.toContain('<td>Pendente</td>');
    const next = decoded(/<a class="botao secundario" href="([^"]+)">Mais antigas<\/a>/.exec(list.body)![1]!);
    expect(next).toMatch(/^\/portal\/webhooks\/entregas\?status=FALHOU&cursor=/);
    expect(rows(await get(next, cookieA))).toBe(5);
    const one = await get(`/portal/webhooks/entregas/${failed[0]}`, cookieA);
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain('Reenviar esta entrega');

    const { cookie: cookieB, csrf: csrfB } = await session(b);
    // B has deliveries of its own, so A's cursor would find some of them were it not refused.
    await failedDeliveries(b.canalId, 3, new Date('2026-11-21T09:00:00Z'));
    const unbound = next.replace(/cursor=([^&.]+)\.[^&]+/, 'cursor=$1');
    expect(unbound).not.toBe(next);
    for (const path of [
      `/portal/webhooks/entregas/${failed[0]}`,
      '/portal/webhooks/entregas/xyz',
      '/portal/webhooks/entregas?cursor=!!',
      next,
      unbound,
    ]) {
      const response = await get(path, cookieB);
      expect(response.statusCode, path).toBe(404);
    }
    const resend = await post(`/portal/webhooks/entregas/${failed[0]}/reenviar`, cookieB, { _csrf: csrfB });
    expect(resend.statusCode).toBe(404);
    expect(await deliveryState(failed[0]!)).toEqual({ status: 'FALHOU', tentativas: 7 });
    expect(await changeCount(b.canalId)).toBe(0);
    await sql`delete from deliveries where id = any(${failed}::uuid[])`.execute(service.ctx.database.db);
  });

  it('refuses every action to a read-only session and to a post without the CSRF token, changing nothing', async () => {
    const [failed] = await failedDeliveries(a.canalId, 1, new Date('2026-11-21T11:00:00Z'));
    const readOnly = await session(a, true);
    const full = await session(a);
    const before = {
      hook: await webhookRow(a.canalId),
      changes: await changeCount(a.canalId),
      requests: receiver.requests.length,
    };
    const actions: Array<[string, Record<string, string>]> = [
      ['/portal/webhooks/configuracao', { url: 'https://outro.example/gancho' }],
      ['/portal/webhooks/segredo', {}],
      ['/portal/webhooks/teste', {}],
      ['/portal/webhooks/recuperar', {}],
      [`/portal/webhooks/entregas/${failed}/reenviar`, {}],
    ];
    for (const [path, fields] of actions) {
      const refusedReadOnly = await post(path, readOnly.cookie, { _csrf: readOnly.csrf, ...fields });
      expect(refusedReadOnly.statusCode, path).toBe(403);
      expect(refusedReadOnly.body).toContain('Somente leitura');
      const noCsrf = await post(path, full.cookie, fields);
      expect(noCsrf.statusCode, path).toBe(403);
      const othersCsrf = await post(path, full.cookie, { _csrf: readOnly.csrf, ...fields });
      expect(othersCsrf.statusCode, path).toBe(403);
    }
    expect(await webhookRow(a.canalId)).toEqual(before.hook);
    expect(await changeCount(a.canalId)).toBe(before.changes);
    expect(receiver.requests.length).toBe(before.requests);
    expect(await deliveryState(failed!)).toEqual({ status: 'FALHOU', tentativas: 7 });
    await sql`delete from deliveries where id = ${failed}`.execute(service.ctx.database.db);
  });

  it('runs each action through the webhooks services and records it', async () => {
    const { cookie, csrf } = await session(a);
    const target = { alvoTipo: 'webhook', alvoId: a.canalId };

    // URL and events: the service's own validation shown on the page, then a good change.
    const bad = await post('/portal/webhooks/configuracao', cookie, { _csrf: csrf, url: 'ftp://x' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('<p class="erro" id="w-erro">');
    expect(bad.body).toContain('value="ftp://x"');
    expect((await webhookRow(a.canalId)).url).toBe(receiver.url);
    const second = await receivers.start({ status: 200 });
    const saved = await post('/portal/webhooks/configuracao', cookie, {
      _csrf: csrf,
      url: second.url,
      'eventos.proposta.aprovada': '1',
      'eventos.proposta.recusada': '1',
    });
    expect([saved.statusCode, saved.headers.location]).toEqual([303, '/portal/webhooks?salvo=1']);
    expect(await webhookRow(a.canalId)).toMatchObject({ url: second.url, eventos: ['proposta.aprovada', 'proposta.recusada'] });
    expect((await recentChanges(service.ctx, a.canalId, target))[0]).toMatchObject({ acao: 'webhook.configuracao_alterada' });
    // Back to the first receiver, all events.
    expect((await post('/portal/webhooks/configuracao', cookie, { _csrf: csrf, url: receiver.url })).statusCode).toBe(303);

    // The test event: sent now, its answer on the page.
    const sent = receiver.requests.length;
    const tested = await post('/portal/webhooks/teste', cookie, { _csrf: csrf });
    expect(tested.statusCode).toBe(200);
    expect(tested.body).toContain('Entregue: o receptor respondeu HTTP 200');
    expect(receiver.requests.slice(sent).map((r) => receiver.json(r).tipo)).toEqual(['webhook.teste']);

    // A new secret: shown once on the resulting page, with the old one's overlap.
    const oldSealed = (await webhookRow(a.canalId)).secret_sealed;
    const rotated = await post('/portal/webhooks/segredo', cookie, { _csrf: csrf });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const secret = /<code class="segredo" id="novo-segredo">(whsec_[^<]+)<\/code>/.exec(rotated.body)![1]!;
    rememberSecret(secret);
    expect(rotated.body).toContain('O segredo anterior continua valendo até');
    const hook = await webhookRow(a.canalId);
    expect(hook.secret_sealed).not.toEqual(oldSealed);
    expect(hook.previous_valid_until).toEqual(new Date(clock.now().getTime() + 24 * 3600_000));
    const after = await get('/portal/webhooks', cookie);
    expect(after.body).not.toContain(secret);
    expect(after.body).toContain('O segredo anterior vale até');

    // Resend one failed delivery: attempted at once, now delivered.
    const failed = await failedDeliveries(a.canalId, 3, new Date('2026-11-20T10:00:00Z'));
    const resent = await post(`/portal/webhooks/entregas/${failed[0]}/reenviar`, cookie, { _csrf: csrf });
    expect([resent.statusCode, resent.headers.location]).toEqual([303, `/portal/webhooks/entregas/${failed[0]}?reenviada=1`]);
    expect(await deliveryState(failed[0]!)).toEqual({ status: 'ENTREGUE', tentativas: 1 });
    const deliveryPage = await get(resent.headers.location!, cookie);
    expect(deliveryPage.body).toContain('Reenviada: agora entregue.');
    expect(deliveryPage.body).toContain('HTTP 200');
    expect(deliveryPage.body).toContain('Entrega reenviada');

    // Recover the failed ones over a period: the confirmation counts, the POST requeues.
    const none = await get('/portal/webhooks/recuperar?desde=2026-11-22', cookie);
    expect(none.body).toContain('nada a reenfileirar');
    const confirm = await get('/portal/webhooks/recuperar?desde=2026-11-20&ate=2026-11-20', cookie);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('2 entregas que falharam serão reenfileiradas');
    expect(await deliveryState(failed[1]!)).toEqual({ status: 'FALHOU', tentativas: 7 }); // a GET changes nothing
    const fields = Object.fromEntries(
      [...confirm.body.matchAll(/<input type="hidden" name="(desde|ate)" value="([^"]+)">/g)].map((m) => [m[1]!, m[2]!]),
    );
    expect(fields).toEqual({ desde: '2026-11-20T00:00:00-03:00', ate: '2026-11-21T00:00:00-03:00' });
    const recovered = await post('/portal/webhooks/recuperar', cookie, { _csrf: csrf, ...fields });
    expect([recovered.statusCode, recovered.headers.location]).toEqual([303, '/portal/webhooks?reenfileiradas=2']);
    expect(await deliveryState(failed[1]!)).toEqual({ status: 'PENDENTE', tentativas: 0 });
    expect(await deliveryState(failed[2]!)).toEqual({ status: 'PENDENTE', tentativas: 0 });

    const page = await get('/portal/webhooks?reenfileiradas=2', cookie);
    expect(page.body).toContain('2 entregas reenfileiradas');
    expect((await recentChanges(service.ctx, a.canalId, target)).map((c) => c.acao)).toEqual([
      'webhook.entregas_recuperadas',
      'webhook.segredo_rotacionado',
      'webhook.teste_enviado',
      'webhook.configuracao_alterada',
      'webhook.configuracao_alterada',
    ]);
    for (const label of [
      'Entregas que falharam reenfileiradas',
      'Novo segredo gerado',
      'Evento de teste enviado',
      'URL ou eventos alterados',
    ]) {
      expect(page.body).toContain(label);
    }
    expect(await recentChanges(service.ctx, a.canalId, { alvoTipo: 'entrega', alvoId: failed[0]! })).toHaveLength(1);
  });
});
