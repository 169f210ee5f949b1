// Real Chromium for the hosted-journey tests (playwright-core, never a downloaded
// browser: Debian's /usr/bin/chromium, as CI installs it). One browser per test file,
// one context per test. Every page the journey shows goes through `watchPage`, which
// records console errors, page errors and CSP violations and runs `checkPage`
// (accessibility basics and no horizontal scroll) on each document that loads.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CONSIGNA_CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the networking flags Chromium stalls on a closed network (update checks, QUIC).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const browserRequired = Boolean(process.env.CONSIGNA_REQUIRE_BROWSER);
export const browserInstalled = fs.existsSync(CHROMIUM_PATH);

const missingMessage =
  `Chromium not found at ${CHROMIUM_PATH}: install it with ` +
  '`DEBIAN_FRONTEND=noninteractive apt-get install -y chromium` (it is never downloaded).';

/**
 * For `describe.skipIf(skipBrowserTests())`: true only when Chromium is missing and
 * the browser is not required; says so in one visible line. When
 * CONSIGNA_REQUIRE_BROWSER is set (CI) it is false, and `launchBrowser` fails loudly.
 */
export function skipBrowserTests(): boolean {
  if (browserInstalled || browserRequired) return false;
  console.warn(`[browser tests skipped] ${missingMessage} Set CONSIGNA_REQUIRE_BROWSER=1 to make this a failure.`);
  return true;
}

export async function launchBrowser(): Promise<Browser> {
  if (!browserInstalled) {
    throw new Error(`Browser tests are required (CONSIGNA_REQUIRE_BROWSER is set) but cannot run. ${missingMessage}`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
}

export type ContextOptions = Pick<
  BrowserContextOptions,
  'javaScriptEnabled' | 'viewport' | 'isMobile' | 'hasTouch' | 'deviceScaleFactor'
>;

export interface BrowserHandle {
  /** A fresh context (closed after the test) and its first page, already watched. */
  newPage(options?: ContextOptions): Promise<{ context: BrowserContext; page: Page; watch: PageWatch }>;
}

/** Launches one Chromium for the file (beforeAll) and closes every context after each test. */
export function withBrowser(): BrowserHandle {
  let browser: Browser | undefined;
  const open: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async newPage(options = {}) {
      if (!browser) throw new Error('the browser did not start (see the beforeAll error)');
      const context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 }, ...options });
      context.setDefaultTimeout(10_000);
      context.setDefaultNavigationTimeout(15_000);
      open.push(context);
      const page = await context.newPage();
      return { context, page, watch: watchPage(page) };
    },
  };
}

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-output/screenshots');

/** Saves a full-page PNG as test-output/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * What must hold on every page of the journey: html[lang=pt-BR], exactly one h1, every
 * visible input labelled, every button and link named, no horizontal scroll.
 * Returns the problems found (empty when the page is fine).
 */
export async function checkPage(page: Page): Promise<string[]> {
  const problems: string[] = [];
  // The checks below are many queries; a navigation between two of them would mix two
  // documents. The document is marked first and must still be the same one at the end.
  const mark = Math.random().toString(36).slice(2);
  await page.evaluate((value) => document.documentElement.setAttribute('data-checked', value), mark);
  const lang = await page.locator('html').getAttribute('lang');
  if (lang !== 'pt-BR') problems.push(`html lang is ${JSON.stringify(lang)}, expected "pt-BR"`);
  const h1 = await page.locator('h1').count();
  if (h1 !== 1) problems.push(`${h1} h1 elements, expected exactly one`);

  // One query for every field: a locator per field (nth(i)) would wait for a field that a
  // navigation in between took away, instead of failing as a navigation.
  const fields = await page.locator('input:not([type="hidden"]), select, textarea').evaluateAll((els) =>
    els.map((el) => {
      const field = el as HTMLInputElement;
      const byLabels = Array.from(field.labels ?? []).some((l) => (l.textContent ?? '').trim() !== '');
      const byAriaLabel = (field.getAttribute('aria-label') ?? '').trim() !== '';
      const byLabelledBy = (field.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .some((id) => id !== '' && (document.getElementById(id)?.textContent ?? '').trim() !== '');
      return { ok: byLabels || byAriaLabel || byLabelledBy, what: `${field.tagName.toLowerCase()}#${field.id || field.name}` };
    }),
  );
  for (const label of fields) if (!label.ok) problems.push(`${label.what} has no label`);

  // Names as the accessibility tree computes them (Playwright's role engine).
  // A live page (the inbox viewer) may add a control between two counts, so a count is
  // trusted only when the total did not change around it.
  for (const role of ['button', 'link', 'textbox', 'checkbox', 'radio'] as const) {
    for (let attempt = 1; ; attempt++) {
      const all = await page.getByRole(role).count();
      const named = await page.getByRole(role, { name: /\S/ }).count();
      const allAfter = await page.getByRole(role).count();
      if (all !== allAfter && attempt < 5) continue;
      if (named !== all) problems.push(`${all - named} of ${all} ${role}(s) without an accessible name`);
      break;
    }
  }
  // And every <button>/<a> in the DOM is exposed with a name (none hidden from the tree by mistake).
  const unnamed = await page
    .locator('button, a[href]')
    .evaluateAll((els) =>
      els
        .filter((el) => (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() === '')
        .map((el) => el.outerHTML.slice(0, 80)),
    );
  for (const el of unnamed) problems.push(`unnamed control: ${el}`);

  // In phone emulation an overflow widens innerWidth too; clientWidth stays the device width.
  const scroll = await page.evaluate(() => ({
    width: document.scrollingElement?.scrollWidth ?? 0,
    viewport: document.documentElement.clientWidth,
  }));
  if (scroll.width > scroll.viewport)
    problems.push(`horizontal scroll: content ${scroll.width}px wide in a ${scroll.viewport}px viewport`);
  const same = await page.evaluate((value) => document.documentElement.getAttribute('data-checked') === value, mark);
  if (!same) throw new Error('checkPage: the document navigated away while being checked');
  return problems;
}

export interface PageWatch {
  /** Console errors, uncaught page errors, failed requests. */
  readonly errors: string[];
  /** Console messages about the Content Security Policy. */
  readonly cspViolations: string[];
  /** Problems found by checkPage, prefixed with the page's title. */
  readonly problems: string[];
  /** Titles of the documents checked, in order. */
  readonly checked: string[];
  /** Checks the current document now (after the automatic checks under way). */
  checkNow(): Promise<void>;
  /** Waits for the automatic checks of the documents loaded so far. */
  settled(): Promise<void>;
  /** Settles, then expects no error, no CSP violation, no accessibility problem. */
  expectClean(): Promise<void>;
}

/** Watches a page: every document that loads is checked with `checkPage`. */
export function watchPage(page: Page): PageWatch {
  const errors: string[] = [];
  const cspViolations: string[] = [];
  const problems: string[] = [];
  const checked: string[] = [];
  let chain: Promise<void> = Promise.resolve();

  // Test output never shows a link's url token.
  const where = (url: string) => url.replace(/\/c\/[A-Za-z0-9]{43}/g, '/c/{token}');
  // Documents the server answered with a 4xx on purpose (422 re-renders a step with its
  // errors); Chromium logs those as "Failed to load resource", which is not a page error.
  const deliberate4xx = new Set<string>();
  page.on('response', (response) => {
    if (!response.request().isNavigationRequest() || response.frame() !== page.mainFrame()) return;
    if (response.status() >= 500)
      errors.push(`document answered ${response.status()}: ${response.request().method()} ${where(response.url())}`);
    else if (response.status() >= 400) deliberate4xx.add(response.url());
  });
  page.on('console', (message) => {
    const text = message.text();
    const source = message.location().url;
    if (/content security policy/i.test(text)) cspViolations.push(text);
    else if (message.type() === 'error' && !(text.startsWith('Failed to load resource') && deliberate4xx.has(source))) {
      errors.push(`console error on ${where(page.url())}: ${where(text)} (${where(source)})`);
    }
  });
  page.on('pageerror', (error) => errors.push(`page error on ${where(page.url())}: ${error.message}`));
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? '';
    // A navigation replaced by another one (double submit, reload) is aborted by design.
    if (failure !== 'net::ERR_ABORTED') errors.push(`request failed: ${request.method()} ${where(request.url())} ${failure}`);
  });
  const check = async () => {
    const title = await page.title();
    const found = await checkPage(page);
    checked.push(title);
    for (const problem of found.map((p) => `[${title}] ${p}`)) if (!problems.includes(problem)) problems.push(problem);
  };
  // Every document is checked as it loads, including those the test does not wait for
  // (the "enviando" page that refreshes itself).
  page.on('domcontentloaded', () => {
    chain = chain.then(check).catch((error: unknown) => {
      // The document was replaced while being checked (shown for an instant only, for
      // example the first of two submits); the next one is checked.
      if (!/context was destroyed|navigat|Target .*closed/i.test(String(error))) problems.push(`check failed: ${String(error)}`);
    });
  });

  return {
    errors,
    cspViolations,
    problems,
    checked,
    async checkNow() {
      await chain;
      await check();
    },
    settled: () => chain,
    async expectClean() {
      await this.settled();
      expect(errors).toEqual([]);
      expect(cspViolations).toEqual([]);
      expect(problems).toEqual([]);
    },
  };
}

/**
 * Waits until the page's h1 matches (the journey stays on one url, so the heading
 * tells the steps apart), then checks that document.
 */
export async function expectStep(page: Page, watch: PageWatch, h1: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name: h1 }).waitFor();
  await watch.checkNow();
}

const AXE_SOURCE = fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's WCAG 2.1 A and AA rules on the page as it is now: the violations, each as
 * "rule: target (impact)". Injected through the DevTools protocol (page.evaluate), which
 * the page's CSP does not apply to; needs JavaScript on in the context.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            ctx: Document,
            options: unknown,
          ) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')} (${v.impact})`);
  });
  return violations;
}
