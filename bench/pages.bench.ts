// Hosted pages (PostgreSQL): how heavy and how fast the customer's journey is on a
// phone with a weak connection, branded and unbranded, and the sandbox inbox viewer.
//
// One fresh database, one `consigna serve`, three channels made with
// `consigna channels create --json`: one with a brand (PUT /v1/marca: name, colour and a
// noisy PNG logo close to the 16 KB limit, the worst case for bytes), one without (the
// same name, which the pages then show instead), and one whose sandbox inbox gets a few
// test events for the viewer (PUT /v1/sandbox/receptor, PUT /v1/webhooks with the
// inbox's URL, POST /v1/webhooks/teste). Real Chromium (playwright-core,
// /usr/bin/chromium, never downloaded), one fresh context per journey (empty cache, then
// warm as for a real visitor): 412×915 CSS px, mobile, touch, DPR 2.625, pt-BR; through
// the DevTools protocol 400 kbit/s down and up with 400 ms of latency, and the CPU 4×
// slower.
//
// Per page: the bytes received for that navigation (encodedDataLength of every request
// the browser issued from the click or goto until the load event and the network is
// quiet; a form's POST answers 303 and the GET follows, both counted) and the largest
// contentful paint (LCP, from the navigation's start, which for a form is the POST: its
// round trip counts). Three journeys per variant; each page's median. Verdicts are
// informational, as everywhere in bench/.
//
// pages-portal: the channel portal's pages (PORTAL_PAGES) as the branded channel's staff
// get them on the same phone: in by an entry link (POST /v1/portal/sessoes, the button),
// then each page with the browser's cache emptied first (the worst case: its CSS, the
// brand's stylesheet and logo fetched again), three visits, each page's median.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { MAX_LOGO_BYTES } from '../src/brand/logo.ts';
import { noisyPng } from '../test/helpers/images.ts';
import { onCleanup } from './lib/cleanup.ts';
import { createContext } from './lib/context.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { BenchError, freePort, runCommand, startService, withoutServiceSettings, type ChildService } from './lib/process.ts';
import { renderTable, type Column } from './lib/table.ts';
import type { BenchChannel, BenchContext, BenchSuite, SuiteContext, SuitePart, SuiteRow } from './lib/types.ts';

const CHROMIUM_PATH = process.env.CONSIGNA_CHROMIUM_PATH ?? '/usr/bin/chromium';
// test/helpers/browser.ts's flags: without the networking ones Chromium stalls on a closed network.
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

/** The phone and its connection. */
const VIEWPORT = { width: 412, height: 915 };
const DEVICE_SCALE_FACTOR = 2.625;
const KBIT_PER_S = 400;
const LATENCY_MS = 400;
const CPU_SLOWDOWN = 4;
const RUNS = 3;
/** Test events in the viewer's inbox. */
const VIEWER_EVENTS = 5;
/** After the viewer's load, how long what its script fetches (stream, first read) is recorded, apart. */
const VIEWER_WATCH_MS = 3000;

/** KB = 1,024 bytes, as the logo's 16 KB limit (MAX_LOGO_BYTES). */
const KB = 1024;
const GOALS = { brandedKb: 30, brandedLcpS: 2.0, todayKb: 6.6, todayViewerKb: 13, todayLcpS: 1.4, portalKb: 50, portalLcpS: 2.0 };

const BRAND_NAME = 'Fintech Exemplo Pagamentos';
const BRAND_COLOUR = '#1a73e8';
/** Noise compresses badly: 150×32 RGB pixels of it make a PNG of about 14 KB. */
const LOGO_SIZE = { width: 150, height: 32 };

const JOURNEY: SuitePart = {
  id: 'pages-journey',
  name: 'hosted journey: KB and LCP per page, branded and unbranded',
  target: `branded ≤ ${GOALS.brandedKb} KB and LCP ≤ ${GOALS.brandedLcpS.toFixed(1)} s per page (today, unbranded: ≤ ${GOALS.todayKb} KB, ≤ ${GOALS.todayLcpS} s)`,
};
const VIEWER: SuitePart = {
  id: 'pages-viewer',
  name: 'sandbox inbox viewer: KB and LCP',
  target: `LCP ≤ ${GOALS.brandedLcpS.toFixed(1)} s (today: ≤ ${GOALS.todayViewerKb} KB, ≤ ${GOALS.todayLcpS} s)`,
};

const PORTAL: SuitePart = {
  id: 'pages-portal',
  name: 'channel portal: KB and LCP per page',
  target: `≤ ${GOALS.portalKb} KB and LCP ≤ ${GOALS.portalLcpS.toFixed(1)} s per page, empty cache`,
};

/**
 * The portal's pages measured by pages-portal, in nav order: a new section adds its pages
 * here. `{link}` is one of the channel's links (one that went through the journey).
 */
const PORTAL_PAGES: ReadonlyArray<{ name: string; path: string; h1: RegExp }> = [
  { name: 'portal: Visão geral', path: '/portal', h1: /^Visão geral$/ },
  { name: 'portal: Links', path: '/portal/links', h1: /^Links$/ },
  { name: 'portal: a link’s timeline', path: '/portal/links/{link}', h1: /^Linha do tempo do link$/ },
  { name: 'portal: Webhooks', path: '/portal/webhooks', h1: /^Webhooks$/ },
  { name: 'portal: deliveries', path: '/portal/webhooks/entregas', h1: /^Entregas do webhook$/ },
  { name: 'portal: Marca', path: '/portal/marca', h1: /^Marca$/ },
  { name: 'portal: Sandbox', path: '/portal/sandbox', h1: /^Sandbox$/ },
];
/** Links of the branded channel the portal shows (some taken through the journey simulator). */
const PORTAL_LINKS = { created: 12, completed: 5 };

export const suites: BenchSuite[] = [
  {
    id: 'pages',
    name: 'Hosted pages',
    backends: ['postgres'],
    parts: [JOURNEY, VIEWER, PORTAL],
    run: runPages,
  },
];

// ---------------------------------------------------------------------------------
// One page load: what the network brought and when the largest content was painted.

interface RequestRecord {
  url: string;
  /** encodedDataLength: headers and body as received, redirect answers included. */
  bytes: number;
  /** Of `bytes`, the redirect answers (a form's 303). */
  redirectBytes: number;
  status: number | undefined;
  fromCache: boolean;
  finished: boolean;
  failed: boolean;
  mime: string | undefined;
  /** Issued after the load event (the viewer's script: its stream, its first read): counted apart. */
  afterLoad: boolean;
}

interface PageLoad {
  page: string;
  /** Bytes of the finished requests of this navigation. */
  bytes: number;
  /** Requests issued (cache hits included). */
  requests: number;
  /** Of the requests, answered from the browser's cache (0 bytes). */
  cached: number;
  /**
   * Requests issued after the load event while the page was watched (bytes so far for
   * the ones still open, such as the viewer's event stream): not in `bytes`.
   */
  afterLoad: Array<{ path: string; bytes: number; open: boolean }>;
  /** Largest contentful paint, ms after the navigation started. */
  lcpMs: number | undefined;
  lcpElement: string | undefined;
  fcpMs: number | undefined;
  /** Wall time from the click (or goto) to the load event, ms: a cross-check of LCP's origin. */
  wallMs: number;
  documentStatus: number | undefined;
  detail: Array<{ path: string; bytes: number; redirectBytes: number; status: number | undefined; fromCache: boolean }>;
}

/** Attributes every request to the page load during which the browser issued it. */
class NetworkLog {
  private current: Map<string, RequestRecord> | undefined;
  private loaded = false;
  private readonly bytesSoFar = new Map<string, number>();

  constructor(cdp: CDPSession) {
    cdp.on('Network.requestWillBeSent', (event) => {
      // data: URLs (the date field's icon) never reach the network.
      if (!this.current || event.request.url.startsWith('data:')) return;
      let record = this.current.get(event.requestId);
      if (!record) {
        record = {
          url: event.request.url,
          bytes: 0,
          redirectBytes: 0,
          status: undefined,
          fromCache: false,
          finished: false,
          failed: false,
          mime: undefined,
          afterLoad: this.loaded,
        };
        this.current.set(event.requestId, record);
      }
      if (event.redirectResponse) {
        // The 303 of a form's POST: its own bytes, then the same request id goes on as the GET.
        record.bytes += event.redirectResponse.encodedDataLength;
        record.redirectBytes += event.redirectResponse.encodedDataLength;
        record.url = event.request.url;
      }
    });
    cdp.on('Network.requestServedFromCache', (event) => {
      const record = this.current?.get(event.requestId);
      if (record) record.fromCache = true;
    });
    cdp.on('Network.responseReceived', (event) => {
      const record = this.current?.get(event.requestId);
      if (!record) return;
      record.status = event.response.status;
      record.mime = event.response.mimeType;
      if (event.response.fromDiskCache || event.response.fromPrefetchCache) record.fromCache = true;
    });
    cdp.on('Network.dataReceived', (event) => {
      if (this.current?.has(event.requestId)) {
        this.bytesSoFar.set(event.requestId, (this.bytesSoFar.get(event.requestId) ?? 0) + event.encodedDataLength);
      }
    });
    cdp.on('Network.loadingFinished', (event) => {
      const record = this.current?.get(event.requestId);
      if (!record) return;
      record.bytes += event.encodedDataLength;
      record.finished = true;
    });
    cdp.on('Network.loadingFailed', (event) => {
      const record = this.current?.get(event.requestId);
      if (!record) return;
      record.failed = true;
      record.finished = true;
    });
  }

  start(): void {
    this.current = new Map();
    this.loaded = false;
    this.bytesSoFar.clear();
  }

  /** The load event fired: requests issued from now on are counted apart. */
  markLoaded(): void {
    this.loaded = true;
  }

  /** Waits until every request of this load has finished (event streams excepted), at most `timeoutMs`. */
  async settled(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const pending = [...(this.current?.values() ?? [])].filter((r) => !r.finished && r.mime !== 'text/event-stream');
      if (pending.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  stop(): { records: RequestRecord[]; afterLoad: PageLoad['afterLoad'] } {
    const entries = [...(this.current ?? new Map<string, RequestRecord>()).entries()];
    this.current = undefined;
    return {
      records: entries.filter(([, r]) => !r.afterLoad).map(([, r]) => r),
      afterLoad: entries
        .filter(([, r]) => r.afterLoad)
        .map(([id, r]) => ({
          path: pathOf(r.url),
          bytes: r.finished ? r.bytes : (this.bytesSoFar.get(id) ?? 0),
          open: !r.finished,
        })),
    };
  }
}

/** The path without the link's or the inbox's token, for the results file. */
function pathOf(url: string): string {
  return new URL(url).pathname
    .replace(/\/c\/[A-Za-z0-9]{43}/, '/c/{token}')
    .replace(/sbx_[A-Za-z0-9]+/, '{token}')
    .replace(/\/marca\/logo\/[^/]+$/, '/marca/logo/{hash}');
}

interface PaintTimes {
  lcpMs: number | undefined;
  lcpElement: string | undefined;
  fcpMs: number | undefined;
}

/**
 * LCP (the last largest-contentful-paint entry, buffered) and FCP, read after load.
 * page.evaluate runs through the DevTools protocol, outside the page's CSP.
 */
function paintTimes(page: Page): Promise<PaintTimes> {
  return page.evaluate(
    () =>
      new Promise<PaintTimes>((resolve) => {
        let lcp: { startTime: number; element: string | undefined } | undefined;
        const take = (entries: PerformanceEntryList) => {
          for (const entry of entries) {
            const element = (entry as PerformanceEntry & { element?: Element | null }).element;
            const name = element ? element.tagName.toLowerCase() + (element.className ? `.${element.className}` : '') : undefined;
            lcp = { startTime: entry.startTime, element: name };
          }
        };
        const observer = new PerformanceObserver((list) => take(list.getEntries()));
        observer.observe({ type: 'largest-contentful-paint', buffered: true });
        // Two frames and a task: the buffered entries are delivered, any paint after load has happened.
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              take(observer.takeRecords());
              observer.disconnect();
              const fcp = performance.getEntriesByName('first-contentful-paint')[0];
              resolve({ lcpMs: lcp?.startTime, lcpElement: lcp?.element, fcpMs: fcp?.startTime });
            }, 50),
          ),
        );
      }),
  );
}

/** `watchAfterLoadMs`: how long to go on recording what the page's script fetches after load. */
async function measureLoad(
  page: Page,
  network: NetworkLog,
  name: string,
  navigate: () => Promise<unknown>,
  watchAfterLoadMs = 0,
): Promise<PageLoad> {
  network.start();
  const started = performance.now();
  const loaded = page.waitForEvent('load', { timeout: 60_000 });
  loaded.catch(() => undefined); // awaited below; a navigation that fails must not leave it unhandled
  await navigate();
  await loaded;
  network.markLoaded();
  const wallMs = performance.now() - started;
  await network.settled();
  const times = await paintTimes(page);
  if (watchAfterLoadMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, watchAfterLoadMs));
    await network.settled();
  }
  const { records, afterLoad } = network.stop();
  const document = records.find((r) => r.url === page.url());
  return {
    page: name,
    bytes: records.filter((r) => r.finished && !r.failed).reduce((sum, r) => sum + r.bytes, 0),
    requests: records.length,
    cached: records.filter((r) => r.fromCache).length,
    afterLoad,
    ...times,
    wallMs,
    documentStatus: document?.status,
    detail: records.map((r) => ({
      path: pathOf(r.url),
      bytes: r.bytes,
      redirectBytes: r.redirectBytes,
      status: r.status,
      fromCache: r.fromCache,
    })),
  };
}

// ---------------------------------------------------------------------------------
// The phone and the journey.

async function phone(
  browser: Browser,
): Promise<{ page: Page; network: NetworkLog; cdp: CDPSession; close: () => Promise<void> }> {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: DEVICE_SCALE_FACTOR,
    locale: 'pt-BR',
  });
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const network = new NetworkLog(cdp);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: LATENCY_MS,
    downloadThroughput: (KBIT_PER_S * 1000) / 8,
    uploadThroughput: (KBIT_PER_S * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return { page, network, cdp, close: () => context.close() };
}

/** Each page's h1: a step that re-rendered itself (422) or went elsewhere breaks the run. */
const H1: Record<string, RegExp> = {
  início: /^Contrate seu empréstimo consignado$/,
  celular: /^Confirme seu celular$/,
  código: /^Digite o código recebido$/,
  consulta: /^Consulte suas ofertas$/,
  ofertas: /^Escolha sua oferta$/,
  dados: /^Seus dados$/,
  revisão: /^Revise e envie sua proposta$/,
  enviando: /^Enviando sua proposta/,
  resultado: /^Proposta nº \d+$/,
  assinatura: /^Assinatura da proposta nº \d+$/,
  'início, warm': /^Contrate seu empréstimo consignado$/,
  viewer: /^Eventos recebidos$/,
  'viewer, warm': /^Eventos recebidos$/,
  ...Object.fromEntries(PORTAL_PAGES.map((p) => [p.name, p.h1])),
};

const LABEL: Record<string, string> = {
  início: 'início (empty cache)',
  'início, warm': 'início (warm cache: 2nd link)',
  viewer: `viewer (empty cache, ${VIEWER_EVENTS} events)`,
  'viewer, warm': 'viewer (reloaded)',
};

const heading = async (page: Page) => ((await page.locator('h1').first().textContent()) ?? '').trim();

async function expectPage(page: Page, load: PageLoad): Promise<void> {
  const h1 = await heading(page);
  if (!H1[load.page]?.test(h1)) {
    throw new BenchError(`${load.page}: expected its heading, found "${h1}" (the document answered ${load.documentStatus})`);
  }
  if (load.documentStatus !== 200) throw new BenchError(`${load.page}: the document answered ${load.documentStatus}`);
}

/** One visitor, one fresh browser context: the nine pages, then a second link's first page. */
async function journey(browser: Browser, linkUrl: string, secondLinkUrl: string): Promise<PageLoad[]> {
  const { page, network, close } = await phone(browser);
  try {
    const loads: PageLoad[] = [];
    const step = async (name: string, navigate: () => Promise<unknown>) => {
      const load = await measureLoad(page, network, name, navigate);
      await expectPage(page, load);
      loads.push(load);
    };
    const click = (name: string) => () => page.getByRole('button', { name, exact: true }).click();

    await step('início', () => page.goto(linkUrl, { waitUntil: 'commit' }));
    await step('celular', click('Começar'));
    await page.getByLabel('Celular', { exact: true }).fill('11987654321');
    await step('código', click('Enviar código'));
    await page.getByLabel('Código de verificação').fill('123456');
    await step('consulta', click('Confirmar'));
    await page.getByRole('checkbox', { name: /^Autorizo/ }).check();
    await step('ofertas', click('Consultar ofertas'));
    await page.getByRole('radio').first().check();
    await step('dados', click('Continuar'));
    await page.getByLabel('Nome completo').fill('Maria da Silva');
    await page.getByLabel('Data de nascimento').fill('1990-05-10');
    await page.getByLabel('E-mail').fill('maria@exemplo.com');
    await page.getByLabel('Chave Pix').fill('maria@exemplo.com');
    await step('revisão', click('Continuar'));
    // 'Enviar proposta' lands on the result, or on "Enviando…" (it refreshes itself every
    // 2 s) while the bank has not answered: then that page is measured as one more.
    const sent = await measureLoad(page, network, 'resultado', click('Enviar proposta'));
    if (H1.enviando!.test(await heading(page))) {
      sent.page = 'enviando';
      loads.push(sent);
      await step('resultado', () => Promise.resolve());
    } else {
      await expectPage(page, sent);
      loads.push(sent);
    }
    await step('assinatura', () => page.getByRole('link', { name: 'Assinar contrato' }).click());
    // A second link in the same browser: the first page again, its CSS and logo cached.
    await step('início, warm', () => page.goto(secondLinkUrl, { waitUntil: 'commit' }));
    return loads;
  } finally {
    await close();
  }
}

/** The viewer opened in a fresh browser, then reloaded through its own link. */
async function viewer(browser: Browser, url: string): Promise<PageLoad[]> {
  const { page, network, close } = await phone(browser);
  try {
    const cold = await measureLoad(page, network, 'viewer', () => page.goto(url, { waitUntil: 'commit' }), VIEWER_WATCH_MS);
    await expectPage(page, cold);
    const listed = await page.locator('li.evento').count();
    if (listed < VIEWER_EVENTS) throw new BenchError(`the viewer lists ${listed} events, expected ${VIEWER_EVENTS}`);
    // What a developer does to see new events without the script (its no-script text says so).
    const warm = await measureLoad(page, network, 'viewer, warm', () => page.reload({ waitUntil: 'commit' }));
    await expectPage(page, warm);
    return [cold, warm];
  } finally {
    await close();
  }
}

/** One visit of the portal: in by the entry link, then each page with an empty cache. */
async function portalVisit(browser: Browser, entryUrl: string, baseUrl: string, linkId: string): Promise<PageLoad[]> {
  const { page, network, cdp, close } = await phone(browser);
  try {
    await page.goto(entryUrl);
    await Promise.all([
      page.waitForURL(`${baseUrl}/portal`, { timeout: 60_000 }),
      page.getByRole('button', { name: 'Entrar no portal' }).click(),
    ]);
    const loads: PageLoad[] = [];
    for (const portalPage of PORTAL_PAGES) {
      await cdp.send('Network.clearBrowserCache');
      const load = await measureLoad(page, network, portalPage.name, () =>
        page.goto(`${baseUrl}${portalPage.path.replace('{link}', linkId)}`, { waitUntil: 'commit' }),
      );
      await expectPage(page, load);
      loads.push(load);
    }
    return loads;
  } finally {
    await close();
  }
}

// ---------------------------------------------------------------------------------
// Set-up through the CLI and the API, as a channel does.

function parseChannel(output: string): BenchChannel {
  let parsed: Partial<BenchChannel> = {};
  try {
    parsed = JSON.parse(output) as Partial<BenchChannel>;
  } catch {
    // reported below
  }
  if (typeof parsed.clientId !== 'string' || typeof parsed.clientSecret !== 'string' || typeof parsed.canalId !== 'string') {
    throw new BenchError(`consigna channels create --json printed something unexpected: ${output.trim().slice(0, 200)}`);
  }
  return { canalId: parsed.canalId, clientId: parsed.clientId, clientSecret: parsed.clientSecret };
}

/** A channel's API with its bearer token, answering JSON or failing loudly. */
async function channelApi(serviceUrl: string, channel: BenchChannel) {
  const api: BenchContext = createContext(serviceUrl, 'postgres', channel);
  const authorization = `Bearer ${await api.accessToken()}`;
  return async (method: string, path: string, body: unknown, expect: number[]): Promise<Record<string, unknown>> => {
    const answer = await api.http(method, path, {
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!expect.includes(answer.status)) {
      throw new BenchError(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    return answer.body as Record<string, unknown>;
  };
}

type Api = Awaited<ReturnType<typeof channelApi>>;

async function newLink(api: Api, n: number): Promise<string> {
  const link = await api('POST', '/v1/links', { cpf: '12345678909', referenciaExterna: `paginas-${n}` }, [201]);
  if (typeof link.url !== 'string') throw new BenchError('POST /v1/links returned no url');
  return link.url;
}

// ---------------------------------------------------------------------------------
// Figures.

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const seconds = (ms: number | undefined) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(2)} s`);
/** `median (min–max)` of the runs; the median alone when they all read the same. */
const spread = (values: number[], format: (v: number) => string) => {
  if (values.length === 0) return '–';
  const [low, high] = [format(Math.min(...values)), format(Math.max(...values))];
  return low === high ? low : `${format(median(values))} (${low.replace(/ \w+$/, '')}–${high})`;
};

interface PageFigures {
  bytes: number;
  lcpMs: number | undefined;
  allBytes: number[];
  allLcp: number[];
  requests: number;
  cached: number;
}

function figures(runs: PageLoad[][], page: string): PageFigures | undefined {
  const loads = runs.map((run) => run.find((l) => l.page === page)).filter((l): l is PageLoad => l !== undefined);
  if (loads.length === 0) return undefined;
  const lcps = loads.map((l) => l.lcpMs).filter((v): v is number => v !== undefined);
  return {
    bytes: median(loads.map((l) => l.bytes)),
    lcpMs: lcps.length === loads.length ? median(lcps) : undefined,
    allBytes: loads.map((l) => l.bytes),
    allLcp: lcps,
    requests: median(loads.map((l) => l.requests)),
    cached: median(loads.map((l) => l.cached)),
  };
}

const within = (f: PageFigures | undefined, limitS: number) => f?.lcpMs !== undefined && f.lcpMs <= limitS * 1000;
const pageText = (f: PageFigures | undefined) => (f ? `${kb(f.bytes)} · LCP ${seconds(f.lcpMs)}` : '–');

function journeyRow(page: string, branded: PageFigures | undefined, plain: PageFigures | undefined): SuiteRow {
  return {
    part: JOURNEY.id,
    name: LABEL[page] ?? page,
    figure: `branded ${pageText(branded)}`,
    baseline: `unbranded ${pageText(plain)}`,
    ratio: branded && plain ? branded.bytes / plain.bytes : undefined,
    target: `≤ ${GOALS.brandedKb} KB, ≤ ${GOALS.brandedLcpS.toFixed(1)} s (today ≤ ${GOALS.todayKb} KB, ≤ ${GOALS.todayLcpS} s)`,
    verdicts: {
      [`${GOALS.brandedKb} KB`]: branded !== undefined && branded.bytes <= GOALS.brandedKb * KB,
      [`${GOALS.brandedLcpS.toFixed(1)} s`]: within(branded, GOALS.brandedLcpS),
      [`today ${GOALS.todayKb} KB`]: plain !== undefined && plain.bytes <= GOALS.todayKb * KB,
      [`today ${GOALS.todayLcpS} s`]: within(plain, GOALS.todayLcpS),
    },
    ...(branded?.lcpMs !== undefined && plain?.lcpMs !== undefined
      ? {}
      : { error: 'not measured in every run (or no largest-contentful-paint entry)' }),
  };
}

function viewerRow(page: string, f: PageFigures | undefined): SuiteRow {
  return {
    part: VIEWER.id,
    name: LABEL[page] ?? page,
    figure: pageText(f),
    baseline: '– (the viewer has no brand)',
    ratio: undefined,
    target: `≤ ${GOALS.brandedLcpS.toFixed(1)} s (today ≤ ${GOALS.todayViewerKb} KB, ≤ ${GOALS.todayLcpS} s)`,
    verdicts: {
      [`${GOALS.brandedLcpS.toFixed(1)} s`]: within(f, GOALS.brandedLcpS),
      [`today ${GOALS.todayViewerKb} KB`]: f !== undefined && f.bytes <= GOALS.todayViewerKb * KB,
      [`today ${GOALS.todayLcpS} s`]: within(f, GOALS.todayLcpS),
    },
    ...(f?.lcpMs !== undefined ? {} : { error: 'not measured (or no largest-contentful-paint entry)' }),
  };
}

function portalRow(page: string, f: PageFigures | undefined): SuiteRow {
  return {
    part: PORTAL.id,
    name: page,
    figure: pageText(f),
    baseline: '– (no earlier portal)',
    ratio: undefined,
    target: `≤ ${GOALS.portalKb} KB, ≤ ${GOALS.portalLcpS.toFixed(1)} s`,
    verdicts: {
      [`${GOALS.portalKb} KB`]: f !== undefined && f.bytes <= GOALS.portalKb * KB,
      [`${GOALS.portalLcpS.toFixed(1)} s`]: within(f, GOALS.portalLcpS),
    },
    ...(f?.lcpMs !== undefined ? {} : { error: 'not measured (or no largest-contentful-paint entry)' }),
  };
}

const DETAIL_COLUMNS: Column[] = [
  { header: 'page' },
  { header: 'unbranded KB', align: 'right' },
  { header: 'LCP', align: 'right' },
  { header: 'branded KB', align: 'right' },
  { header: 'LCP', align: 'right' },
  { header: 'requests (cached)', align: 'right' },
  { header: 'target' },
];

/** What each page fetched over the network in the first branded run (cache hits left out). */
function fetched(load: PageLoad | undefined): string {
  if (!load) return '–';
  return load.detail
    .filter((d) => !d.fromCache)
    .map((d) => `${d.path} ${kb(d.bytes)}${d.redirectBytes ? ` (303: ${d.redirectBytes} B)` : ''}`)
    .join(', ');
}

// ---------------------------------------------------------------------------------

async function runPages(ctx: SuiteContext, parts: SuitePart[]) {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new BenchError(`Chromium not found at ${CHROMIUM_PATH} (set CONSIGNA_CHROMIUM_PATH; it is never downloaded).`);
  }
  const wantJourney = parts.some((p) => p.id === JOURNEY.id);
  const wantViewer = parts.some((p) => p.id === VIEWER.id);
  const wantPortal = parts.some((p) => p.id === PORTAL.id);
  const loadAtStart = os.loadavg();
  const logo = noisyPng(LOGO_SIZE.width, LOGO_SIZE.height);
  if (logo.length > MAX_LOGO_BYTES) throw new BenchError(`the bench's logo has ${logo.length} bytes, over ${MAX_LOGO_BYTES}`);

  let benchDb: Awaited<ReturnType<typeof createBenchDatabase>> | undefined;
  let serve: ChildService | undefined;
  let closeBrowser: (() => Promise<void>) | undefined;
  const runs: { branded: PageLoad[][]; plain: PageLoad[][]; viewer: PageLoad[][]; portal: PageLoad[][] } = {
    branded: [],
    plain: [],
    viewer: [],
    portal: [],
  };
  let accent: unknown;
  try {
    benchDb = await createBenchDatabase(ctx.adminUrl);
    ctx.log(`database ${benchDb.name}…`);
    const port = await freePort();
    const env = withoutServiceSettings(ctx.env);
    Object.assign(env, {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: benchDb.url,
      CONSIGNA_MASTER_KEY: randomBytes(32).toString('hex'),
      // The address the service listens on, which the links and the inbox then name.
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    });
    const channels: BenchChannel[] = [];
    for (const name of [BRAND_NAME, BRAND_NAME, 'Bench viewer']) {
      const args = ['bin/consigna.js', 'channels', 'create', '--name', name, '--json'];
      channels.push(parseChannel(await runCommand('consigna channels create', args, { cwd: ctx.root, env })));
    }
    ctx.log('starting consigna serve…');
    serve = await startService({ label: 'consigna serve', args: ['bin/consigna.js', 'serve'], cwd: ctx.root, env, port });
    const [branded, plain, inboxChannel] = await Promise.all(channels.map((c) => channelApi(serve!.url, c)));

    const brand = await branded!(
      'PUT',
      '/v1/marca',
      { nome: BRAND_NAME, cor: BRAND_COLOUR, logo: logo.toString('base64') },
      [201],
    );
    accent = brand.corAplicada;

    ctx.log('starting Chromium…');
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
    closeBrowser = onCleanup('close Chromium', () => browser.close());

    if (wantJourney) {
      let n = 0;
      for (let run = 1; run <= RUNS; run++) {
        for (const [variant, api] of [
          ['plain', plain!],
          ['branded', branded!],
        ] as const) {
          ctx.log(`journey ${run}/${RUNS}, ${variant === 'plain' ? 'unbranded' : 'branded'}…`);
          const first = await newLink(api, n++);
          const second = await newLink(api, n++);
          runs[variant].push(await journey(browser, first, second));
        }
      }
    }
    if (wantViewer) {
      const inbox = await inboxChannel!('PUT', '/v1/sandbox/receptor', {}, [200, 201]);
      await inboxChannel!('PUT', '/v1/webhooks', { url: inbox.url }, [200, 201]);
      for (let i = 0; i < VIEWER_EVENTS; i++) {
        const sent = await inboxChannel!('POST', '/v1/webhooks/teste', undefined, [200]);
        if (sent.entregue !== true)
          throw new BenchError(`POST /v1/webhooks/teste: not stored in the inbox (${JSON.stringify(sent)})`);
      }
      for (let run = 1; run <= RUNS; run++) {
        ctx.log(`viewer ${run}/${RUNS}…`);
        runs.viewer.push(await viewer(browser, String(inbox.visualizacaoUrl)));
      }
    }
    if (wantPortal) {
      // The inbox as the channel's webhook: the journeys' events make deliveries to list.
      const inbox = await branded!('PUT', '/v1/sandbox/receptor', {}, [200, 201]);
      await branded!('PUT', '/v1/webhooks', { url: inbox.url }, [200, 201]);
      let completedLink = '';
      for (let i = 0; i < PORTAL_LINKS.created; i++) {
        const link = await branded!('POST', '/v1/links', { cpf: '12345678909', referenciaExterna: `loja-${i % 4}` }, [201]);
        if (i < PORTAL_LINKS.completed) {
          await branded!('POST', `/v1/links/${String(link.id)}/jornada/simular`, undefined, [200]);
          completedLink = String(link.id);
        }
      }
      for (let run = 1; run <= RUNS; run++) {
        ctx.log(`portal ${run}/${RUNS}…`);
        const entry = await branded!('POST', '/v1/portal/sessoes', undefined, [201]);
        runs.portal.push(await portalVisit(browser, String(entry.url), serve.url, completedLink));
      }
    }
  } finally {
    await closeBrowser?.();
    await serve?.stop();
    await benchDb?.drop();
  }

  const rows: SuiteRow[] = [];
  const detail: string[][] = [];
  const journeyPages = [...new Set([...runs.plain, ...runs.branded].flat().map((l) => l.page))];
  const viewerPages = [...new Set(runs.viewer.flat().map((l) => l.page))];
  for (const page of journeyPages) {
    const b = figures(runs.branded, page);
    const p = figures(runs.plain, page);
    rows.push(journeyRow(page, b, p));
    detail.push([
      LABEL[page] ?? page,
      spread(p?.allBytes ?? [], kb),
      spread(p?.allLcp ?? [], seconds),
      spread(b?.allBytes ?? [], kb),
      spread(b?.allLcp ?? [], seconds),
      b ? `${b.requests} (${b.cached})` : '–',
      `≤ ${GOALS.brandedKb} KB, ≤ ${GOALS.brandedLcpS.toFixed(1)} s`,
    ]);
  }
  for (const page of viewerPages) {
    const f = figures(runs.viewer, page);
    rows.push(viewerRow(page, f));
    detail.push([
      LABEL[page] ?? page,
      spread(f?.allBytes ?? [], kb),
      spread(f?.allLcp ?? [], seconds),
      '–',
      '–',
      f ? `${f.requests} (${f.cached})` : '–',
      `≤ ${GOALS.brandedLcpS.toFixed(1)} s`,
    ]);
  }

  for (const { name } of wantPortal ? PORTAL_PAGES : []) {
    const f = figures(runs.portal, name);
    rows.push(portalRow(name, f));
    detail.push([
      name,
      '–',
      '–',
      spread(f?.allBytes ?? [], kb),
      spread(f?.allLcp ?? [], seconds),
      f ? `${f.requests} (${f.cached})` : '–',
      `≤ ${GOALS.portalKb} KB, ≤ ${GOALS.portalLcpS.toFixed(1)} s`,
    ]);
  }

  const visit = (variant: PageLoad[][]) =>
    median(variant.map((run) => run.filter((l) => l.page !== 'início, warm').reduce((sum, l) => sum + l.bytes, 0)));
  const firstBranded = runs.branded[0];
  const notes = [
    `Each page: median of ${RUNS} (min–max); KB = 1,024 bytes received (headers and bodies as encodedDataLength, a form's 303 included); LCP from the navigation's start (a form's: the click that sends the POST). requests (cached): branded, issued per load and answered from the browser's cache.`,
    renderTable(DETAIL_COLUMNS, detail),
  ];
  if (wantJourney) {
    notes.push(
      `Pages: ${journeyPages.filter((p) => p !== 'início, warm').join(', ')} (one fresh browser context per journey; ` +
        `'Enviar proposta' lands on the result directly unless the bank is slow, when "Enviando…" would be listed), ` +
        `then a second link's início in the same context. Whole journey: unbranded ${kb(visit(runs.plain))}, branded ${kb(visit(runs.branded))}.`,
      `Brand: PUT /v1/marca with "${BRAND_NAME}", ${BRAND_COLOUR} (applied ${String(accent)}) and a ${LOGO_SIZE.width}×${LOGO_SIZE.height} noisy RGB PNG of ${logo.length} bytes (limit ${MAX_LOGO_BYTES}); ` +
        `the unbranded channel has the same name, shown instead.`,
    );
    if (firstBranded) {
      for (const page of ['início', 'celular', 'início, warm']) {
        const load = firstBranded.find((l) => l.page === page);
        notes.push(`  branded ${LABEL[page] ?? page}, fetched: ${fetched(load)}`);
      }
    }
  }
  if (wantViewer) {
    const cold = runs.viewer[0]?.find((l) => l.page === 'viewer');
    notes.push(
      `Viewer: PUT /v1/sandbox/receptor, the inbox as the channel's webhook, ${VIEWER_EVENTS} POST /v1/webhooks/teste; opened in a fresh context, then reloaded (page.reload). ` +
        `Fetched until load: ${fetched(cold)}. Then its script, in the next ${VIEWER_WATCH_MS / 1000} s, not counted above: ` +
        `${cold?.afterLoad.map((a) => `${a.path} ${a.open ? '(the event stream, still open)' : kb(a.bytes)}`).join(', ') || 'nothing'}.`,
    );
  }
  if (wantPortal) {
    notes.push(
      `Portal: the branded channel (its logo in the header), ${PORTAL_LINKS.created} links by 4 promoters, ${PORTAL_LINKS.completed} through the journey simulator, its test inbox as its webhook; ` +
        `in by POST /v1/portal/sessoes and the entry page's button, then ${PORTAL_PAGES.map((p) => p.path).join(', ')}, each after Network.clearBrowserCache (figures in the branded columns). ` +
        `Fetched by the first: ${fetched(runs.portal[0]?.[0])}.`,
    );
  }
  notes.push(
    `Chromium ${CHROMIUM_PATH}, ${VIEWPORT.width}×${VIEWPORT.height} CSS px, DPR ${DEVICE_SCALE_FACTOR}, mobile, touch, pt-BR; ` +
      `DevTools emulation: ${KBIT_PER_S} kbit/s down and up, ${LATENCY_MS} ms latency, CPU ${CPU_SLOWDOWN}× slower. ` +
      `Service: consigna serve on a fresh PostgreSQL database, PUBLIC_BASE_URL=http://127.0.0.1:<port>.`,
    `load average (1, 5, 15 min) at start: ${loadAtStart.map((v) => v.toFixed(2)).join(' ')}; at end: ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')} (LCP includes the CPU this machine could give; bytes do not depend on it)`,
  );

  return {
    title: `Hosted pages: bytes and largest contentful paint per page, Chromium as a phone on a weak connection (${VIEWPORT.width} px, ${KBIT_PER_S} kbit/s, ${LATENCY_MS} ms, CPU ${CPU_SLOWDOWN}× slower), median of ${RUNS} journeys`,
    rows,
    notes,
    raw: {
      settings: {
        viewport: VIEWPORT,
        deviceScaleFactor: DEVICE_SCALE_FACTOR,
        kbitPerS: KBIT_PER_S,
        latencyMs: LATENCY_MS,
        cpuSlowdown: CPU_SLOWDOWN,
        runs: RUNS,
        viewerEvents: VIEWER_EVENTS,
      },
      goals: GOALS,
      logo: { ...LOGO_SIZE, bytes: logo.length },
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: os.loadavg(),
      runs,
    },
  };
}
