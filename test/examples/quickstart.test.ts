// The README quickstart end to end, as a newcomer runs it: a real `consigna serve --demo`
// process (embedded database in a fresh data folder, or PostgreSQL when DATABASE_URL is
// set) and the demo credentials it prints once; then the three commands: `npx
// @consigna/sdk listen` (which prints the webhook secret), the example receiver with that
// secret, and the quickstart script (link → journey → simulator), until the receiver has
// verified every event. No browser.
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
const RECEIVER = path.join(ROOT, 'examples/receiver/receiver.mjs');
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

/** A long-running command of the README, its output collected; killed after the file. */
function start(command: string, args: string[], env: Record<string, string>) {
  // Its own process group, as in a terminal: Ctrl-C (SIGINT to the group) reaches npx's child too.
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += String(chunk)));
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  return { child, output: () => output };
}
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
});

describe('the README quickstart against consigna serve --demo: listen, the example receiver, the quickstart script', () => {
  it('reaches "my own code verified an event" with no browser: link → journey → simulator → four verified events', async () => {
    const env = {
      CONSIGNA_URL: baseUrl,
      CONSIGNA_CLIENT_ID: credentials.clientId,
      CONSIGNA_CLIENT_SECRET: credentials.clientSecret,
    };
    const receiverPort = await freePort();
    // 1. npx @consigna/sdk listen --forward-to http://localhost:4000/webhooks
    const listen = start('npx', ['@consigna/sdk', 'listen', '--forward-to', `http://127.0.0.1:${receiverPort}/webhooks`], env);
    await waitFor(() => listen.output().includes('recebendo eventos'), { timeoutMs: 30_000, what: `listen: ${listen.output()}` });
    const secret = /segredo do webhook[^:]*: (whsec_\S+)/.exec(listen.output())?.[1];
    expect(secret, listen.output()).toBeDefined();
    rememberSecret(secret);

    // 2. CONSIGNA_WEBHOOK_SECRET=whsec_… node examples/receiver/receiver.mjs
    const receiver = start(process.execPath, [RECEIVER], { CONSIGNA_WEBHOOK_SECRET: secret!, PORTA: String(receiverPort) });
    await waitFor(() => receiver.output().includes('receptor ouvindo'), {
      timeoutMs: 20_000,
      what: `receiver: ${receiver.output()}`,
    });

    // 3. node examples/quickstart/quickstart.mjs
    const first = await runQuickstart(process.execPath, env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('1. Token obtido para o canal "Canal de demonstração"');
    expect(first.stdout).toMatch(/Os eventos vão para o webhook do canal: .*\/v1\/sandbox\/receptor\/sbx_/);
    const linkId = /2\. Link criado: ([0-9a-f-]{36})/.exec(first.stdout)?.[1];
    expect(first.stdout).toMatch(/3\. Jornada simulada: proposta nº \d+ AGUARDANDO_FORMALIZACAO, link CONCLUIDO\./);
    expect(first.stdout).toContain('4. Proposta APROVADA.');

    // The developer's own receiver verified every event of the link, in order.
    const verified = () =>
      receiver
        .output()
        .split('\n')
        .filter((line) => line.startsWith('✓') && line.includes(linkId!));
    await waitFor(() => verified().length === 4, { timeoutMs: 20_000, what: `four verified events: ${receiver.output()}` });
    // Deliveries run concurrently and may arrive out of order (guide §6): every one, verified.
    expect(
      verified()
        .map((line) => /✓ (\S+)/.exec(line)?.[1])
        .toSorted(),
    ).toEqual(['proposta.aguardando_formalizacao', 'proposta.aprovada', 'proposta.criada', 'proposta.formalizada']);
    // listen prints its line once the forward has answered, which may be after the receiver logged it.
    await waitFor(
      () =>
        /proposta\.aprovada {2}tentativa 1 {2}local → 200 {2}\d+ ms {2}\| {2}Consigna registrou 200: entregue/.test(
          listen.output(),
        ),
      {
        what: `listen's line for proposta.aprovada: ${listen.output()}`,
      },
    );

    // A delivery that does not verify is refused, and said so.
    const forged = await fetch(`http://127.0.0.1:${receiverPort}/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      },
      body: '{"id":"x","tipo":"proposta.criada"}',
    });
    expect(forged.status).toBe(401);
    await waitFor(() => receiver.output().includes('✗ entrega recusada com 401'), { what: 'the refusal line' });

    // Again on the system Node 20 when there is one (the SDK supports it).
    const second = await runQuickstart(systemNode20 ?? process.execPath, env);
    expect([second.code, second.stderr]).toEqual([0, '']);
    const secondLink = /2\. Link criado: ([0-9a-f-]{36})/.exec(second.stdout)?.[1];
    await waitFor(
      () =>
        receiver
          .output()
          .split('\n')
          .filter((l) => l.startsWith('✓') && l.includes(secondLink!)).length === 4,
      {
        timeoutMs: 20_000,
        what: 'the second run’s events',
      },
    );

    // Ctrl-C: npx goes with the signal; the command itself (same group) says goodbye and exits.
    const closed = new Promise((resolve) => listen.child.once('close', resolve));
    process.kill(-listen.child.pid!, 'SIGINT');
    await closed;
    expect(listen.output()).toContain('encerrado');
  }, 120_000);

  it('says what is missing, and what went wrong, in pt-BR', async () => {
    const missing = await runQuickstart(process.execPath, { CONSIGNA_URL: baseUrl });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Defina CONSIGNA_CLIENT_ID e CONSIGNA_CLIENT_SECRET');
    const wrong = await runQuickstart(process.execPath, {
      CONSIGNA_URL: baseUrl,
      CONSIGNA_CLIENT_ID: credentials.clientId,
      CONSIGNA_CLIENT_SECRET: 'csk_errado',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^Erro 401 invalid_client: .+ \(requestId [0-9a-f-]{36}\)/);
    const down = await runQuickstart(process.execPath, {
      CONSIGNA_URL: `http://127.0.0.1:${await freePort()}`,
      CONSIGNA_CLIENT_ID: 'cid_x',
      CONSIGNA_CLIENT_SECRET: 'csk_x',
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('O serviço está rodando (npm start)?');
    const noSecret = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [RECEIVER], { env: { PATH: process.env.PATH } });
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += String(c)));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('CONSIGNA_WEBHOOK_SECRET');
  });
});
