// examples/quickstart end to end, as the README has a newcomer run it: a real
// `consigna serve --demo` process (embedded database in a fresh data folder, or
// PostgreSQL when DATABASE_URL is set), the demo credentials it prints once, then the
// quickstart script as a child process, and the viewer page it points to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/service.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { captureLogLine, rememberSecret } from '../helpers/secrets.ts';
import { waitFor } from '../helpers/wait.ts';
import { ensureSdkBuilt } from '../sdk/build.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const QUICKSTART = path.join(ROOT, 'examples/quickstart/quickstart.mjs');
const systemNode20 = ['/usr/bin/node', '/usr/local/bin/node'].find((candidate) => {
  try {
    return /^v20\./.test(execFileSync(candidate, ['--version'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
});

let serve: ChildProcess;
let output = '';
let baseUrl = '';
let dataDir = '';
let database: TestDatabase | undefined;
let credentials: { clientId: string; clientSecret: string };

beforeAll(async () => {
  await ensureSdkBuilt();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-quickstart-'));
  database = process.env.DATABASE_URL ? await createTestDatabase() : undefined;
  serve = spawn(process.execPath, [path.join(ROOT, 'bin/consigna.js'), 'serve', '--demo'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: baseUrl,
      LOG_LEVEL: 'info',
      CONSIGNA_DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
      ...(database ? { CONSIGNA_MASTER_KEY: randomBytes(32).toString('hex') } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    const text = String(chunk);
    output += text;
    // Service log lines go to the leak check; the one-time credentials banner is meant to be printed.
    for (const line of text.split('\n')) if (line.startsWith('{')) captureLogLine(line);
  };
  serve.stdout!.on('data', collect);
  serve.stderr!.on('data', collect);
  await waitFor(() => /listening on/.test(output), {
    timeoutMs: 60_000,
    what: `consigna serve --demo to start: ${output.slice(-500)}`,
  });
  const clientId = /client_id:\s+(cid_\S+)/.exec(output)?.[1];
  const clientSecret = /client_secret:\s+(csk_\S+)/.exec(output)?.[1];
  expect(clientId && clientSecret, output).toBeTruthy();
  credentials = { clientId: clientId!, clientSecret: clientSecret! };
  rememberSecret(clientSecret);
}, 90_000);

afterAll(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    serve.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (serve.exitCode === null) serve.kill('SIGKILL');
  }
  await database?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function runQuickstart(node: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      node,
      [QUICKSTART],
      { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('examples/quickstart against consigna serve --demo', () => {
  it('token, link, inbox as webhook, test event verified, viewer URL; and again on Node 20', async () => {
    const env = { CONSIGNA_URL: baseUrl, CLIENT_ID: credentials.clientId, CLIENT_SECRET: credentials.clientSecret };
    const first = await runQuickstart(process.execPath, env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('1. Token obtido para o canal "Canal de demonstração"');
    const linkUrl = /URL para o cliente \(envie só a ele\): (\S+)/.exec(first.stdout)?.[1];
    expect(linkUrl).toMatch(new RegExp(`^${baseUrl}/`));
    rememberSecret(linkUrl!.slice(linkUrl!.lastIndexOf('/') + 1));
    expect(first.stdout).toContain('segredo criado agora');
    expect(first.stdout).toMatch(/4\. Evento de teste entregue em \d+ ms: webhook\.teste, assinatura válida\./);
    const viewer = /Veja o evento no navegador: (\S+)/.exec(first.stdout)?.[1];
    expect(viewer).toMatch(new RegExp(`^${baseUrl}/sandbox/receptor/sbx_`));

    // The page the newcomer opens shows the event with its signature verified.
    const page = await fetch(viewer!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('webhook.teste');
    expect(html).toContain('Assinatura válida');

    // The link exists for the channel (the customer's URL opens the hosted journey).
    expect((await fetch(linkUrl!)).status).toBe(200);

    // Run again (system Node 20 when there is one): webhook updated, not re-created; still verified.
    const second = await runQuickstart(systemNode20 ?? process.execPath, env);
    expect([second.code, second.stderr]).toEqual([0, '']);
    expect(second.stdout).toContain('3. Receptor de testes registrado como webhook.');
    expect(second.stdout).toContain('assinatura válida');
    expect(/Veja o evento no navegador: (\S+)/.exec(second.stdout)?.[1]).toBe(viewer);
  });

  it('says what is missing, and what went wrong, in pt-BR', async () => {
    const missing = await runQuickstart(process.execPath, { CONSIGNA_URL: baseUrl });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Defina CLIENT_ID e CLIENT_SECRET');
    const wrong = await runQuickstart(process.execPath, {
      CONSIGNA_URL: baseUrl,
      CLIENT_ID: credentials.clientId,
      CLIENT_SECRET: 'csk_errado',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^Erro 401 invalid_client: .+ \(requestId [0-9a-f-]{36}\)/);
    const down = await runQuickstart(process.execPath, {
      CONSIGNA_URL: `http://127.0.0.1:${await freePort()}`,
      CLIENT_ID: 'cid_x',
      CLIENT_SECRET: 'csk_x',
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('O serviço está rodando (npm start)?');
  });
});
