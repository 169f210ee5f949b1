// The portal's Marca and Sandbox pages in real Chromium (docs/rules.md §10): the brand
// edited with a logo upload and the preview drawn with it (name, logo, corrected accent);
// the journey simulator run and the proposal moved; axe-core's WCAG 2.1 A/AA rules with
// zero violations on each page; a phone's width without sideways scroll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/service.ts';
import { makeLink } from '../helpers/link-journeys.ts';
import { makePng } from '../helpers/images.ts';
import { axeViolations, screenshot, skipBrowserTests, withBrowser, type ContextOptions } from '../helpers/browser.ts';
import { signInToPortal } from '../helpers/portal.ts';
import { accentFor } from '../../src/brand/colour.ts';

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

describe.skipIf(skipBrowserTests())('the portal’s Marca and Sandbox, in Chromium', () => {
  const browser = withBrowser();
  let service: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService({ listen: true });
    auth = await service.bearer(await service.createChannel({ name: 'Canal da Marca' }));
  });
  afterAll(() => service?.close());

  const h1 = async (page: Page) => (await page.locator('h1').textContent())?.trim();

  const signIn = (options: ContextOptions = {}) => signInToPortal(browser, service, auth, options);

  const noSidewaysScroll = async (page: Page) => {
    const widths = await page.evaluate(() => ({
      content: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
    }));
    expect(widths.content).toBeLessThanOrEqual(widths.viewport);
  };

  it('edits the brand with a logo upload and the preview shows it; removes it', async () => {
    const { page, watch, expectClean } = await signIn();
    await page.getByRole('link', { name: 'Marca' }).click();
    expect(await h1(page)).toBe('Marca');
    expect((await page.locator('.previa-marca').textContent())?.trim()).toBe('Canal da Marca');
    expect(await page.locator('.previa-logo').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Nome mostrado ao cliente').fill('Fintech Amarela');
    await page.getByLabel('Cor (#RRGGBB)').fill('#ffd400');
    await page
      .getByLabel(/^Logo/)
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: makePng(96, 32, [20, 60, 200]) });
    await Promise.all([
      page.waitForURL(`${service.baseUrl}/portal/marca?feito=salvo`),
      page.getByRole('button', { name: 'Salvar marca' }).click(),
    ]);
    expect(await page.getByRole('status').first().textContent()).toContain('Marca salva');
    expect((await page.locator('.previa-marca').textContent())?.trim()).toBe('Fintech Amarela');
    const logo = page.locator('.previa-logo');
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
    const used = accentFor('#ffd400').accent;
    expect(await page.locator('.previa-topo').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb(used));
    expect(await page.locator('#contraste').textContent()).toContain(used);
    expect(await page.locator('.alteracoes').textContent()).toContain('Marca alterada');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'portal-marca');

    // "Pré-visualizar": the preview takes the form's colour (corrected); the saved brand stays.
    await page.getByLabel('Cor (#RRGGBB)').fill('#00ffff');
    await page.getByRole('button', { name: 'Pré-visualizar' }).click();
    await page.getByText('Prévia: nada foi salvo').waitFor();
    const drafted = accentFor('#00ffff').accent;
    expect(await page.locator('.previa-topo').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb(drafted));
    expect(await page.locator('header.topo').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb(used));
    expect(await page.locator('#contraste').textContent()).toContain(drafted);
    expect(await axeViolations(page)).toEqual([]);
    await watch.settled();

    // A refusal is shown on the form, linked to its field.
    await page.getByLabel('Cor (#RRGGBB)').fill('amarelo');
    await page.getByRole('button', { name: 'Salvar marca' }).click();
    await page.waitForSelector('#cor-erro');
    expect(await page.getByLabel('Cor (#RRGGBB)').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await watch.settled(); // this document's checks end before the next navigation

    await Promise.all([
      page.waitForURL(`${service.baseUrl}/portal/marca?feito=removido`),
      page.getByRole('button', { name: 'Remover a marca' }).click(),
    ]);
    expect((await page.locator('.previa-marca').textContent())?.trim()).toBe('Canal da Marca');
    await expectClean();
  });

  it('runs the journey simulator and moves the proposal; an invalid transition is explained', async () => {
    const link = await makeLink(service, auth, { referenciaExterna: 'loja-sul' });
    const { page, expectClean } = await signIn();
    await page.getByRole('link', { name: 'Sandbox' }).click();
    expect(await h1(page)).toBe('Sandbox');
    expect(await axeViolations(page)).toEqual([]);

    await Promise.all([
      page.waitForURL(/feito=receptor/),
      page.getByRole('button', { name: 'Criar receptor de testes' }).click(),
    ]);
    await page.getByLabel('Status HTTP com que o receptor responde').selectOption('500');
    await Promise.all([page.waitForURL(/feito=receptor/), page.getByRole('button', { name: 'Salvar status' }).click()]);
    expect(await page.getByLabel('Status HTTP com que o receptor responde').inputValue()).toBe('500');

    await page.locator('#jornada-link').selectOption(link.id);
    await Promise.all([page.waitForURL(/feito=jornada/), page.getByRole('button', { name: 'Simular a jornada' }).click()]);
    const chosen = page.getByRole('table', { name: /^Link …/ });
    expect(await chosen.textContent()).toContain('AGUARDANDO_FORMALIZACAO');

    await page.getByLabel('Novo status da proposta').selectOption('CANCELADA');
    await Promise.all([
      page.waitForURL(/feito=proposta/),
      page.getByRole('button', { name: 'Mudar o status da proposta' }).click(),
    ]);
    expect(await chosen.textContent()).toContain('CANCELADA');
    await page.getByLabel('Novo status da proposta').selectOption('APROVADA');
    await page.getByRole('button', { name: 'Mudar o status da proposta' }).click();
    await page.waitForSelector('.aviso-erro');
    expect(await page.getByRole('alert').textContent()).toContain('Transição inválida: A proposta está em CANCELADA');
    expect(await page.locator('.alteracoes').textContent()).toContain('Proposta simulada: CANCELADA');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'portal-sandbox');
    await expectClean();
  });

  it('saves the brand with its logo, and runs the simulator, with JavaScript off', async () => {
    const link = await makeLink(service, auth);
    const { page, expectClean } = await signIn({ javaScriptEnabled: false });
    await page.goto(`${service.baseUrl}/portal/marca`);
    await page.getByLabel('Nome mostrado ao cliente').fill('Sem Script');
    await page
      .getByLabel(/^Logo/)
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: makePng(64, 32, [0, 90, 40]) });
    await Promise.all([
      page.waitForURL(`${service.baseUrl}/portal/marca?feito=salvo`),
      page.getByRole('button', { name: 'Salvar marca' }).click(),
    ]);
    expect((await page.locator('.previa-marca').textContent())?.trim()).toBe('Sem Script');
    expect(await page.locator('.previa-logo').getAttribute('width')).toBe('64');
    await page.goto(`${service.baseUrl}/portal/sandbox`);
    await page.locator('#jornada-link').selectOption(link.id);
    await Promise.all([page.waitForURL(/feito=jornada/), page.getByRole('button', { name: 'Simular a jornada' }).click()]);
    expect(await page.getByRole('table', { name: /^Link …/ }).textContent()).toContain('AGUARDANDO_FORMALIZACAO');
    await expectClean();
  });

  it('fits a phone’s width on both pages', async () => {
    const { page, expectClean } = await signIn({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    for (const path of ['/portal/marca', '/portal/sandbox']) {
      await page.goto(`${service.baseUrl}${path}`);
      await noSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);
    }
    await expectClean();
  });
});
