// `consigna channels …` while a real `consigna serve` holds the embedded data folder: the
// command is carried out by the running service through its control socket (owner-only,
// one JSON request per connection), and its effect shows at once in that service's API
// and hosted pages. With PostgreSQL the command runs on its own, as before.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it, vi } from 'vitest';
import { createTestDatabase, describeOnEmbedded, describeOnPostgres } from '../helpers/db.ts';
import { makePng } from '../helpers/images.ts';
import { VALID_CPFS } from '../helpers/links.ts';
import { killAll, startConsigna } from '../helpers/processes.ts';
import { rememberSecret } from '../helpers/secrets.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/consigna.js');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-running-'));

afterAll(async () => {
  await killAll();
  fs.rmSync(root, { recursive: true, force: true });
});

vi.setConfig({ testTimeout: 180_000 });

interface Issued {
  canalId: string;
  clientId: string;
  clientSecret: string;
}

async function consigna(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, DATABASE_URL: '', CONSIGNA_MASTER_KEY: '', LOG_LEVEL: 'warn', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The answer of the token endpoint to these credentials: the status, and the Bearer header on success. */
async function token(url: string, { clientId, clientSecret }: Issued): Promise<{ status: number; auth: string }> {
  const answer = await fetch(`${url}/v1/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  if (answer.status !== 200) return { status: answer.status, auth: '' };
  const accessToken = ((await answer.json()) as { access_token: string }).access_token;
  rememberSecret(accessToken);
  return { status: 200, auth: `Bearer ${accessToken}` };
}

const ping = async (url: string, auth: string) => (await fetch(`${url}/v1/ping`, { headers: { authorization: auth } })).status;

/** One raw exchange on the control socket: what the service answers to `data`. */
function rawRequest(socketPath: string, data: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let output = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(data));
    socket.on('data', (chunk: string) => (output += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(output.trim()));
  });
}

const EMBEDDED_ONLY = 'the control socket exists for the embedded database, which only one process may open';
describeOnEmbedded('consigna channels while the embedded service runs (real processes)', EMBEDDED_ONLY, () => {
  it('creates, brands, deactivates and rotates through the running service, whose API sees it at once', async () => {
    const dataDir = path.join(root, 'data');
    const env = { CONSIGNA_DATA_DIR: dataDir };
    const serve = await startConsigna('serve', env);

    // The socket: in the 0700 data folder, the owner's only.
    const socketPath = path.join(dataDir, 'control.sock');
    expect(fs.statSync(socketPath).isSocket()).toBe(true);
    expect(fs.statSync(socketPath).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);

    const created = await consigna(['channels', 'create', '--name', 'Canal Vivo', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const channel = JSON.parse(created.stdout) as Issued & { nome: string };
    rememberSecret(channel.clientSecret);
    expect(channel.nome).toBe('Canal Vivo');
    const { status, auth } = await token(serve.url, channel);
    expect(status).toBe(200);
    expect(await ping(serve.url, auth)).toBe(200);

    const batch = await consigna(['channels', 'create', '--count', '3', '--name-prefix', 'Vivo', '--json'], env);
    expect(batch.code, batch.stderr).toBe(0);
    const many = JSON.parse(batch.stdout) as Issued[];
    for (const one of many) {
      rememberSecret(one.clientSecret);
      expect((await token(serve.url, one)).status).toBe(200);
    }
    const list = JSON.parse((await consigna(['channels', 'list', '--json'], env)).stdout) as Array<{ canalId: string }>;
    expect(list.map((c) => c.canalId)).toEqual([channel, ...many].map((c) => c.canalId));
    expect(JSON.parse((await consigna(['channels', 'health', '--json'], env)).stdout)).toEqual([]);

    // The brand, logo file read by the command's process: in the brand API and on the customer's page.
    const logo = path.join(root, 'logo.png');
    fs.writeFileSync(logo, makePng(64, 32, [10, 20, 30]));
    const brandArgs = ['channels', 'brand', channel.canalId, '--name', 'Marca Viva', '--color', '#1A73E8', '--logo', logo];
    const branded = await consigna([...brandArgs, '--json'], env);
    expect(branded.code, branded.stderr).toBe(0);
    expect(JSON.parse(branded.stdout)).toMatchObject({ nome: 'Marca Viva', cor: '#1a73e8', logo: { largura: 64, altura: 32 } });
    const brandApi = await fetch(`${serve.url}/v1/marca`, { headers: { authorization: auth } });
    expect(await brandApi.json()).toMatchObject({ nome: 'Marca Viva', cor: '#1a73e8', logo: { tipo: 'image/png' } });
    const link = await fetch(`${serve.url}/v1/links`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ cpf: VALID_CPFS[0], referenciaExterna: 'vivo-1' }),
    });
    expect(link.status).toBe(201);
    const linkUrl = ((await link.json()) as { url: string }).url;
    rememberSecret(linkUrl.split('/').pop());
    expect(await (await fetch(linkUrl)).text()).toContain('Marca Viva');
    expect((await consigna(['channels', 'brand', channel.canalId], env)).stdout).toContain('Marca Viva  colour #1a73e8');

    // An entry link into the channel's portal, read-only, made by the running service.
    const portal = await consigna(['channels', 'portal', channel.canalId, '--leitura', '--json'], env);
    expect(portal.code, portal.stderr).toBe(0);
    const entry = JSON.parse(portal.stdout) as { url: string; permissoes: string[] };
    rememberSecret(entry.url, entry.url.split('/').pop());
    expect(entry.permissoes).toEqual(['leitura']);
    const entered = await fetch(`${serve.url}${new URL(entry.url).pathname}`, { method: 'POST', redirect: 'manual' });
    expect(entered.status).toBe(303);
    const portalCookie = entered.headers.get('set-cookie')!.split(';')[0]!;
    rememberSecret(portalCookie.split('=')[1]);
    const inPortal = async () => fetch(`${serve.url}/portal`, { headers: { cookie: portalCookie } });
    expect(await (await inPortal()).text()).toContain('Marca Viva');

    // The API's validation and the CLI's errors come back whole, exit code 1.
    const badColour = await consigna(['channels', 'brand', channel.canalId, '--name', 'X', '--color', 'azul'], env);
    expect([badColour.code, badColour.stderr.trim()]).toEqual([
      1,
      'Error: cor_invalida: cor inválida: use #RRGGBB, por exemplo #1A73E8.',
    ]);
    const missing = await consigna(['channels', 'activate', '00000000-0000-0000-0000-000000000000'], env);
    expect([missing.code, missing.stderr.trim()]).toEqual([1, 'Error: channel 00000000-0000-0000-0000-000000000000 not found']);
    const badCount = await consigna(['channels', 'create', '--count', '0'], env);
    expect([badCount.code, badCount.stderr.trim()]).toEqual([
      1,
      'Error: --count deve ser um número inteiro de 1 a 1000 (recebido "0")',
    ]);

    // Deactivating takes effect on the token already issued; rotating retires the old secret.
    expect((await consigna(['channels', 'deactivate', channel.canalId], env)).stdout).toContain('is now inactive');
    expect(await ping(serve.url, auth)).toBe(403);
    expect((await inPortal()).status).toBe(401); // and its portal sessions ended
    expect((await consigna(['channels', 'activate', channel.canalId], env)).stdout).toContain('is now active');
    const rotated = await consigna(['channels', 'rotate-secret', channel.canalId, '--json'], env);
    const fresh = JSON.parse(rotated.stdout) as Issued;
    rememberSecret(fresh.clientSecret);
    expect((await token(serve.url, channel)).status).toBe(401);
    expect((await token(serve.url, fresh)).status).toBe(200);

    // Malformed requests get an error answer; the service goes on.
    expect(JSON.parse(await rawRequest(socketPath, 'not json\n'))).toEqual({ error: 'pedido inválido: uma linha de JSON' });
    expect(JSON.parse(await rawRequest(socketPath, '{"explode":{}}\n')).error).toMatch(
      /^pedido inválido: um objeto com um só comando/,
    );
    expect(JSON.parse(await rawRequest(socketPath, '{"channels":1,"backup":"/tmp/x"}\n')).error).toMatch(/^pedido inválido/);
    expect(JSON.parse(await rawRequest(socketPath, '{"channels":{"sub":"drop-all"}}\n'))).toEqual({
      error: 'pedido de channels inválido',
    });
    const oversized = Buffer.alloc(1024 * 1024 + 10, 'x');
    expect(JSON.parse(await rawRequest(socketPath, oversized)).error).toMatch(/^pedido grande demais/);
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
    expect(serve.alive()).toBe(true);
    expect((await consigna(['channels', 'list'], env)).stdout).toContain('Vivo-3');

    // Other commands still need the folder to themselves, and say so.
    const busy = await consigna(['status'], env);
    expect([busy.code, busy.stderr]).toEqual([1, expect.stringMatching(/is in use by another Consigna process/)]);

    // Stopped: the socket is gone and the command opens the folder itself.
    expect(await serve.kill('SIGTERM')).toBe(0);
    expect(fs.existsSync(socketPath)).toBe(false);
    const after = JSON.parse((await consigna(['channels', 'brand', channel.canalId, '--json'], env)).stdout);
    expect(after.nome).toBe('Marca Viva');
  });
});

describeOnPostgres('consigna channels while the service runs (PostgreSQL)', () => {
  it('runs on its own, with no control socket', async () => {
    const database = await createTestDatabase();
    try {
      const dataDir = path.join(root, 'pg-data');
      const env = { DATABASE_URL: database.url!, CONSIGNA_MASTER_KEY: 'cd'.repeat(32), CONSIGNA_DATA_DIR: dataDir };
      const serve = await startConsigna('serve', env);
      const created = await consigna(['channels', 'create', '--count', '2', '--json'], env);
      expect(created.code, created.stderr).toBe(0);
      for (const channel of JSON.parse(created.stdout) as Issued[]) {
        rememberSecret(channel.clientSecret);
        expect((await token(serve.url, channel)).status).toBe(200);
      }
      expect(fs.existsSync(path.join(dataDir, 'control.sock'))).toBe(false);
      expect(await serve.kill('SIGTERM')).toBe(0);
    } finally {
      await database.drop();
    }
  });
});
