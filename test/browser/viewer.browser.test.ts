// The inbox viewer in real Chromium (issue 6): events sent by POST /v1/webhooks/teste
// and by the delivery engine (a proposal made through the hosted journey) appear
// without a reload, signed; the controls change the answered status and clear the
// list; it fits a phone; and with JavaScript off the server-rendered list and the
// form fallbacks work. Every document passes checkPage, with no CSP violation.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/service.ts';
import { SCREENSHOT_DIR, screenshot, skipBrowserTests, withBrowser, type ContextOptions } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';
import { PREVIEW_CHARS, VIEWER_PAGE_SIZE } from '../../src/sandbox/inbox.service.ts';
import { proposalLink, simulate } from '../webhooks/support.ts';
import { channelWithInbox, channelWithRegisteredInbox, listEvents, postToInbox, type InboxSetup } from '../sandbox/support.ts';

const H1 = 'Eventos recebidos';
const EMPTY = /Nenhum evento recebido ainda/;
const PHONE: ContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

declare global {
  interface Window {
    semRecarregar?: string;
  }
}

describe.skipIf(skipBrowserTests())('inbox viewer in Chromium', () => {
  const browser = withBrowser();
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ listen: true, worker: true });
  });
  afterAll(() => service?.close());

  const registeredInbox = (): Promise<InboxSetup> => channelWithRegisteredInbox(service);

  async function sendTest(setup: InboxSetup) {
    const r = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: setup.auth });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<{ entregue: boolean; httpStatus?: number }>();
  }

  const rows = (page: Page) => page.getByRole('list', { name: /Eventos recebidos/ }).locator('li.evento');
  const row = (page: Page, tipo: string) => rows(page).filter({ has: page.getByText(tipo, { exact: true }) });

  /**
   * Makes the page's own script read the list again now (a tab coming back into view
   * does; with the stream on, its own poll is slow) and waits until it did (the status
   * line changes).
   */
  async function nextRefresh(page: Page): Promise<void> {
    const status = page.locator('#atualizacao');
    const before = await status.textContent();
    await page.waitForTimeout(1000); // the line shows seconds: a refresh in the same second would not change it
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.waitForFunction((text) => document.getElementById('atualizacao')?.textContent !== text, before, { timeout: 6000 });
  }

  it('shows new events live, without reloading, with the signature badge, details, status control and clearing', async () => {
    const setup = await registeredInbox();
    const { page, watch } = await browser.newPage();
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    await page.goto(setup.inbox.visualizacaoUrl);
    await page.getByRole('heading', { level: 1, name: H1 }).waitFor();
    await expect(page.title()).resolves.toBe('Receptor de testes · Consigna');
    await page.getByText(EMPTY).waitFor();
    await expect(page.getByText(setup.inbox.url, { exact: true }).count()).resolves.toBe(1);
    await screenshot(page, 'viewer-vazio');
    // Survives only as long as this document does.
    await page.evaluate(() => {
      window.semRecarregar = 'mesmo documento';
    });
    const navigationsBefore = navigations;

    // Events are pushed (the inbox's stream), not polled for.
    await page.getByText(/Atualiza sozinho assim que um evento chega/).waitFor();
    expect(await sendTest(setup)).toMatchObject({ entregue: true, httpStatus: 200 });
    await row(page, 'webhook.teste').waitFor();
    await expect(page.getByText(EMPTY).count()).resolves.toBe(0);

    // A proposal through the hosted journey: the delivery engine sends its events.
    const auth = setup.auth;
    const linkId = await proposalLink(service, auth);
    await row(page, 'proposta.criada').waitFor();
    await row(page, 'proposta.aguardando_formalizacao').waitFor();
    await expect(rows(page).count()).resolves.toBe(3);

    expect(await page.evaluate(() => window.semRecarregar)).toBe('mesmo documento');
    expect(navigations).toBe(navigationsBefore);

    // Newest first, each with the badge, the attempt and the answered status.
    const types = await rows(page).locator('.tipo').allTextContents();
    expect(types[2]).toBe('webhook.teste');
    expect(types.slice(0, 2).toSorted()).toEqual(['proposta.aguardando_formalizacao', 'proposta.criada']);
    for (const tipo of types) {
      const r = row(page, tipo);
      await expect(r.getByText('Assinatura válida', { exact: true }).isVisible()).resolves.toBe(true);
      await expect(r.getByText('Tentativa 1', { exact: true }).isVisible()).resolves.toBe(true);
      await expect(r.getByText('Respondeu 200', { exact: true }).isVisible()).resolves.toBe(true);
    }

    // Body and headers expand, and stay open across the next refreshes.
    const created = row(page, 'proposta.criada');
    const body = created.locator('details', { has: page.getByText('Corpo', { exact: true }) });
    const headers = created.locator('details', { has: page.getByText('Cabeçalhos', { exact: true }) });
    await expect(body.locator('pre').isVisible()).resolves.toBe(false);
    await body.getByText('Corpo', { exact: true }).click();
    await headers.getByText('Cabeçalhos', { exact: true }).click();
    await expect(body.locator('pre').textContent()).resolves.toContain('"tipo": "proposta.criada"');
    await expect(body.locator('pre').textContent()).resolves.toContain(linkId);
    const headerText = (await headers.locator('pre').textContent())!;
    expect(headerText).toMatch(/^x-service-signature: t=\d+,v1=[0-9a-f]{64}$/m);
    expect(headerText).toContain('x-service-event-type: proposta.criada');
    await nextRefresh(page);
    await nextRefresh(page);
    await expect(body.locator('pre').isVisible()).resolves.toBe(true);
    await expect(headers.locator('pre').isVisible()).resolves.toBe(true);
    await watch.checkNow();
    await screenshot(page, 'viewer-eventos');

    // The control changes the answered status; the next event shows it.
    await page.getByLabel('Responder com o status').selectOption('500');
    // A choice not applied yet survives the polling.
    await nextRefresh(page);
    await expect(page.getByLabel('Responder com o status').inputValue()).resolves.toBe('500');
    expect((await listEvents(service, setup.token)).responderStatus).toBe(200);
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await page.getByText('Agora respondendo com 500.').waitFor();
    await waitFor(async () => (await listEvents(service, setup.token)).responderStatus === 500, { what: 'status 500 saved' });
    expect(await sendTest(setup)).toMatchObject({ entregue: false, httpStatus: 500 });
    await rows(page).first().getByText('Respondeu 500', { exact: true }).waitFor();
    await expect(rows(page).count()).resolves.toBe(4);
    await expect(page.getByLabel('Responder com o status').inputValue()).resolves.toBe('500');
    await screenshot(page, 'viewer-status-500');

    // Clearing empties the list here and on the API.
    await page.getByRole('button', { name: 'Limpar eventos' }).click();
    await page.getByText(EMPTY).waitFor();
    await expect(rows(page).count()).resolves.toBe(0);
    expect((await listEvents(service, setup.token)).eventos).toEqual([]);

    // And later events still arrive on the same document.
    await page.getByLabel('Responder com o status').selectOption('200');
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await page.getByText('Agora respondendo com 200.').waitFor();
    await simulate(service, setup.json, linkId, 'FORMALIZADA');
    await row(page, 'proposta.formalizada').getByText('Assinatura válida').waitFor();

    // What a sender controls is shown as text by the script too, never as markup.
    await postToInbox(service, setup.token, '<img src=x id=injetado-corpo>', {
      'content-type': 'text/plain',
      'x-service-event-type': '<img src=x id=injetado>',
    });
    await row(page, '<img src=x id=injetado>').waitFor();
    await expect(page.locator('#injetado, #injetado-corpo').count()).resolves.toBe(0);
    expect(await page.evaluate(() => window.semRecarregar)).toBe('mesmo documento');
    expect(navigations).toBe(navigationsBefore);
    await watch.checkNow();
    await watch.expectClean();
  });

  it('fits a phone screen (390×844) without horizontal scroll, details open', async () => {
    const setup = await registeredInbox();
    await sendTest(setup);
    // Long unbroken text and a long header value must wrap, not widen the page.
    await postToInbox(service, setup.token, `sem-espacos-${'x'.repeat(400)}`, {
      'content-type': 'text/plain',
      'x-service-event-type': 'tipo.muito.longo.sem.espacos.para.quebrar.a.linha.no.celular',
      'x-cabecalho-longo': 'y'.repeat(300),
    });
    const { page, watch } = await browser.newPage(PHONE);
    await page.goto(setup.inbox.visualizacaoUrl);
    await page.getByRole('heading', { level: 1, name: H1 }).waitFor();
    await expect(rows(page).count()).resolves.toBe(2);
    for (const summary of await page.locator('summary').all()) await summary.click();
    await expect(page.locator('details[open]').count()).resolves.toBe(4);
    await watch.checkNow();
    // Overflow on a phone makes Chromium zoom out (innerWidth grows with the content), so
    // the layout width itself must still be the device width.
    const width = await page.evaluate(() => ({
      scroll: document.scrollingElement!.scrollWidth,
      inner: window.innerWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(width).toEqual({ scroll: 390, inner: 390, client: 390 });
    // Every control is at least a comfortable touch target.
    for (const control of await page.locator('button, select').all()) {
      const box = (await control.boundingBox())!;
      expect(box.height, await control.evaluate((el) => el.outerHTML.slice(0, 60))).toBeGreaterThanOrEqual(40);
    }
    await screenshot(page, 'viewer-celular');
    // What the phone shows first, at its real size.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'viewer-celular-topo.png') });
    await watch.expectClean();
  });

  it('works with JavaScript off: the server-rendered list and the form fallbacks', async () => {
    const setup = await registeredInbox();
    await sendTest(setup);
    const { page, watch } = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(setup.inbox.visualizacaoUrl);
    await page.getByRole('heading', { level: 1, name: H1 }).waitFor();
    await row(page, 'webhook.teste').getByText('Assinatura válida', { exact: true }).waitFor();
    // Details open natively.
    await row(page, 'webhook.teste').getByText('Cabeçalhos', { exact: true }).click();
    await expect(row(page, 'webhook.teste').locator('details[open] pre').textContent()).resolves.toContain(
      'x-service-event-id: ',
    );
    await screenshot(page, 'viewer-sem-js');

    // Status form: POST, 303, the same page again with the new status selected.
    await page.getByLabel('Responder com o status').selectOption('503');
    // Each document's automatic check finishes before the next navigation replaces it.
    await watch.settled();
    await Promise.all([page.waitForEvent('domcontentloaded'), page.getByRole('button', { name: 'Aplicar' }).click()]);
    await page.getByRole('heading', { level: 1, name: H1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/sandbox/receptor/${setup.token}`);
    await expect(page.getByLabel('Responder com o status').inputValue()).resolves.toBe('503');
    await expect(page.getByRole('status').textContent()).resolves.toBe('Agora respondendo com 503.');
    expect((await listEvents(service, setup.token)).responderStatus).toBe(503);
    expect(await sendTest(setup)).toMatchObject({ entregue: false, httpStatus: 503 });
    await watch.settled();
    await page.reload();
    await expect(rows(page).count()).resolves.toBe(2);
    await rows(page).first().getByText('Respondeu 503', { exact: true }).waitFor();

    // Clear form: POST, 303, an empty list.
    await watch.settled();
    await Promise.all([page.waitForEvent('domcontentloaded'), page.getByRole('button', { name: 'Limpar eventos' }).click()]);
    await page.getByText(EMPTY).waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toBe('Eventos apagados.');
    expect(new URL(page.url()).pathname).toBe(`/sandbox/receptor/${setup.token}`);
    expect((await listEvents(service, setup.token)).eventos).toEqual([]);
    await screenshot(page, 'viewer-sem-js-limpo');
    await watch.expectClean();
  });

  it('shows large and hostile bodies that arrive live as a bounded preview, the exact body one click away, ten to a page', async () => {
    const setup = await channelWithInbox(service);
    const { page, watch } = await browser.newPage();
    await page.goto(setup.inbox.visualizacaoUrl);
    await page.getByText(EMPTY).waitFor();
    const deep = '['.repeat(4500) + ']'.repeat(4500);
    const wide = `[${Array(30_000).fill(7).join(',')}]`;
    expect((await postToInbox(service, setup.token, deep)).statusCode).toBe(200);
    expect((await postToInbox(service, setup.token, wide)).statusCode).toBe(200);
    await expect.poll(() => rows(page).count(), { timeout: 8000 }).toBe(2);
    // Rendered by the server for the page's own script: the same preview as on a reload.
    const [newest, oldest] = [rows(page).nth(0), rows(page).nth(1)];
    await newest.getByText('Corpo', { exact: true }).click();
    await expect(newest.locator('.aviso-corpo').textContent()).resolves.toMatch(/Prévia: só o início do corpo, que tem 58,6 KB/);
    const preview = (await newest.locator('pre').first().textContent())!;
    expect(preview.length).toBeLessThanOrEqual(PREVIEW_CHARS);
    expect(preview.startsWith('[\n  7,\n  7,')).toBe(true);
    await expect(oldest.locator('.aviso-corpo').first().textContent()).resolves.toMatch(/mais de 64 níveis/);
    expect(deep.startsWith((await oldest.locator('pre').first().textContent())!)).toBe(true);

    // The exact body, as text, in a new tab.
    const [raw] = await Promise.all([
      page.waitForEvent('popup'),
      newest.getByRole('link', { name: /Corpo exato como texto/ }).click(),
    ]);
    await raw.waitForLoadState();
    expect(await raw.evaluate(() => document.body.innerText)).toBe(wide);
    await raw.close();

    // Past ten events, the older ones are a page away (and the live page keeps the newest ten).
    for (let n = 0; n < 10; n++) expect((await postToInbox(service, setup.token, JSON.stringify({ n }))).statusCode).toBe(200);
    await expect.poll(() => rows(page).first().locator('pre').first().textContent(), { timeout: 8000 }).toContain('"n": 9');
    await expect(rows(page).count()).resolves.toBe(VIEWER_PAGE_SIZE);
    await page.getByRole('link', { name: 'Eventos mais antigos' }).click();
    await page.getByRole('link', { name: 'Voltar aos mais recentes' }).waitFor();
    await expect(rows(page).count()).resolves.toBe(2);
    await expect(rows(page).nth(1).locator('.aviso-corpo').first().textContent()).resolves.toMatch(/mais de 64 níveis/);
    await watch.expectClean();
  });

  it('answers an unknown token with a pt-BR 404 page', async () => {
    const { page, watch } = await browser.newPage();
    const response = await page.goto(`${service.baseUrl}/sandbox/receptor/sbx_${'N'.repeat(32)}`);
    expect(response!.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Receptor não encontrado' }).waitFor();
    await screenshot(page, 'viewer-nao-encontrado');
    await watch.expectClean();
  });
});
