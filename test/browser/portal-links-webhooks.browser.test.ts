// The portal's "Links" and "Webhooks" in real Chromium (docs/rules.md §10.6): filter the
// list and open a timeline; deliveries made to fail fast (a real receiver answering 500
// and the sandbox's retry simulation), one found and resent with the keyboard alone,
// the failed ones recovered after the confirmation, the test event and a new secret;
// axe-core's WCAG 2.1 A/AA rules with zero violations on every page visited, and every
// document also through checkPage (one h1, names, no sideways scroll), on a phone too.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/service.ts';
import { makeLink, simulateJourney } from '../helpers/link-journeys.ts';
import { axeViolations, screenshot, skipBrowserTests, withBrowser, type ContextOptions } from '../helpers/browser.ts';
import { receiverPool, type Receiver } from '../helpers/receiver.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { signInToPortal } from '../helpers/portal.ts';
import { waitFor } from '../helpers/wait.ts';

describe.skipIf(skipBrowserTests())('the portal’s Links and Webhooks, in Chromium', () => {
  const browser = withBrowser();
  const receivers = receiverPool();
  let service: TestService;
  let receiver: Receiver;
  let auth: Record<string, string>;
  let canalId: string;

  const json = () => ({ ...auth, 'content-type': 'application/json' });
  const failed = async () =>
    (
      await sql<{
        n: number;
      }>`select count(*)::int as n from deliveries where channel_id = ${canalId} and status = 'FALHOU'`.execute(
        service.ctx.database.db,
      )
    ).rows[0]!.n;

  beforeAll(async () => {
    service = await startTestService({ listen: true, worker: true, env: { CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true' } });
    const channel = await service.createChannel({ name: 'Canal dos Webhooks' });
    canalId = channel.canalId;
    auth = await service.bearer(channel);
    receiver = await receivers.start({ status: 500 });
    receiver.setBody('{"erro":"indisponivel"}');
    const hook = await service.inject({
      method: 'PUT',
      url: '/v1/webhooks',
      headers: json(),
      payload: JSON.stringify({ url: receiver.url }),
    });
    expect(hook.statusCode, hook.body).toBe(201);
    rememberSecret(hook.json().segredo);
    // Seven attempts a second apart: the deliveries fail within seconds.
    const fast = await service.inject({
      method: 'POST',
      url: '/v1/webhooks/retentativas/simular',
      headers: json(),
      payload: JSON.stringify({ intervaloSegundos: 1 }),
    });
    expect(fast.statusCode, fast.body).toBe(200);
    await makeLink(service, auth, { referenciaExterna: 'loja-centro' });
    await makeLink(service, auth, { referenciaExterna: 'loja-centro' });
    for (const referenciaExterna of ['loja-norte', 'loja-sul']) {
      expect(await simulateJourney(service, auth, await makeLink(service, auth, { referenciaExterna }))).toBe('CONCLUIDO');
    }
    await waitFor(async () => (await failed()) >= 4, { timeoutMs: 30_000, what: 'the deliveries failed' });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await receivers.closeAll();
  });

  const h1 = async (page: Page) => (await page.locator('h1').textContent())?.trim();

  const signIn = (options: ContextOptions = {}) => signInToPortal(browser, service, auth, options);

  /** Follows a link or presses a button and waits for the next document. */
  async function go(page: Page, action: () => Promise<unknown>, heading: string) {
    await Promise.all([page.waitForEvent('domcontentloaded'), action()]);
    expect(await h1(page)).toBe(heading);
    expect(await axeViolations(page)).toEqual([]);
  }

  it('filters the list of links and opens a link’s timeline', async () => {
    const { page, watch } = await signIn();
    await go(page, () => page.getByRole('navigation').getByRole('link', { name: 'Links' }).click(), 'Links');
    const table = page.getByRole('table', { name: 'Links do canal, mais novos primeiro' });
    expect(await table.getByRole('row').count()).toBe(5);
    await page.getByLabel('Status do link').selectOption('CONCLUIDO');
    await page.getByLabel('Referência externa').fill('loja-norte');
    await go(page, () => page.getByRole('button', { name: 'Filtrar' }).click(), 'Links');
    expect(page.url()).toContain('status=CONCLUIDO');
    const rows = table.getByRole('row');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(1).innerText()).toMatch(
      /Concluído\s+\*\*\*\.456\.789-\*\*\s+loja-norte\s+nº \d+: Aguardando formalização/,
    );
    await screenshot(page, 'portal-links');

    await go(page, () => rows.nth(1).getByRole('link').click(), 'Linha do tempo do link');
    const timeline = page.getByRole('region', { name: 'Linha do tempo' }).or(page.locator('#linha-do-tempo'));
    const text = await timeline.innerText();
    for (const moment of [
      'Link criado',
      'Aberto pelo cliente',
      'Consentimento dado para a consulta',
      'proposta.criada',
      'Falhou, 7 tentativas',
    ]) {
      expect(text).toContain(moment);
    }
    await screenshot(page, 'portal-linha-do-tempo');
    await watch.expectClean();
  });

  it('finds a failed delivery and resends it with the keyboard alone', async () => {
    receiver.setStatus(200);
    const { page, watch } = await signIn();
    /** Tabs until the focused element's name matches (bounded), then presses `key`. */
    async function tabTo(name: RegExp, key: 'Enter' | 'Space') {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const el = document.activeElement;
          return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : '';
        });
        if (name.test(focused)) {
          await Promise.all([page.waitForEvent('domcontentloaded'), page.keyboard.press(key)]);
          return;
        }
      }
      throw new Error(`no focusable element named ${name}`);
    }
    await tabTo(/^Webhooks$/, 'Enter');
    expect(await h1(page)).toBe('Webhooks');
    expect(await axeViolations(page)).toEqual([]);
    await tabTo(/^Entregas que falharam$/, 'Enter');
    expect(await h1(page)).toBe('Entregas do webhook');
    expect(await axeViolations(page)).toEqual([]);
    await tabTo(/^Entrega proposta\.\S+ de .*: Falhou$/, 'Enter');
    expect(await h1(page)).toBe('Entrega do webhook');
    expect(await page.getByRole('table', { name: /^Tentativas/ }).innerText()).toContain('{"erro":"indisponivel"}');
    expect(await axeViolations(page)).toEqual([]);
    const before = await failed();
    await tabTo(/^Reenviar esta entrega$/, 'Space');
    expect(await h1(page)).toBe('Entrega do webhook');
    expect(await page.getByRole('status').first().innerText()).toBe('Reenviada: agora entregue.');
    expect(await page.locator('#alteracoes, .alteracoes').innerText()).toContain('Entrega reenviada');
    expect(await failed()).toBe(before - 1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'portal-entrega');
    await watch.expectClean();
  });

  it('recovers the failed deliveries after a confirmation, sends the test event and rotates the secret', async () => {
    receiver.setStatus(200);
    const { page, watch } = await signIn();
    await go(page, () => page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click(), 'Webhooks');
    const count = await failed();
    expect(count).toBeGreaterThanOrEqual(3);
    await go(
      page,
      () => page.getByRole('button', { name: 'Ver quantas serão reenfileiradas' }).click(),
      'Recuperar entregas que falharam',
    );
    expect(await page.locator('main').innerText()).toContain(`${count} entregas que falharam serão reenfileiradas`);
    expect(await failed()).toBe(count);
    await go(page, () => page.getByRole('button', { name: `Reenfileirar ${count} entregas` }).click(), 'Webhooks');
    expect(await page.getByRole('status').first().innerText()).toContain(`${count} entregas reenfileiradas`);
    await waitFor(async () => (await failed()) === 0, { timeoutMs: 15_000, what: 'the recovered deliveries delivered' });

    await go(page, () => page.getByRole('button', { name: 'Enviar evento de teste' }).click(), 'Evento de teste enviado');
    expect(await page.getByRole('status').first().innerText()).toMatch(/^Entregue: o receptor respondeu HTTP 200/);
    await go(page, () => page.getByRole('link', { name: 'Voltar aos webhooks' }).click(), 'Webhooks');

    await go(page, () => page.getByRole('button', { name: 'Gerar novo segredo' }).click(), 'Novo segredo gerado');
    const secret = (await page.locator('#novo-segredo').innerText()).trim();
    rememberSecret(secret);
    expect(secret).toMatch(/^whsec_/);
    expect(await page.locator('main').innerText()).toContain('O segredo anterior continua valendo até');
    await go(page, () => page.getByRole('link', { name: 'Voltar aos webhooks' }).click(), 'Webhooks');
    expect(await page.content()).not.toContain(secret);
    const changes = await page
      .getByRole('region', { name: 'Alterações recentes' })
      .or(page.locator('.alteracoes'))
      .first()
      .innerText();
    for (const label of ['Novo segredo gerado', 'Evento de teste enviado', 'Entregas que falharam reenfileiradas'])
      expect(changes).toContain(label);
    await screenshot(page, 'portal-webhooks');
    await watch.expectClean();
  });

  it('works with JavaScript off: filters the list, confirms a recovery', async () => {
    const { page, watch } = await signIn({ javaScriptEnabled: false });
    await page.goto(`${service.baseUrl}/portal/links`);
    await page.getByLabel('Status do link').selectOption('CRIADO');
    await Promise.all([page.waitForURL(/status=CRIADO/), page.getByRole('button', { name: 'Filtrar' }).click()]);
    expect(
      await page
        .getByRole('table', { name: /^Links do canal/ })
        .getByRole('row')
        .count(),
    ).toBe(3);
    await page.goto(`${service.baseUrl}/portal/webhooks`);
    await Promise.all([
      page.waitForURL(/\/portal\/webhooks\/recuperar/),
      page.getByRole('button', { name: 'Ver quantas serão reenfileiradas' }).click(),
    ]);
    expect(await h1(page)).toBe('Recuperar entregas que falharam');
    await watch.expectClean();
  });

  it('fits a phone’s width on every page of both sections', async () => {
    const { page, watch } = await signIn({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    const deliveryId = (
      await sql<{ id: string }>`select id from deliveries where channel_id = ${canalId} limit 1`.execute(service.ctx.database.db)
    ).rows[0]!.id;
    const linkId = (
      await sql<{ id: string }>`select id from links where channel_id = ${canalId} limit 1`.execute(service.ctx.database.db)
    ).rows[0]!.id;
    for (const path of [
      '/portal/links',
      `/portal/links/${linkId}`,
      '/portal/webhooks',
      '/portal/webhooks/entregas',
      `/portal/webhooks/entregas/${deliveryId}`,
    ]) {
      await page.goto(`${service.baseUrl}${path}`);
      expect(await axeViolations(page)).toEqual([]);
    }
    await watch.expectClean(); // each document went through checkPage: no sideways scroll
  });
});
