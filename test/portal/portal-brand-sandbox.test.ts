// The portal's Marca and Sandbox sections (docs/rules.md §10): each action's effect and
// its change record; a read-only session or a post without the CSRF token changes nothing;
// a bad logo (not an image, too big, a second file, a file in another field) is refused
// with a pt-BR message and nothing stored; another channel's link in a simulator form is
// not found; the simulator's refusals are shown in pt-BR.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { makeLink } from '../helpers/link-journeys.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { makePng } from '../helpers/images.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';
import { getBrand } from '../../src/brand/brand.service.ts';
import { inboxOfChannel } from '../../src/sandbox/inbox.service.ts';
import { getLink } from '../../src/links/links.service.ts';
import { FIELD_MESSAGES } from '../../src/text/messages.ts';

let service: TestService;
let channelA: IssuedCredentials;
let channelB: IssuedCredentials;

beforeAll(async () => {
  service = await startTestService();
  channelA = await service.createChannel({ name: 'Canal A' });
  channelB = await service.createChannel({ name: 'Canal B' });
});
afterAll(() => service?.close());

async function enter(channel: IssuedCredentials, permissoes?: string[]): Promise<string> {
  const created = await service.inject({
    method: 'POST',
    url: '/v1/portal/sessoes',
    headers: { ...(await service.bearer(channel)), 'content-type': 'application/json' },
    payload: JSON.stringify(permissoes ? { permissoes } : {}),
  });
  expect(created.statusCode, created.body).toBe(201);
  const { url } = created.json<{ url: string }>();
  rememberSecret(url);
  const entered = await service.inject({ method: 'POST', url: new URL(url).pathname });
  expect(entered.statusCode).toBe(303);
  const header = entered.headers['set-cookie'];
  const cookie = String(Array.isArray(header) ? header[0] : header).split(';')[0]!;
  rememberSecret(cookie.split('=')[1]);
  return cookie;
}

const get = (path: string, cookie: string) => service.inject({ method: 'GET', url: path, headers: { cookie } });
const csrfOf = (body: string): string => /name="_csrf" value="([^"]+)"/.exec(body)![1]!;

type Part = { name: string; value: string } | { name: string; filename: string; type: string; bytes: Buffer };

/** A multipart/form-data body as a browser sends it. */
function multipart(parts: Part[]) {
  const boundary = '----consigna-teste-7d1f';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      'value' in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`;
    chunks.push(Buffer.from(head), 'value' in part ? Buffer.from(part.value) : part.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(chunks) };
}

const postMultipart = (cookie: string, parts: Part[]) => {
  const body = multipart(parts);
  return service.inject({ method: 'POST', url: '/portal/marca', headers: { cookie, ...body.headers }, payload: body.payload });
};
const postForm = (path: string, cookie: string, fields: Record<string, string>) =>
  service.inject({
    method: 'POST',
    url: path,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });

const changes = async (channel: IssuedCredentials) =>
  (
    await sql<{ acao: string; alvo_tipo: string; alvo_id: string }>`
      select acao, alvo_tipo, alvo_id from portal_changes where channel_id = ${channel.canalId} order by criado_em, id`.execute(
      service.ctx.database.db,
    )
  ).rows;

const brandOf = (channel: IssuedCredentials) => getBrand(service.ctx, channel.canalId).catch(() => undefined);
const LOGO = makePng(96, 32, [200, 30, 30]);
const file = (bytes: Buffer, name = 'logo', filename = 'logo.png', type = 'image/png'): Part => ({ name, filename, type, bytes });

describe('Marca', () => {
  it('saves name, colour and logo (multipart), records it, shows the preview and the contrast correction', async () => {
    const cookie = await enter(channelA);
    const first = await get('/portal/marca', cookie);
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('enctype="multipart/form-data"');
    expect(first.body).toContain('Prévia');
    expect(first.body).toContain('Nenhuma alteração feita pelo portal.');

    const saved = await postMultipart(cookie, [
      { name: '_csrf', value: csrfOf(first.body) },
      { name: 'nome', value: 'Fintech Exemplo' },
      { name: 'cor', value: '#FFCC00' },
      file(LOGO),
    ]);
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe('/portal/marca?feito=salvo');
    const brand = (await brandOf(channelA))!;
    expect(brand).toMatchObject({ nome: 'Fintech Exemplo', cor: '#ffcc00', logo: { tipo: 'image/png', bytes: LOGO.length } });
    expect(brand.corAplicada).not.toBe('#ffcc00');
    expect(await changes(channelA)).toEqual([{ acao: 'marca.alterada', alvo_tipo: 'marca', alvo_id: channelA.canalId }]);

    const page = await get('/portal/marca?feito=salvo', cookie);
    expect(page.body).toContain('Marca salva');
    expect(page.body).toContain('Marca alterada');
    // The contrast correction: what was asked, what is used, and why.
    expect(page.body).toContain('<code>#ffcc00</code>');
    expect(page.body).toContain(`<code>${brand.corAplicada}</code>`);
    expect(page.body).toContain('WCAG 2.1');
    // The preview (and the portal's header) draw the saved brand: its name, logo and accent.
    expect(page.body).toMatch(/class="previa-marca">Fintech Exemplo</);
    expect(page.body).toContain(`class="previa-logo" src="${new URL(brand.logo!.url).pathname}"`);
    expect(page.body).toContain(`/marca/cor/${brand.corAplicada.slice(1)}.css`);

    // Without a new file the logo stays; "Remover o logo atual" drops it.
    const csrf = csrfOf(page.body);
    expect(
      (
        await postMultipart(cookie, [
          { name: '_csrf', value: csrf },
          { name: 'nome', value: 'Fintech Dois' },
          { name: 'cor', value: '' },
          file(Buffer.alloc(0), 'logo', '', 'application/octet-stream'),
        ])
      ).statusCode,
    ).toBe(303);
    expect(await brandOf(channelA)).toMatchObject({ nome: 'Fintech Dois', logo: { bytes: LOGO.length } });
    expect((await brandOf(channelA))!.cor).toBeUndefined();
    expect(
      (
        await postMultipart(cookie, [
          { name: '_csrf', value: csrf },
          { name: 'nome', value: 'Fintech Dois' },
          { name: 'removerLogo', value: 'sim' },
        ])
      ).statusCode,
    ).toBe(303);
    expect((await brandOf(channelA))!.logo).toBeUndefined();
  });

  it('previews the form’s brand (its colour corrected, its logo inline) without storing or recording anything', async () => {
    const cookie = await enter(channelA);
    const csrf = csrfOf((await get('/portal/marca', cookie)).body);
    const before = await brandOf(channelA);
    const recorded = (await changes(channelA)).length;
    const body = multipart([
      { name: '_csrf', value: csrf },
      { name: 'nome', value: 'Só Prévia' },
      { name: 'cor', value: 'ffee00' },
      file(LOGO),
    ]);
    const previewed = await service.inject({
      method: 'POST',
      url: '/portal/marca/previa',
      headers: { cookie, ...body.headers },
      payload: body.payload,
    });
    expect(previewed.statusCode, previewed.body).toBe(200);
    expect(previewed.body).toContain('Prévia: nada foi salvo');
    expect(previewed.body).toMatch(/class="previa-marca">Só Prévia</);
    expect(previewed.body).toContain(`src="data:image/png;base64,${LOGO.toString('base64')}"`);
    const used = /href="\/marca\/previa\/([0-9a-f]{6})\.css"/.exec(previewed.body)![1]!;
    expect(previewed.body).toContain('<code>#ffee00</code>');
    expect(previewed.body).toContain(`<code>#${used}</code>`);
    const css = await service.inject({ method: 'GET', url: `/marca/previa/${used}.css` });
    expect(css.statusCode).toBe(200);
    expect(css.body).toBe(`:root{--previa-marca:#${used};--previa-marca-escura:${/escura:(#[0-9a-f]{6})/.exec(css.body)![1]}}\n`);
    expect(await brandOf(channelA)).toEqual(before);
    expect(await changes(channelA)).toHaveLength(recorded);

    const refused = multipart([
      { name: '_csrf', value: csrf },
      { name: 'nome', value: 'Ok' },
      { name: 'cor', value: 'azul' },
    ]);
    const bad = await service.inject({
      method: 'POST',
      url: '/portal/marca/previa',
      headers: { cookie, ...refused.headers },
      payload: refused.payload,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain(FIELD_MESSAGES.cor_invalida!);
  });

  it('shows the brand service’s refusals on the form (422) and a bad logo’s in pt-BR, storing nothing', async () => {
    const cookie = await enter(channelA);
    const csrf = csrfOf((await get('/portal/marca', cookie)).body);
    const before = await brandOf(channelA);
    const recorded = (await changes(channelA)).length;
    const refusals: Array<[Part[], string]> = [
      [[{ name: 'nome', value: '   ' }], FIELD_MESSAGES.nome_invalido!],
      [
        [
          { name: 'nome', value: 'Ok' },
          { name: 'cor', value: 'azul' },
        ],
        FIELD_MESSAGES.cor_invalida!,
      ],
      [[{ name: 'nome', value: 'Ok' }, file(Buffer.from('não sou uma imagem'), 'logo', 'logo.png')], 'logo inválido'],
      [[{ name: 'nome', value: 'Ok' }, file(Buffer.alloc(17 * 1024, 1))], 'passa de 16 KB'],
      [[{ name: 'nome', value: 'Ok' }, file(LOGO), file(LOGO, 'logo', 'outro.png')], 'Envie um arquivo só'],
      [[{ name: 'nome', value: 'Ok' }, file(LOGO, 'nome-do-arquivo')], 'num campo que não aceita arquivos'],
    ];
    for (const [parts, message] of refusals) {
      const response = await postMultipart(cookie, [{ name: '_csrf', value: csrf }, ...parts]);
      expect(response.statusCode, message).toBe(422);
      expect(response.body).toContain(message.replace(/&/g, '&amp;'));
      expect(response.body).toContain('A marca não foi salva');
      expect(response.body).toContain('aria-invalid="true"');
    }
    expect(await brandOf(channelA)).toEqual(before);
    expect(await changes(channelA)).toHaveLength(recorded);
  });

  it('refuses a read-only session, a post without the CSRF token and a form that is not multipart: nothing changes', async () => {
    const full = await enter(channelA);
    const readOnly = await enter(channelA, ['leitura']);
    const before = await brandOf(channelA);
    const recorded = (await changes(channelA)).length;
    const roCsrf = csrfOf((await get('/portal/marca', readOnly)).body);
    const refusedRo = await postMultipart(readOnly, [
      { name: '_csrf', value: roCsrf },
      { name: 'nome', value: 'Lida' },
      file(LOGO),
    ]);
    expect(refusedRo.statusCode).toBe(403);
    expect(refusedRo.body).toContain('Somente leitura');
    expect((await postForm('/portal/marca/remover', readOnly, { _csrf: roCsrf })).statusCode).toBe(403);

    const noCsrf = await postMultipart(full, [{ name: 'nome', value: 'Sem token' }, file(LOGO)]);
    expect(noCsrf.statusCode).toBe(403);
    const csrf = csrfOf((await get('/portal/marca', full)).body);
    expect((await postForm('/portal/marca', full, { _csrf: csrf, nome: 'Formulário simples' })).statusCode).toBe(403);
    expect((await postForm('/portal/marca/remover', full, {})).statusCode).toBe(403);
    expect(await brandOf(channelA)).toEqual(before);
    expect(await changes(channelA)).toHaveLength(recorded);
  });

  it('removes the brand, records it, and the page says the customer pages use the channel’s name', async () => {
    const cookie = await enter(channelA);
    const csrf = csrfOf((await get('/portal/marca', cookie)).body);
    expect(
      (
        await postMultipart(cookie, [
          { name: '_csrf', value: csrf },
          { name: 'nome', value: 'Para remover' },
        ])
      ).statusCode,
    ).toBe(303);
    const removed = await postForm('/portal/marca/remover', cookie, { _csrf: csrf });
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe('/portal/marca?feito=removido');
    expect(await brandOf(channelA)).toBeUndefined();
    expect((await changes(channelA)).at(-1)).toEqual({ acao: 'marca.removida', alvo_tipo: 'marca', alvo_id: channelA.canalId });
    const page = await get('/portal/marca?feito=removido', cookie);
    expect(page.body).toContain('Marca removida');
    expect(page.body).toMatch(/class="previa-marca">Canal A</);
  });
});

describe('Sandbox', () => {
  it('creates the test inbox on a post (never on a GET) and edits the status it answers with', async () => {
    const cookie = await enter(channelB);
    const page = await get('/portal/sandbox', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Criar receptor de testes');
    expect(await inboxOfChannel(service.ctx, channelB.canalId)).toBeUndefined();
    const csrf = csrfOf(page.body);

    const saved = await postForm('/portal/sandbox/receptor', cookie, { _csrf: csrf, status: '503' });
    expect(saved.statusCode, saved.body).toBe(303);
    const inbox = (await inboxOfChannel(service.ctx, channelB.canalId))!;
    expect(inbox.responderStatus).toBe(503);
    expect(await changes(channelB)).toEqual([
      { acao: 'sandbox.receptor_status', alvo_tipo: 'receptor', alvo_id: channelB.canalId },
    ]);
    const after = await get('/portal/sandbox?feito=receptor', cookie);
    expect(after.body).toContain(`href="${inbox.visualizacaoUrl}"`);
    expect(after.body).toContain('<option value="503" selected>');
    expect(after.body).toContain('Status do receptor de testes alterado');

    const refused = await postForm('/portal/sandbox/receptor', cookie, { _csrf: csrf, status: '299' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('responderStatus inválido');
    expect((await inboxOfChannel(service.ctx, channelB.canalId))!.responderStatus).toBe(503);
  });

  it('runs the journey and moves the proposal through the simulator; an invalid transition is shown in pt-BR', async () => {
    const cookie = await enter(channelB);
    const link = await makeLink(service, await service.bearer(channelB), { referenciaExterna: 'promotor-1' });
    const page = await get('/portal/sandbox', cookie);
    expect(page.body).toContain(`<option value="${link.id}"`);
    const csrf = csrfOf(page.body);

    const journey = await postForm('/portal/sandbox/jornada', cookie, { _csrf: csrf, link: link.id });
    expect(journey.statusCode, journey.body).toBe(303);
    expect(journey.headers.location).toBe(`/portal/sandbox?link=${link.id}&feito=jornada`);
    expect((await getLink(service.ctx, channelB.canalId, link.id)).proposta?.status).toBe('AGUARDANDO_FORMALIZACAO');

    for (const status of ['FORMALIZADA', 'APROVADA']) {
      const moved = await postForm('/portal/sandbox/proposta', cookie, { _csrf: csrf, link: link.id, status });
      expect(moved.statusCode, moved.body).toBe(303);
    }
    expect((await getLink(service.ctx, channelB.canalId, link.id)).proposta?.status).toBe('APROVADA');
    const invalid = await postForm('/portal/sandbox/proposta', cookie, { _csrf: csrf, link: link.id, status: 'FORMALIZADA' });
    expect(invalid.statusCode).toBe(409);
    expect(invalid.body).toContain('Transição inválida: Não é possível voltar de APROVADA para FORMALIZADA.');
    expect((await getLink(service.ctx, channelB.canalId, link.id)).proposta?.status).toBe('APROVADA');
    const again = await postForm('/portal/sandbox/jornada', cookie, { _csrf: csrf, link: link.id });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('A proposta deste link já foi criada');

    const linkChanges = (await changes(channelB)).filter((c) => c.alvo_tipo === 'link');
    expect(linkChanges).toEqual([
      { acao: 'sandbox.jornada_simulada', alvo_tipo: 'link', alvo_id: link.id },
      { acao: 'sandbox.proposta_formalizada', alvo_tipo: 'link', alvo_id: link.id },
      { acao: 'sandbox.proposta_aprovada', alvo_tipo: 'link', alvo_id: link.id },
    ]);
    const shown = await get(`/portal/sandbox?link=${link.id}&feito=proposta`, cookie);
    expect(shown.body).toContain('Proposta simulada: APROVADA');
    expect(shown.body).toContain('Jornada simulada');
  });

  it('finds no other channel’s link; refuses read-only and CSRF-less posts; nothing changes', async () => {
    const cookieB = await enter(channelB);
    const readOnly = await enter(channelB, ['leitura']);
    const linkOfA = await makeLink(service, await service.bearer(channelA));
    const mine = await makeLink(service, await service.bearer(channelB));
    const csrf = csrfOf((await get('/portal/sandbox', cookieB)).body);
    const recordedA = (await changes(channelA)).length;
    const recordedB = (await changes(channelB)).length;

    expect((await postForm('/portal/sandbox/jornada', cookieB, { _csrf: csrf, link: linkOfA.id })).statusCode).toBe(404);
    expect(
      (await postForm('/portal/sandbox/proposta', cookieB, { _csrf: csrf, link: linkOfA.id, status: 'CANCELADA' })).statusCode,
    ).toBe(404);
    expect((await get(`/portal/sandbox?link=${linkOfA.id}`, cookieB)).statusCode).toBe(404);
    expect((await getLink(service.ctx, channelA.canalId, linkOfA.id)).status).toBe('CRIADO');

    const roCsrf = csrfOf((await get('/portal/sandbox', readOnly)).body);
    const ro = await postForm('/portal/sandbox/jornada', readOnly, { _csrf: roCsrf, link: mine.id });
    expect(ro.statusCode).toBe(403);
    expect(ro.body).toContain('Somente leitura');
    expect((await postForm('/portal/sandbox/receptor', readOnly, { _csrf: roCsrf, status: '200' })).statusCode).toBe(403);
    expect((await postForm('/portal/sandbox/jornada', cookieB, { link: mine.id })).statusCode).toBe(403);
    expect((await getLink(service.ctx, channelB.canalId, mine.id)).proposta).toBeUndefined();
    expect((await inboxOfChannel(service.ctx, channelB.canalId))!.responderStatus).toBe(503);
    expect(await changes(channelA)).toHaveLength(recordedA);
    expect(await changes(channelB)).toHaveLength(recordedB);
  });
});
