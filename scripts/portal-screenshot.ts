// Writes src/docs/assets/portal-visao-geral.png, the guide's picture of the portal
// (docs/guia-integracao.md, "Portal do canal"): a sandbox service on PGlite with demo
// data (a branded channel, links by three promoters, some taken through the journey
// simulator), its "Visão geral" in Chromium (playwright-core, /usr/bin/chromium, never
// downloaded), 800 CSS px wide, the top of the page, reduced to a small palette so the
// guide stays light (≤ 60 KB).
//
//   node scripts/portal-screenshot.ts      (after a change to the portal's look)
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/config/config.ts';
import { createLogger } from '../src/observability/logger.ts';
import { openContext, startRoles } from '../src/server.ts';
import { createChannel } from '../src/channels/channels.service.ts';

const OUT = path.join(import.meta.dirname, '../src/docs/assets/portal-visao-geral.png');
const CHROMIUM_PATH = process.env.CONSIGNA_CHROMIUM_PATH ?? '/usr/bin/chromium';
const WIDTH = 800;
const HEIGHT = 900;
const MAX_BYTES = 60 * 1024;

/** Links per promoter, and how many of them go through the whole journey. */
const DEMO = [
  { referenciaExterna: 'loja-centro', links: 6, completed: 4 },
  { referenciaExterna: 'loja-norte', links: 4, completed: 1 },
  { referenciaExterna: 'parceiro-online', links: 3, completed: 2 },
];

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

async function main(): Promise<void> {
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    CONSIGNA_MASTER_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
  });
  const ctx = await openContext(config, { log: createLogger('warn'), pgliteDir: 'memory' });
  const running = await startRoles(ctx, { api: true, worker: true, sweeper: false, listen: true });
  const app = running.app!;
  try {
    const channel = await createChannel(ctx, { name: 'Fintech Exemplo' });
    const token = await app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: channel.clientId,
        client_secret: channel.clientSecret,
      }).toString(),
    });
    const auth = { authorization: `Bearer ${token.json<{ access_token: string }>().access_token}` };
    const call = async (method: 'POST' | 'PUT', url: string, body?: unknown) => {
      const answer = await app.inject({
        method,
        url,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      if (answer.statusCode >= 300) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
      return answer.json<Record<string, unknown>>();
    };
    await call('PUT', '/v1/marca', { nome: 'Fintech Exemplo', cor: '#1a73e8' });
    for (const promoter of DEMO) {
      for (let i = 0; i < promoter.links; i++) {
        const link = await call('POST', '/v1/links', { cpf: '12345678909', referenciaExterna: promoter.referenciaExterna });
        if (i < promoter.completed) await call('POST', `/v1/links/${String(link.id)}/jornada/simular`);
      }
    }
    const { url } = await call('POST', '/v1/portal/sessoes');

    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, locale: 'pt-BR' });
      await page.goto(String(url));
      await Promise.all([page.waitForURL(/\/portal$/), page.getByRole('button', { name: 'Entrar no portal' }).click()]);
      const shot = await page.screenshot({ clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } });
      const png = await sharp(shot).png({ palette: true, colours: 48, compressionLevel: 9, effort: 10 }).toBuffer();
      if (png.length > MAX_BYTES) throw new Error(`the screenshot has ${png.length} bytes, over ${MAX_BYTES}`);
      fs.writeFileSync(OUT, png);
      console.log(`${path.relative(process.cwd(), OUT)}: ${png.length} bytes`);
    } finally {
      await browser.close();
    }
  } finally {
    await running.stop();
  }
}

await main();
