import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort, startTestService } from '../helpers/service.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { makePng } from '../helpers/images.ts';
import { accentFor } from '../../src/brand/colour.ts';
import { CONSENT_TEXTS, CONSENT_VERSION } from '../../src/journey/consent.ts';
import { sweepOnce } from '../../src/sweeper/sweeper.ts';
import { createTestDatabase, describeOnPostgres } from '../helpers/db.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { waitFor } from '../helpers/wait.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/consigna.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-cli-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function consigna(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, DATABASE_URL: '', CONSIGNA_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// Each invocation starts a Node process and opens the database: seconds each on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

describe('consigna CLI (embedded database)', () => {
  let canalId = '';

  it('creates a channel and prints its credentials as JSON', async () => {
    const result = await consigna([
      'channels',
      'create',
      '--name',
      'Promotora Sul',
      '--allow-ip',
      '10.0.0.0/8',
      '--allow-ip',
      '2001:db8::/32',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const issued = JSON.parse(result.stdout);
    rememberSecret(issued.clientSecret);
    expect(issued).toEqual({
      canalId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      nome: 'Promotora Sul',
      clientId: expect.stringMatching(/^cid_[A-Za-z0-9]{24}$/),
      clientSecret: expect.stringMatching(/^csk_[A-Za-z0-9]{48}$/),
      ipsPermitidos: ['10.0.0.0/8', '2001:db8::/32'],
    });
    canalId = issued.canalId;
    expect(fs.readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(path.join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
  });

  it('lists, deactivates, activates and rotates', async () => {
    const list = JSON.parse((await consigna(['channels', 'list', '--json'])).stdout);
    expect(list).toEqual([expect.objectContaining({ canalId, nome: 'Promotora Sul', ativo: true })]);
    expect(JSON.stringify(list)).not.toContain('csk_');

    expect((await consigna(['channels', 'deactivate', canalId])).stdout).toContain('inactive');
    expect(JSON.parse((await consigna(['channels', 'list', '--json'])).stdout)[0].ativo).toBe(false);
    expect((await consigna(['channels', 'activate', canalId])).stdout).toContain('active');

    const rotated = JSON.parse((await consigna(['channels', 'rotate-secret', canalId, '--json'])).stdout);
    rememberSecret(rotated.clientSecret);
    expect(rotated.clientSecret).toMatch(/^csk_/);
  });

  it('shows each channel’s endpoint health (none without a webhook)', async () => {
    expect((await consigna(['channels', 'health'])).stdout).toContain('No channel has a webhook registered.');
    expect(JSON.parse((await consigna(['channels', 'health', '--json'])).stdout)).toEqual([]);
  });

  it('sets, shows and removes a channel’s brand, validated as the API validates it', async () => {
    const logo = path.join(dataDir, 'logo.png');
    fs.writeFileSync(logo, makePng(64, 32, [10, 20, 30]));
    const set = await consigna([
      'channels',
      'brand',
      canalId,
      '--name',
      'Promotora Sul',
      '--color',
      '#FFD400',
      '--logo',
      logo,
      '--json',
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      nome: 'Promotora Sul',
      cor: '#ffd400',
      corAplicada: accentFor('#ffd400').accent,
      logo: { tipo: 'image/png', largura: 64, altura: 32 },
    });
    expect((await consigna(['channels', 'brand', canalId])).stdout).toContain('Promotora Sul  colour #ffd400');
    const bad = await consigna(['channels', 'brand', canalId, '--name', 'X', '--color', 'azul']);
    expect([bad.code, bad.stderr.trim()]).toEqual([1, 'Error: cor_invalida: cor inválida: use #RRGGBB, por exemplo #1A73E8.']);
    const svg = path.join(dataDir, 'logo.svg');
    fs.writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect((await consigna(['channels', 'brand', canalId, '--name', 'X', '--logo', svg])).stderr).toContain('logo_invalido');
    // Nothing of the refused attempts was stored.
    expect(JSON.parse((await consigna(['channels', 'brand', canalId, '--json'])).stdout).nome).toBe('Promotora Sul');
    expect((await consigna(['channels', 'brand', canalId, '--remove'])).stdout).toContain('Brand removed');
    expect((await consigna(['channels', 'brand', canalId])).code).toBe(1);
  });

  it('shows the status: queue, failing channels, the sweeper, table sizes', async () => {
    const status = JSON.parse((await consigna(['status', '--json'])).stdout);
    expect(status).toMatchObject({
      fila: { pendentes: 0, vencidas: 0, idadeMaisAntigaSegundos: 0 },
      canaisComFalha: [],
      bancoBytes: expect.any(Number),
    });
    expect(status.tabelas.map((t: { tabela: string }) => t.tabela)).toEqual(
      expect.arrayContaining(['links', 'deliveries', 'events']),
    );
    const text = (await consigna(['status'])).stdout;
    expect(text).toContain('queue: 0 pending, 0 due');
    expect(text).toMatch(/database: [\d.]+ MiB/);
  });

  it('refuses bad input with exit code 1 and no stack trace', async () => {
    for (const args of [
      ['channels', 'create'],
      ['channels', 'create', '--name', 'X', '--allow-ip', '300.1.1.1'],
      ['channels', 'deactivate', '00000000-0000-0000-0000-000000000000'],
      ['channels', 'explode'],
      ['channels', 'brand'],
      ['channels', 'brand', '00000000-0000-0000-0000-000000000000', '--name', 'X'],
      ['links', 'consent'],
      ['links', 'consent', '00000000-0000-0000-0000-000000000000'],
      ['links', 'explode'],
      ['nope'],
    ]) {
      const result = await consigna(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('stops with one line per wrong variable', async () => {
    const result = await consigna(['migrate'], { PORT: 'x', CONSIGNA_AMBIENTE: 'PROD' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT: expected an integer');
    expect(result.stderr).toContain('CONSIGNA_AMBIENTE: expected one of SANDBOX, REAL');
  });

  it('CONSIGNA_NODE_FLAGS replaces the heap flags given to Node', async () => {
    const result = await consigna(['channels', 'list'], { CONSIGNA_NODE_FLAGS: '--max-old-space-size=200 --no-such-v8-flag' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--no-such-v8-flag');
    expect((await consigna(['channels', 'list'], { CONSIGNA_NODE_FLAGS: 'none' })).code).toBe(0);
  });

  /** `consigna serve --demo` on the embedded database in `dir`, once it listens. */
  async function serveDemo(dir: string): Promise<{ child: ReturnType<typeof spawn>; output: () => string }> {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve', '--demo'], {
      env: { ...process.env, DATABASE_URL: '', CONSIGNA_DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    // A fresh data folder runs initdb first: tens of seconds on a busy 2-core machine.
    await waitFor(() => output.includes('listening'), { timeoutMs: 60_000, what: 'serve to start' });
    return { child, output: () => output };
  }

  it('says clearly that the data folder is busy while the service runs (commands other than channels)', async () => {
    const { child, output: printed } = await serveDemo(dataDir);
    const output = printed();
    // --demo creates its channel once per installation, even when others exist.
    const secret = /client_secret: (\S+)/.exec(output)?.[1];
    rememberSecret(secret);

    // bin/consigna.js re-executed itself (same pid) with the service's heap flags, and
    // the embedded database's: WebAssembly on the baseline compiler only.
    const argv = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toEqual(expect.arrayContaining(['--max-semi-space-size=16', '--max-old-space-size=160', '--liftoff-only']));
    expect(argv).not.toContain('--initial-old-space-size=120');

    // Channels go through the running service (channels-running.test.ts); other commands say it is busy.
    expect((await consigna(['channels', 'list'])).stdout).toContain('Canal de demonstração');
    const busy = await consigna(['status']);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/data folder .* is in use by another Consigna process \(pid \d+\)/);
    expect(busy.stderr).not.toMatch(/\n\s+at /);

    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect((await consigna(['channels', 'list'])).code).toBe(0);
  });

  it('npm start prints demo credentials only on the first start', async () => {
    const again = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-demo-'));
    const start = async () => {
      const { child, output } = await serveDemo(again);
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
      return output();
    };
    const first = await start();
    rememberSecret(/client_secret: (\S+)/.exec(first)?.[1]);
    expect(first).toMatch(/client_id: +cid_/);
    expect(first).toContain('/docs');
    const second = await start();
    expect(second).not.toContain('client_secret');
    fs.rmSync(again, { recursive: true, force: true });
  });
});

describeOnPostgres('consigna CLI (PostgreSQL)', () => {
  it('requires a master key and manages channels at any time', async () => {
    const database = await createTestDatabase();
    try {
      const missing = await consigna(['channels', 'list'], { DATABASE_URL: database.url! });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('CONSIGNA_MASTER_KEY: required with DATABASE_URL');
      const env = { DATABASE_URL: database.url!, CONSIGNA_MASTER_KEY: 'cd'.repeat(32) };
      const [a, b] = await Promise.all([consigna(['migrate'], env), consigna(['migrate'], env)]);
      expect([a.code, b.code]).toEqual([0, 0]);
      const created = JSON.parse((await consigna(['channels', 'create', '--name', 'PG', '--json'], env)).stdout);
      rememberSecret(created.clientSecret);
      const list = JSON.parse((await consigna(['channels', 'list', '--json'], env)).stdout);
      expect(list.map((c: { canalId: string }) => c.canalId)).toEqual([created.canalId]);
    } finally {
      await database.drop();
    }
  });

  it('exports a link’s consent evidence: version, text, time, IP and user agent', async () => {
    const database = await createTestDatabase();
    const masterKey = 'cd'.repeat(32);
    const service = await startTestService({ database, env: { CONSIGNA_MASTER_KEY: masterKey } });
    try {
      const auth = await service.bearer(await service.createChannel());
      const link = (await createLinkVia(service, auth, { cpf: VALID_CPFS[0] })).json();
      const env = { DATABASE_URL: database.url!, CONSIGNA_MASTER_KEY: masterKey };
      const before = await consigna(['links', 'consent', link.id], env);
      expect(before.stdout).toContain('has not consented');
      const journey = new JourneyClient(service, link.url);
      await journey.upToReview();
      const exported = JSON.parse((await consigna(['links', 'consent', link.id, '--json'], env)).stdout);
      expect(exported).toEqual({
        linkId: link.id,
        canalId: expect.any(String),
        consentimento: {
          versao: CONSENT_VERSION,
          texto: CONSENT_TEXTS[CONSENT_VERSION],
          concedidoEm: expect.any(String),
          origem: 'pagina',
          ip: '127.0.0.1',
          userAgent: 'lightMyRequest',
          selo: 'valido',
        },
      });
      const text = (await consigna(['links', 'consent', link.id], env)).stdout;
      expect(text).toContain('IP 127.0.0.1');
      expect(text).toContain(`text version ${CONSENT_VERSION}`);
    } finally {
      await service.close();
      await database.drop();
    }
  });

  it('shows the status while the service runs: pending deliveries, the oldest due, the sweeper’s last round', async () => {
    const database = await createTestDatabase();
    const masterKey = 'cd'.repeat(32);
    const service = await startTestService({
      database,
      env: { CONSIGNA_MASTER_KEY: masterKey, CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true' },
    });
    try {
      const auth = await service.bearer(await service.createChannel({ name: 'Canal Status' }));
      const hook = await service.inject({
        method: 'PUT',
        url: '/v1/webhooks',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: 'http://127.0.0.1:9/webhook' }),
      });
      expect(hook.statusCode).toBe(201);
      rememberSecret(hook.json().segredo);
      const link = (await createLinkVia(service, auth, { cpf: VALID_CPFS[1] })).json();
      const journey = new JourneyClient(service, link.url);
      await journey.upToReview();
      await journey.post('proposta'); // two events, no worker here: both deliveries wait
      await sweepOnce(service.ctx);
      const env = { DATABASE_URL: database.url!, CONSIGNA_MASTER_KEY: masterKey };
      const status = JSON.parse((await consigna(['status', '--json'], env)).stdout);
      expect(status.fila).toMatchObject({ pendentes: 2, vencidas: 2, maisAntigaVencidaEm: expect.any(String) });
      expect(status.ultimaVarredura).toMatchObject({ em: expect.any(String), duracaoMs: expect.any(Number) });
      const text = (await consigna(['status'], env)).stdout;
      expect(text).toContain('queue: 2 pending, 2 due, oldest due since');
      expect(text).toContain('sweeper: last round');
      expect(text).toMatch(/ {2}deliveries +[\d.]+ MiB/);
    } finally {
      await service.close();
      await database.drop();
    }
  });

  it('fails fast and clearly when the database cannot be reached', async () => {
    const port = await freePort();
    const result = await consigna(['migrate'], {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x`,
      CONSIGNA_MASTER_KEY: 'cd'.repeat(32),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot reach the database');
  });

  it('says when the database named in DATABASE_URL does not exist, or refuses the credentials', async () => {
    const missing = new URL(process.env.DATABASE_URL!);
    missing.pathname = '/consigna_nao_existe';
    const result = await consigna(['migrate'], { DATABASE_URL: missing.toString(), CONSIGNA_MASTER_KEY: 'cd'.repeat(32) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the database named in DATABASE_URL does not exist');
    // Trust authentication here: a role that does not exist is the refusal this server can give.
    const stranger = new URL(process.env.DATABASE_URL!);
    stranger.username = 'consigna_ninguem';
    const refused = await consigna(['migrate'], { DATABASE_URL: stranger.toString(), CONSIGNA_MASTER_KEY: 'cd'.repeat(32) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the database refused the credentials in DATABASE_URL');
  });
});
