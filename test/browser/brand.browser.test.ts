// The customer's pages carry the channel (docs/rules.md §7.6–§7.8), in real Chromium:
// the brand on every page (name, logo, readable accent), branded and unbranded; the way
// back on every final page; the consent recorded; axe-core's WCAG 2.1 A/AA rules with
// zero violations on every page and the inbox viewer; and the whole journey done with
// the keyboard alone; and a logo of any shape drawn within its bound on a narrow phone.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sql } from 'kysely';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { axeViolations, skipBrowserTests, withBrowser } from '../helpers/browser.ts';
import { makePng } from '../helpers/images.ts';
import { SCENARIOS } from '../../src/bank/sandbox-bank.ts';
import { accentFor } from '../../src/brand/colour.ts';
import { upsertBrandRow } from '../../src/brand/brand.repository.ts';
import { consentEvidence } from '../../src/journey/consent-evidence.ts';
import { CONSENT_VERSION } from '../../src/journey/consent.ts';

const RETURN_URL = 'https://app.exemplo.com.br/consignado/volta?pedido=42';
// Text that would be markup if it were not escaped.
const BRAND_NAME = 'Fintech <script>alert(1)</script> & Cia';
const COLOUR = '#ffd400'; // yellow: white text on it is unreadable, so the pages darken it
const LOGO = makePng(120, 32, [20, 90, 200]);

interface Channel {
  auth: Record<string, string>;
  name: string;
  logo: boolean;
  accent: string;
}

const h1 = async (page: Page) => (await page.locator('h1').textContent())?.trim() ?? '';

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

describe.skipIf(skipBrowserTests())('the channel on the customer’s pages, in Chromium', () => {
  const browser = withBrowser();
  let service: TestService;
  let branded: Channel;
  let plain: Channel;

  beforeAll(async () => {
    service = await startTestService({ listen: true });
    const a = await service.createChannel({ name: 'Canal A' });
    const auth = await service.bearer(a);
    const put = await service.inject({
      method: 'PUT',
      url: '/v1/marca',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ nome: BRAND_NAME, cor: COLOUR, logo: LOGO.toString('base64') }),
    });
    expect(put.statusCode, put.body).toBe(201);
    expect(put.json().corAplicada).toBe(accentFor(COLOUR).accent);
    expect(put.json().corAplicada).not.toBe(COLOUR);
    branded = { auth, name: BRAND_NAME, logo: true, accent: accentFor(COLOUR).accent };
    const b = await service.createChannel({ name: 'Canal Sem Marca' });
    plain = { auth: await service.bearer(b), name: 'Canal Sem Marca', logo: false, accent: '#0b6e4f' };
  });
  afterAll(() => service?.close());

  async function newLink(channel: Channel, cpf = '12345678909', withReturn = true): Promise<{ id: string; url: string }> {
    const created = await createLinkVia(service, channel.auth, { cpf, ...(withReturn ? { urlRetorno: RETURN_URL } : {}) });
    expect(created.statusCode, created.body).toBe(201);
    return created.json();
  }

  /** What every page of a known link must show, and axe's verdict on it. */
  async function expectChannelPage(page: Page, channel: Channel, what: string): Promise<void> {
    expect.soft((await page.locator('header .marca').textContent())?.trim(), what).toBe(channel.name);
    expect.soft(await page.title(), what).toMatch(new RegExp(` · ${channel.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    const footer = await page.locator('footer').innerText();
    expect.soft(footer, what).toContain(`Oferecido por ${channel.name}`);
    expect.soft(footer, what).toContain('banco parceiro');
    const logo = page.locator('header img.logo');
    if (channel.logo) {
      expect.soft(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), what).toBe(120);
    } else {
      expect.soft(await logo.count(), what).toBe(0);
    }
    expect
      .soft(await page.locator('header.topo').evaluate((el) => getComputedStyle(el).backgroundColor), what)
      .toBe(rgb(channel.accent));
    expect.soft(await axeViolations(page), `${what}: axe`).toEqual([]);
  }

  async function expectWayBack(page: Page, channel: Channel, what: string): Promise<void> {
    const back = page.getByRole('link', { name: `Voltar para ${channel.name}` });
    expect.soft(await back.count(), what).toBe(1);
    expect.soft(await back.getAttribute('href'), what).toBe(RETURN_URL);
  }

  async function submit(page: Page, name: string): Promise<void> {
    await Promise.all([page.waitForEvent('domcontentloaded'), page.getByRole('button', { name, exact: true }).click()]);
  }

  for (const which of ['branded', 'plain'] as const) {
    it(`shows the channel on every page, offers the way back on every final page, and passes axe (${which})`, async () => {
      const channel = which === 'branded' ? branded : plain;
      const { page } = await browser.newPage({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true });
      page.on('dialog', (dialog) => {
        throw new Error(`a dialog opened: ${dialog.message()}`);
      });
      const link = await newLink(channel);
      await page.goto(link.url);
      await expectChannelPage(page, channel, 'início');
      await submit(page, 'Começar');
      await expectChannelPage(page, channel, 'celular');
      await page.getByLabel('Celular', { exact: true }).fill('11987654321');
      await submit(page, 'Enviar código');
      await expectChannelPage(page, channel, 'código');
      await page.getByLabel('Código de verificação').fill('123456');
      await submit(page, 'Confirmar');
      await expectChannelPage(page, channel, 'consulta');
      expect(await page.getByText(`versão ${CONSENT_VERSION}`).isVisible()).toBe(true);
      await page.getByRole('checkbox', { name: /^Autorizo/ }).check();
      await submit(page, 'Consultar ofertas');
      await expectChannelPage(page, channel, 'ofertas');
      await page.getByRole('radio').first().check();
      await submit(page, 'Continuar');
      await expectChannelPage(page, channel, 'dados');
      await page.getByLabel('Nome completo').fill('Maria da Silva');
      await page.getByLabel('Data de nascimento').fill('1990-05-10');
      await page.getByLabel('E-mail').fill('maria@exemplo.com');
      await page.getByLabel('Chave Pix').fill('maria@exemplo.com');
      await submit(page, 'Continuar');
      await expectChannelPage(page, channel, 'revisão');
      await submit(page, 'Enviar proposta');
      expect(await h1(page)).toMatch(/^Proposta nº \d+$/);
      await expectChannelPage(page, channel, 'resultado');
      await expectWayBack(page, channel, 'resultado');
      // The sandbox's signing page: the same channel.
      await Promise.all([page.waitForEvent('domcontentloaded'), page.getByRole('link', { name: 'Assinar contrato' }).click()]);
      await expectChannelPage(page, channel, 'assinatura');

      // The consent the customer gave is on record: the channel sees when, the operator the evidence.
      const view = (await service.inject({ method: 'GET', url: `/v1/links/${link.id}`, headers: channel.auth })).json();
      expect(view.consentimento).toEqual({ versao: CONSENT_VERSION, concedidoEm: expect.any(String) });
      expect(JSON.stringify(view)).not.toContain('127.0.0.1');
      const evidence = await consentEvidence(service.ctx, link.id);
      expect(evidence?.consentimento).toMatchObject({
        versao: CONSENT_VERSION,
        origem: 'pagina',
        ip: '127.0.0.1',
        userAgent: expect.stringMatching(/Chrom/),
      });

      // The other final pages: ineligible (the journey ends) and expired.
      const ineligible = await newLink(channel, SCENARIOS.inelegivel);
      await page.goto(ineligible.url);
      await submit(page, 'Começar');
      await page.getByLabel('Celular', { exact: true }).fill('11987654321');
      await submit(page, 'Enviar código');
      await page.getByLabel('Código de verificação').fill('123456');
      await submit(page, 'Confirmar');
      await page.getByRole('checkbox', { name: /^Autorizo/ }).check();
      await submit(page, 'Consultar ofertas');
      expect(await h1(page)).toMatch('Não foi possível continuar');
      await expectChannelPage(page, channel, 'inelegível');
      await expectWayBack(page, channel, 'inelegível');

      const expired = await newLink(channel, '52998224725');
      await sql`update links set expira_em = now() - interval '1 minute' where id = ${expired.id}`.execute(
        service.ctx.database.db,
      );
      await page.goto(expired.url);
      expect(await h1(page)).toMatch('Este link expirou');
      await expectChannelPage(page, channel, 'expirado');
      await expectWayBack(page, channel, 'expirado');

      // Without urlRetorno there is no way back to offer.
      const noReturn = await newLink(channel, '11144477735', false);
      await sql`update links set expira_em = now() - interval '1 minute' where id = ${noReturn.id}`.execute(
        service.ctx.database.db,
      );
      await page.goto(noReturn.url);
      expect(await page.getByRole('link', { name: /^Voltar para/ }).count()).toBe(0);
      // The name was text all along: no markup of it reached any page.
      expect(await page.content()).not.toContain('<script>alert(1)');
    });
  }

  it('draws a logo of any shape within 256×32 and the header, without sideways scroll', async () => {
    /** A channel whose brand holds `png`: through the API, or stored as is (a shape refused today, kept from before). */
    const withLogo = async (png: Buffer, via: 'api' | 'stored'): Promise<Channel> => {
      const created = await service.createChannel({ name: `Canal ${via}` });
      const auth = await service.bearer(created);
      const nome = `Marca ${via} ${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
      if (via === 'api') {
        const put = await service.inject({
          method: 'PUT',
          url: '/v1/marca',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify({ nome, logo: png.toString('base64') }),
        });
        expect(put.statusCode, put.body).toBe(201);
      } else {
        await upsertBrandRow(service.ctx.database.db, {
          channel_id: created.canalId,
          nome,
          cor: null,
          logo: png,
          logo_type: 'image/png',
          logo_hash: createHash('sha256').update(png).digest('hex'),
          logo_width: png.readUInt32BE(16),
          logo_height: png.readUInt32BE(20),
          updated_at: new Date(),
        });
      }
      return { auth, name: nome, logo: true, accent: '#0b6e4f' };
    };
    const shapes: Array<[string, Promise<Channel>]> = [
      ['1024×1, stored before the shape rule', withLogo(makePng(1024, 1, [20, 90, 200]), 'stored')],
      ['1×1024, stored before the shape rule', withLogo(makePng(1, 1024, [20, 90, 200]), 'stored')],
      ['256×32, the widest accepted', withLogo(makePng(256, 32, [20, 90, 200]), 'api')],
      ['8×32, the tallest accepted', withLogo(makePng(8, 32, [20, 90, 200]), 'api')],
    ];
    const viewports = [
      { viewport: { width: 320, height: 640 } },
      { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true },
    ];
    for (const [shape, channel] of shapes) {
      const link = await newLink(await channel, VALID_CPFS[shapes.findIndex(([s]) => s === shape)]);
      for (const options of viewports) {
        const what = `${shape} at ${options.viewport.width} px`;
        const { page } = await browser.newPage(options);
        await page.goto(link.url);
        const drawn = await page.locator('header img.logo').evaluate((img: HTMLImageElement) => {
          const box = img.getBoundingClientRect();
          const header = img.parentElement!.getBoundingClientRect();
          return {
            loaded: img.complete && img.naturalWidth > 0,
            width: box.width,
            height: box.height,
            inHeader: box.left >= header.left && box.right <= header.right,
            fit: getComputedStyle(img).objectFit,
            scrollWidth: document.documentElement.scrollWidth,
            innerWidth: window.innerWidth,
          };
        });
        expect.soft(drawn.loaded, what).toBe(true);
        expect.soft(drawn.width, what).toBeLessThanOrEqual(256);
        expect.soft(drawn.height, what).toBeLessThanOrEqual(32);
        expect.soft(drawn.inHeader, what).toBe(true);
        expect.soft(drawn.fit, what).toBe('contain');
        // In phone emulation an overflow would widen innerWidth itself: it must stay the device's.
        expect.soft(drawn.innerWidth, what).toBe(options.viewport.width);
        expect.soft(drawn.scrollWidth, what).toBeLessThanOrEqual(drawn.innerWidth);
      }
    }
  });

  it('passes axe on the inbox viewer', async () => {
    const inbox = await service.inject({
      method: 'PUT',
      url: '/v1/sandbox/receptor',
      headers: { ...plain.auth, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(inbox.statusCode, inbox.body).toBe(200);
    const { page } = await browser.newPage();
    await page.goto(inbox.json().visualizacaoUrl);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('goes through the whole journey with the keyboard alone', async () => {
    const { page } = await browser.newPage();
    const link = await newLink(branded);
    await page.goto(link.url);

    /** Tabs forward until the element is focused (as a keyboard user would), at most 40 presses. */
    const tabTo = async (locator: ReturnType<Page['locator']>, what: string) => {
      for (let i = 0; i < 40; i++) {
        if (await locator.evaluate((el) => el === document.activeElement).catch(() => false)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`${what}: not reachable with Tab`);
    };
    const press = async (key: string) => Promise.all([page.waitForEvent('domcontentloaded'), page.keyboard.press(key)]);
    const button = (name: string) => page.getByRole('button', { name, exact: true });

    await tabTo(button('Começar'), 'Começar');
    await press('Enter');
    await tabTo(page.getByLabel('Celular', { exact: true }), 'Celular');
    await page.keyboard.type('11987654321');
    await tabTo(button('Enviar código'), 'Enviar código');
    await press('Enter');
    await tabTo(page.getByLabel('Código de verificação'), 'Código');
    await page.keyboard.type('123456');
    await press('Enter'); // Enter in a field submits its form
    await tabTo(page.getByRole('checkbox', { name: /^Autorizo/ }), 'Autorizo');
    await page.keyboard.press('Space');
    await tabTo(button('Consultar ofertas'), 'Consultar ofertas');
    await press('Enter');
    await tabTo(page.getByRole('radio').first(), 'the first offer');
    await page.keyboard.press('Space');
    await tabTo(button('Continuar'), 'Continuar');
    await press('Enter');
    await tabTo(page.getByLabel('Nome completo'), 'Nome completo');
    await page.keyboard.type('Maria da Silva');
    await page.keyboard.press('Tab');
    await page.keyboard.type('10051990'); // dd/mm/aaaa in the pt-BR date field
    await tabTo(page.getByLabel('E-mail'), 'E-mail');
    await page.keyboard.type('maria@exemplo.com');
    await tabTo(page.getByLabel('Chave Pix'), 'Chave Pix');
    await page.keyboard.type('maria@exemplo.com');
    await tabTo(button('Continuar'), 'Continuar');
    await press('Enter');
    expect(await h1(page)).toMatch('Revise e envie sua proposta');
    await tabTo(button('Enviar proposta'), 'Enviar proposta');
    await press('Enter');
    expect(await h1(page)).toMatch(/^Proposta nº \d+$/);
    // And the way back, by keyboard too.
    await tabTo(page.getByRole('link', { name: `Voltar para ${BRAND_NAME}` }), 'Voltar');
    const view = (await service.inject({ method: 'GET', url: `/v1/links/${link.id}`, headers: branded.auth })).json();
    expect(view).toMatchObject({ status: 'CONCLUIDO', proposta: { status: 'AGUARDANDO_FORMALIZACAO' } });
  });
});
