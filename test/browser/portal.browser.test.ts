// The channel portal in real Chromium (docs/rules.md §10): in by the entry link's button,
// "Visão geral" with the channel's brand, its chart and tables, axe-core's WCAG 2.1 A/AA
// rules with zero violations on every page, out by "Sair"; the cookie as the browser
// keeps it; a phone's width without sideways scroll; and all of it with JavaScript off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/service.ts';
import { makeLink, simulateJourney } from '../helpers/link-journeys.ts';
import { axeViolations, screenshot, skipBrowserTests, withBrowser, type ContextOptions } from '../helpers/browser.ts';
import { rememberSecret } from '../helpers/secrets.ts';

const BRAND = 'Fintech do Portal';

describe.skipIf(skipBrowserTests())('the channel portal, in Chromium', () => {
  const browser = withBrowser();
  let service: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService({ listen: true });
    auth = await service.bearer(await service.createChannel({ name: 'Canal do Portal' }));
    const brand = await service.inject({
      method: 'PUT',
      url: '/v1/marca',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ nome: BRAND, cor: '#ffd400' }),
    });
    expect(brand.statusCode, brand.body).toBe(201);
    for (const referenciaExterna of ['loja-centro', 'loja-centro', 'loja-norte']) {
      const link = await makeLink(service, auth, { referenciaExterna });
      if (referenciaExterna === 'loja-norte') expect(await simulateJourney(service, auth, link)).toBe('CONCLUIDO');
    }
  });
  afterAll(() => service?.close());

  async function entryLink(): Promise<string> {
    const created = await service.inject({ method: 'POST', url: '/v1/portal/sessoes', headers: auth });
    expect(created.statusCode, created.body).toBe(201);
    const { url } = created.json<{ url: string }>();
    rememberSecret(url, url.split('/').pop());
    return url;
  }

  const h1 = async (page: Page) => (await page.locator('h1').textContent())?.trim();

  async function signIn(
    options: ContextOptions = {},
  ): Promise<{ page: Page; context: BrowserContext; url: string; expectClean(): Promise<void> }> {
    const { page, context, watch } = await browser.newPage(options);
    const url = await entryLink();
    await page.goto(url);
    expect(await h1(page)).toBe('Entrar no portal');
    await Promise.all([
      page.waitForURL(`${service.baseUrl}/portal`),
      page.getByRole('button', { name: 'Entrar no portal' }).click(),
    ]);
    expect(await h1(page)).toBe('Visão geral');
    return { page, context, url, expectClean: () => watch.expectClean() };
  }

  it('signs in by the entry link, shows Visão geral, passes axe on every page, signs out', async () => {
    const { page: entry } = await browser.newPage();
    await entry.goto(await entryLink());
    expect(await axeViolations(entry)).toEqual([]);

    const { page, context, url, expectClean } = await signIn();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'consigna_portal', path: '/portal', httpOnly: true, sameSite: 'Strict', secure: false });
    expect((await page.locator('header .marca').textContent())?.trim()).toBe(BRAND);
    expect(await page.getByRole('link', { name: 'Visão geral' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('img', { name: /^Funil dos últimos 7 dias\. Criados: 3; Abertos: 1/ }).isVisible()).toBe(true);
    expect(await page.getByRole('img', { name: /^Funil dos últimos 30 dias\./ }).isVisible()).toBe(true);
    const table = page.getByRole('table', { name: 'Funil dos últimos 7 dias, por etapa' });
    expect(await table.getByRole('row', { name: /Concluídos \(proposta criada\) 1 100%/ }).count()).toBe(1);
    const promoters = page.getByRole('table', { name: /Referências com mais links/ });
    expect(await promoters.getByRole('row').allInnerTexts()).toEqual([
      expect.stringMatching(/^Referência\s+Criados\s+Concluídos\s+Conversão$/),
      expect.stringMatching(/^loja-norte\s+1\s+1\s+100%$/),
      expect.stringMatching(/^loja-centro\s+2\s+0\s+0%$/),
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'portal-visao-geral');

    // The first Tab reaches the skip link, which leads to the content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pular para o conteúdo');

    await Promise.all([page.waitForURL(`${service.baseUrl}/portal/saiu`), page.getByRole('button', { name: 'Sair' }).click()]);
    expect(await h1(page)).toBe('Você saiu do portal');
    expect(await context.cookies()).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${service.baseUrl}/portal`);
    expect(await h1(page)).toBe('Sessão encerrada');
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(url);
    expect(await h1(page)).toBe('Link de acesso inválido');
    expect(await axeViolations(page)).toEqual([]);
    await expectClean();
  });

  it('fits a phone’s width without sideways scroll', async () => {
    const { page, expectClean } = await signIn({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    const widths = await page.evaluate(() => ({
      content: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
    }));
    expect(widths.content).toBeLessThanOrEqual(widths.viewport);
    await screenshot(page, 'portal-visao-geral-celular');
    expect(await axeViolations(page)).toEqual([]);
    await expectClean(); // every document also went through checkPage (one h1, names, no sideways scroll)
  });

  it('works with JavaScript off', async () => {
    const { page, expectClean } = await signIn({ javaScriptEnabled: false });
    await Promise.all([page.waitForURL(`${service.baseUrl}/portal/saiu`), page.getByRole('button', { name: 'Sair' }).click()]);
    expect(await h1(page)).toBe('Você saiu do portal');
    await expectClean();
  });
});
