// The hosted journey in real Chromium (issue 4): found by the accessible names of
// docs/rules.md §7, with JavaScript on and off, on a desktop and a phone viewport, through
// every sandbox scenario. Each path ends with the state as the channel sees it
// (GET /v1/links/{id}) and the events recorded for the link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia } from '../helpers/links.ts';
import {
  expectStep,
  screenshot,
  skipBrowserTests,
  watchPage,
  withBrowser,
  type ContextOptions,
  type PageWatch,
} from '../helpers/browser.ts';
import { sandboxOffers } from '../../src/bank/sandbox-bank.ts';
import { money, percent } from '../../src/journey/views/format.ts';

const H1 = {
  inicio: 'Contrate seu empréstimo consignado',
  celular: 'Confirme seu celular',
  codigo: 'Digite o código recebido',
  consulta: 'Consulte suas ofertas',
  ofertas: 'Escolha sua oferta',
  dados: 'Seus dados',
  revisao: 'Revise e envie sua proposta',
  resultado: /^Proposta nº \d+$/,
  encerrado: 'Não foi possível continuar',
};

const EVENT_ORDER = ['proposta.falha', 'proposta.criada', 'proposta.aguardando_formalizacao'];

const slug = (title: string): string =>
  title
    .replace(/ · [^·]*$/, '')
    .replace(/\d+/g, '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const PHONE: ContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

describe.skipIf(skipBrowserTests())('hosted journey in Chromium', () => {
  const browser = withBrowser();
  let service: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService({ listen: true });
    auth = await service.bearer(await service.createChannel());
  });
  afterAll(() => service?.close());

  async function newLink(cpf: string, extra: Record<string, unknown> = {}): Promise<{ id: string; url: string }> {
    const created = await createLinkVia(service, auth, { cpf, referenciaExterna: 'ref-navegador', ...extra });
    expect(created.statusCode).toBe(201);
    return created.json();
  }

  /** The link as the channel sees it, and the event types recorded for it. */
  async function stateOf(linkId: string) {
    const link = (await service.inject({ method: 'GET', url: `/v1/links/${linkId}`, headers: auth })).json();
    const rows = await service.ctx.database.db
      .selectFrom('events')
      .select(['tipo', 'ocorrido_em'])
      .where('link_id', '=', linkId)
      .execute();
    // Two events of one millisecond have ids (uuidv7) in random order, so ties are
    // broken by the order in which the journey produces them.
    const events = rows.toSorted(
      (a, b) => a.ocorrido_em.getTime() - b.ocorrido_em.getTime() || EVENT_ORDER.indexOf(a.tipo) - EVENT_ORDER.indexOf(b.tipo),
    );
    const proposals = await service.ctx.database.db
      .selectFrom('proposals')
      .select(['numero', 'status'])
      .where('link_id', '=', linkId)
      .execute();
    return {
      status: link.status as string,
      proposta: link.proposta as { numero: number; status: string } | undefined,
      events: events.map((e) => e.tipo),
      proposals,
    };
  }

  /** Clicks something that submits a form and waits for the next document. */
  async function submit(page: Page, name: string): Promise<void> {
    await Promise.all([page.waitForEvent('domcontentloaded'), page.getByRole('button', { name, exact: true }).click()]);
  }

  /** A page of the journey, driven by accessible names; `shots` saves each step as a PNG. */
  class Journey {
    readonly page: Page;
    readonly watch: PageWatch;
    private readonly shots: string | undefined;
    private shot = 0;

    constructor(page: Page, watch: PageWatch, shots?: string) {
      this.page = page;
      this.watch = watch;
      this.shots = shots;
    }

    async at(h1: string | RegExp): Promise<void> {
      await expectStep(this.page, this.watch, h1);
      if (this.shots)
        await screenshot(this.page, `${this.shots}-${String(++this.shot).padStart(2, '0')}-${slug(await this.page.title())}`);
    }

    async open(url: string): Promise<void> {
      await this.page.goto(url);
      await this.at(H1.inicio);
    }

    async start(): Promise<void> {
      await submit(this.page, 'Começar');
      await this.at(H1.celular);
    }

    /** Keeps the pre-filled suggestion when no number is given. */
    async phone(celular?: string): Promise<void> {
      if (celular !== undefined) await this.page.getByLabel('Celular', { exact: true }).fill(celular);
      await submit(this.page, 'Enviar código');
    }

    async code(codigo = '123456'): Promise<void> {
      await this.page.getByLabel('Código de verificação').fill(codigo);
      await submit(this.page, 'Confirmar');
    }

    async consult(): Promise<void> {
      await this.page.getByRole('checkbox', { name: /^Autorizo/ }).check();
      await submit(this.page, 'Consultar ofertas');
    }

    async chooseOffer(index: number): Promise<void> {
      await this.page.getByRole('radio').nth(index).check();
      await submit(this.page, 'Continuar');
      await this.at(H1.dados);
    }

    async customerData(): Promise<void> {
      await this.page.getByLabel('Nome completo').fill('Maria da Silva');
      await this.page.getByLabel('Data de nascimento').fill('1990-05-10');
      await this.page.getByLabel('E-mail').fill('maria@exemplo.com');
      await this.page.getByLabel('Chave Pix').fill('maria@exemplo.com');
      await submit(this.page, 'Continuar');
      await this.at(H1.revisao);
    }

    /** From the first open to the review step, on the happy path. */
    async upToReview(url: string, celular = '11987654321'): Promise<void> {
      await this.open(url);
      await this.start();
      await this.phone(celular);
      await this.at(H1.codigo);
      await this.code();
      await this.at(H1.consulta);
      await this.consult();
      await this.at(H1.ofertas);
      await this.chooseOffer(1);
      await this.customerData();
    }

    async sendProposal(): Promise<number> {
      await submit(this.page, 'Enviar proposta');
      await this.at(H1.resultado);
      return Number((await this.page.getByRole('heading', { level: 1 }).textContent())!.replace(/\D/g, ''));
    }
  }

  async function journeyPage(options: ContextOptions = {}, shots?: string) {
    const { page, watch, context } = await browser.newPage(options);
    return { journey: new Journey(page, watch, shots), page, watch, context };
  }

  it('a normal CPF goes from the first open to a proposal awaiting signature (wrong code, reload)', async () => {
    const cpf = '12345678909';
    const link = await newLink(cpf, { celular: '11987654321' });
    const { journey, page, watch } = await journeyPage({}, 'desktop');

    await journey.open(link.url);
    expect((await stateOf(link.id)).status).toBe('ABERTO');
    await journey.start();
    // The suggested number is pre-filled, masked except its last four digits.
    expect(await page.getByLabel('Celular', { exact: true }).inputValue()).toBe('(11) 9****-4321');
    await journey.phone();
    await journey.at(H1.codigo);
    expect(await page.getByText('o código é sempre').textContent()).toContain('123456');

    // A wrong code: the message sits right under the field and is its description.
    await journey.code('000000');
    await journey.at(H1.codigo);
    const field = page.getByLabel('Código de verificação');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await field.getAttribute('aria-describedby');
    const message = page.locator(`[id="${describedBy}"]`);
    expect(await message.textContent()).toBe('Código incorreto. Você tem mais 4 tentativas.');
    const [input, error] = [(await field.boundingBox())!, (await message.boundingBox())!];
    expect(error.y).toBeGreaterThanOrEqual(input.y + input.height - 1);
    expect(error.y - (input.y + input.height)).toBeLessThan(40);
    expect(Math.abs(error.x - input.x)).toBeLessThan(4);
    await screenshot(page, 'desktop-codigo-incorreto');

    await journey.code('123456');
    await journey.at(H1.consulta);
    expect((await stateOf(link.id)).status).toBe('EM_ANDAMENTO');

    // A reload in the middle keeps the step.
    await page.reload();
    await journey.at(H1.consulta);
    await journey.consult();
    await journey.at(H1.ofertas);

    const offers = sandboxOffers(service.ctx.keys, cpf);
    const radios = page.getByRole('radio');
    expect(await radios.count()).toBe(offers.length);
    for (const [index, offer] of offers.entries()) {
      const name = await radios
        .nth(index)
        .evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent?.replace(/\s+/g, ' ').trim());
      expect(name).toContain(money(offer.valor));
      expect(name).toContain(`${offer.parcelas} parcelas de ${money(offer.valorParcela)}`);
      expect(name).toContain(`Taxa de ${percent(offer.taxaMensal)} ao mês`);
    }
    await page.reload();
    await journey.at(H1.ofertas);
    await journey.chooseOffer(1);
    await journey.customerData();
    expect(await page.locator('dl.resumo').textContent()).toContain(money(offers[1]!.valor));

    const numero = await journey.sendProposal();
    const state = await stateOf(link.id);
    expect(state.status).toBe('CONCLUIDO');
    expect(state.proposta).toMatchObject({ numero, status: 'AGUARDANDO_FORMALIZACAO' });
    expect(state.events).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);
    await screenshot(page, 'desktop-resultado');

    // The fictitious signing page.
    await Promise.all([page.waitForEvent('domcontentloaded'), page.getByRole('link', { name: 'Assinar contrato' }).click()]);
    await expectStep(page, watch, `Assinatura da proposta nº ${numero}`);
    await screenshot(page, 'desktop-assinatura');

    await watch.expectClean();
    expect(watch.checked.length).toBeGreaterThanOrEqual(12);
  });

  it('a double submit of the proposal yields one proposal and each event once', async () => {
    const link = await newLink('52998224725');
    const { journey, page, watch, context } = await journeyPage();
    await journey.upToReview(link.url);

    // A second tab on the same review step, then a double click in one and a click in the other.
    const other = await context.newPage();
    const otherWatch = watchPage(other);
    await other.goto(link.url);
    await expectStep(other, otherWatch, H1.revisao);

    const postsBefore = service.logs.filter((l) => l.includes('"method":"POST"') && l.includes('/c/:token/:action')).length;
    await Promise.all([
      page.getByRole('button', { name: 'Enviar proposta' }).dblclick(),
      other.getByRole('button', { name: 'Enviar proposta' }).click(),
    ]);
    await expectStep(page, watch, H1.resultado);
    await expectStep(other, otherWatch, H1.resultado);
    const posts =
      service.logs.filter((l) => l.includes('"method":"POST"') && l.includes('/c/:token/:action')).length - postsBefore;
    expect(posts).toBeGreaterThanOrEqual(2);

    const [a, b] = [await page.locator('h1').textContent(), await other.locator('h1').textContent()];
    expect(a).toBe(b);
    const state = await stateOf(link.id);
    expect(state.proposals).toEqual([{ numero: Number(a!.replace(/\D/g, '')), status: 'AGUARDANDO_FORMALIZACAO' }]);
    expect(state.status).toBe('CONCLUIDO');
    expect(state.events).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);

    // Reloading the result changes nothing either.
    await page.reload();
    await journey.at(H1.resultado);
    expect((await stateOf(link.id)).events).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);
    await screenshot(page, 'duplo-envio-resultado');
    await watch.expectClean();
    await otherWatch.expectClean();
  });

  // The scenarios that end the journey without a proposal: the link is cancelled and
  // no proposal event is ever recorded.
  it.each([
    {
      cpf: '00000000191',
      story: 'ineligible, the journey ends at the bank query',
      phone: '11987654321',
      reachesConsult: true,
      says: 'não é elegível',
      shot: 'cenario-191-inelegivel',
    },
    {
      cpf: '00000000272',
      story: 'the bank refuses to send the SMS code',
      phone: '21987654321',
      reachesConsult: false,
      says: 'não conseguiu enviar o código por SMS',
      shot: 'cenario-272-sms-recusado',
    },
    {
      cpf: '00000000353',
      story: 'eligible but no offer',
      phone: '11987654321',
      reachesConsult: true,
      says: 'não tem ofertas',
      shot: 'cenario-353-sem-oferta',
    },
  ])('CPF $cpf: $story, and the link is cancelled', async ({ cpf, phone, reachesConsult, says, shot }) => {
    const link = await newLink(cpf);
    const { journey, page, watch } = await journeyPage();
    await journey.open(link.url);
    await journey.start();
    await journey.phone(phone);
    if (reachesConsult) {
      await journey.at(H1.codigo);
      await journey.code();
      await journey.at(H1.consulta);
      await journey.consult();
    }
    await journey.at(H1.encerrado);
    expect(await page.locator('main').textContent()).toContain(says);
    expect(await page.locator('form').count()).toBe(0);
    await screenshot(page, shot);
    expect(await stateOf(link.id)).toMatchObject({ status: 'CANCELADO', proposta: undefined, events: [] });
    await watch.expectClean();
  });

  it('CPF 00000000434: the bank is unavailable, link creation answers 503 and stores nothing', async () => {
    const before = await service.ctx.database.db
      .selectFrom('links')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const key = 'browser-434-key';
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await createLinkVia(service, auth, { cpf: '00000000434' }, key);
      expect(response.statusCode).toBe(503);
      expect(response.json().code).toBe('banco_indisponivel');
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    const after = await service.ctx.database.db
      .selectFrom('links')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('CPF 00000000515: the bank refuses the proposal, proposta.falha, and "Tentar novamente" submits again', async () => {
    const link = await newLink('00000000515');
    const { journey, page, watch } = await journeyPage();
    await journey.upToReview(link.url);

    await submit(page, 'Enviar proposta');
    await journey.at(H1.revisao);
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).toContain('O banco não aceitou a proposta');
    expect(await page.getByRole('button', { name: 'Enviar proposta' }).count()).toBe(0);
    expect((await stateOf(link.id)).events).toEqual(['proposta.falha']);

    await submit(page, 'Tentar novamente');
    await journey.at(H1.revisao);
    expect(await page.getByRole('alert').textContent()).toContain('O banco não aceitou a proposta');
    await screenshot(page, 'cenario-515-proposta-recusada');
    expect(await stateOf(link.id)).toMatchObject({
      status: 'EM_ANDAMENTO',
      proposta: undefined,
      events: ['proposta.falha', 'proposta.falha'],
      proposals: [],
    });
    await watch.expectClean();
  });

  it('CPF 00000000604: the proposal is created without a signing link and stays CRIADA', async () => {
    const link = await newLink('00000000604');
    const { journey, page, watch } = await journeyPage();
    await journey.upToReview(link.url);
    const numero = await journey.sendProposal();
    expect(await page.getByRole('status').textContent()).toContain('O link de assinatura ainda não está pronto');
    expect(await page.getByRole('link', { name: 'Assinar contrato' }).count()).toBe(0);
    await screenshot(page, 'cenario-604-sem-link-assinatura');
    const state = await stateOf(link.id);
    expect(state).toMatchObject({ status: 'CONCLUIDO', proposta: { numero, status: 'CRIADA' }, events: ['proposta.criada'] });
    await watch.expectClean();
  });

  it('works end to end with JavaScript disabled', async () => {
    const link = await newLink('11144477735');
    const { journey, page, watch } = await journeyPage({ javaScriptEnabled: false });
    await journey.upToReview(link.url, '(21) 98765-4321');
    const numero = await journey.sendProposal();
    // The signing link carries its own token, never the (sequential) proposal number.
    expect(await page.getByRole('link', { name: 'Assinar contrato' }).getAttribute('href')).toMatch(
      new RegExp(`^${service.baseUrl}/sandbox/assinatura/[A-Za-z0-9]{43}$`),
    );
    await screenshot(page, 'sem-javascript-resultado');
    const state = await stateOf(link.id);
    expect(state).toMatchObject({ status: 'CONCLUIDO', proposta: { numero, status: 'AGUARDANDO_FORMALIZACAO' } });
    expect(state.events).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);
    await watch.expectClean();
  });

  it('fits a phone screen (390×844, touch) without horizontal scroll on any step', async () => {
    const link = await newLink('39053344705', { celular: '31987654321' });
    const { journey, page, watch } = await journeyPage(PHONE, 'celular');
    await journey.open(link.url);
    await journey.start();
    await journey.phone();
    await journey.at(H1.codigo);
    await journey.code('111111');
    await journey.at(H1.codigo);
    await journey.code();
    await journey.at(H1.consulta);
    await journey.consult();
    await journey.at(H1.ofertas);
    await journey.chooseOffer(0);
    await journey.customerData();
    const numero = await journey.sendProposal();

    // checkPage already refused horizontal scroll on every page; the last one, explicitly:
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(innerWidth).toBe(390);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await screenshot(page, 'celular-resultado');
    const state = await stateOf(link.id);
    expect(state).toMatchObject({ status: 'CONCLUIDO', proposta: { numero, status: 'AGUARDANDO_FORMALIZACAO' } });
    expect(state.events).toEqual(['proposta.criada', 'proposta.aguardando_formalizacao']);
    await watch.expectClean();
    expect(watch.checked.length).toBeGreaterThanOrEqual(10);
  });
  it('the page checks catch what they are meant to catch (a broken fixture page)', async () => {
    const { page, watch } = await browser.newPage();
    const csp = "default-src 'none'; style-src 'self'; img-src 'self' data:";
    await page.route('http://fixture.test/**', (route) =>
      route.request().url().endsWith('.css')
        ? route.fulfill({ contentType: 'text/css', body: '.largo { width: 3000px; }' })
        : route.fulfill({
            contentType: 'text/html; charset=utf-8',
            headers: { 'content-security-policy': csp },
            body: `<!doctype html><html lang="en"><head><link rel="icon" href="data:,"><link rel="stylesheet" href="/f.css"></head><body>
<h1>Um</h1><h1>Dois</h1><input id="solto" type="text"><button type="button"></button><a href="/x"></a>
<div class="largo">largo</div><p style="color: red">estilo inline</p></body></html>`,
          }),
    );
    await page.goto('http://fixture.test/pagina');
    await watch.settled();
    const problems = watch.problems.join('\n');
    expect(problems).toContain('html lang is "en"');
    expect(problems).toContain('2 h1 elements');
    expect(problems).toContain('input#solto has no label');
    expect(problems).toMatch(/button\(s\) without an accessible name/);
    expect(problems).toMatch(/link\(s\) without an accessible name/);
    expect(problems).toContain('horizontal scroll');
    expect(watch.cspViolations.join('\n')).toMatch(/inline style/);
  });
});
