// Backups of the embedded database (README "Backups"), with real processes: `consigna
// backup` while `serve` runs with deliveries waiting, `consigna restore` into an empty
// folder with the master key, and the restored service delivers them, signed with the
// same webhook secret, for the same links and proposals, to the same channel credentials.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it, vi } from 'vitest';
import { killAll, startConsigna } from '../helpers/processes.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { describeOnEmbedded } from '../helpers/db.ts';
import { waitFor } from '../helpers/wait.ts';
import { signedWith } from '../webhooks/support.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/consigna.js');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-backup-'));
const receivers: Receiver[] = [];

afterAll(async () => {
  await killAll();
  await Promise.all(receivers.map((r) => r.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

vi.setConfig({ testTimeout: 180_000 });

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

async function call(url: string, method: string, pathname: string, auth: string, body?: unknown) {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: { authorization: auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as Record<string, unknown> };
}

async function token(url: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${url}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  expect(response.status).toBe(200);
  const { access_token: accessToken } = (await response.json()) as { access_token: string };
  rememberSecret(accessToken);
  return `Bearer ${accessToken}`;
}

const EMBEDDED_ONLY = 'the backup exists for the embedded database only; PostgreSQL has its own tools (pg_dump, pg_restore)';
describeOnEmbedded('consigna backup and restore (embedded database, real processes)', EMBEDDED_ONLY, () => {
  it('backs up a running service with pending deliveries; the restored one delivers them with the same secrets', async () => {
    const original = path.join(root, 'original');
    const env = { CONSIGNA_DATA_DIR: original, CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true', CONSIGNA_RETRY_DELAYS: '2,2,2,2,2,2' };
    const created = await consigna(['channels', 'create', '--name', 'Canal Backup', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const channel = JSON.parse(created.stdout) as { clientId: string; clientSecret: string };
    rememberSecret(channel.clientSecret);

    // Nothing listens here yet: every attempt fails and the deliveries wait.
    const receiver = await startReceiver();
    receivers.push(receiver);
    const port = receiver.port;
    await receiver.close();

    const serve = await startConsigna('serve', env);
    const auth = await token(serve.url, channel.clientId, channel.clientSecret);
    const hook = await call(serve.url, 'PUT', '/v1/webhooks', auth, { url: `http://127.0.0.1:${port}/webhook` });
    expect(hook.status).toBe(201);
    const secret = hook.body.segredo as string;
    rememberSecret(secret);
    const link = await call(serve.url, 'POST', '/v1/links', auth, { cpf: '12345678909', referenciaExterna: 'backup-1' });
    expect(link.status).toBe(201);
    rememberSecret(String(link.body.url).split('/').pop()!);
    const linkId = link.body.id as string;
    expect((await call(serve.url, 'POST', `/v1/links/${linkId}/jornada/simular`, auth)).status).toBe(200);
    await waitFor(
      async () => {
        const list = await call(serve.url, 'GET', '/v1/webhooks/entregas?status=PENDENTE', auth);
        return (list.body.entregas as Array<{ tentativas: number }>).filter((d) => d.tentativas >= 1).length === 2;
      },
      { timeoutMs: 30_000, what: 'two deliveries attempted and waiting' },
    );

    // While it runs: the service writes the backup itself.
    const file = path.join(root, 'consigna.backup');
    const backup = await consigna(['backup', file], env);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('Backup written to');
    expect(fs.statSync(file).size).toBeGreaterThan(1000);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await serve.kill('SIGTERM')).toBe(0);
    const keyFile = path.join(original, 'master.key');
    // Stopped, the command opens the data folder itself.
    const stopped = await consigna(['backup', path.join(root, 'stopped.backup')], env);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(fs.statSync(path.join(root, 'stopped.backup')).size).toBeGreaterThan(1000);

    // Refused: a folder in use, a file that is not a backup, a key that does not open it.
    const busy = await consigna(['restore', file, '--key', keyFile], env);
    expect([busy.code, busy.stderr]).toEqual([1, expect.stringContaining('is not empty')]);
    const garbage = path.join(root, 'not-a-backup');
    fs.writeFileSync(garbage, 'not a backup');
    const wrongFile = await consigna(['restore', garbage, '--key', keyFile], { CONSIGNA_DATA_DIR: path.join(root, 'x') });
    expect([wrongFile.code, wrongFile.stderr]).toEqual([1, expect.stringContaining('is not a Consigna backup')]);
    const otherKey = path.join(root, 'other.key');
    fs.writeFileSync(otherKey, 'ef'.repeat(32));
    const wrongKey = await consigna(['restore', file, '--key', otherKey], { CONSIGNA_DATA_DIR: path.join(root, 'y') });
    expect([wrongKey.code, wrongKey.stderr]).toEqual([1, expect.stringContaining('does not open')]);
    expect(fs.existsSync(path.join(root, 'y'))).toBe(false);
    const noKey = await consigna(['restore', file], { CONSIGNA_DATA_DIR: path.join(root, 'z') });
    expect([noKey.code, noKey.stderr]).toEqual([1, expect.stringContaining('needs the key')]);

    const restoredDir = path.join(root, 'restored');
    const restored = await consigna(['restore', file, '--key', keyFile], { CONSIGNA_DATA_DIR: restoredDir });
    expect(restored.code, restored.stderr).toBe(0);
    // Restored files are the owner's only, like a new data folder (no group or other bit).
    const openToOthers = (entry: string): string[] => {
      const stat = fs.lstatSync(entry);
      const own = (stat.mode & 0o077) !== 0 ? [entry] : [];
      return stat.isDirectory() ? [...own, ...fs.readdirSync(entry).flatMap((n) => openToOthers(path.join(entry, n)))] : own;
    };
    expect(openToOthers(restoredDir)).toEqual([]);

    // The endpoint is back; the restored service delivers what was waiting.
    const listening = await startReceiverOn(port);
    const again = await startConsigna('serve', { ...env, CONSIGNA_DATA_DIR: restoredDir });
    await waitFor(() => listening.requests.length >= 2, { timeoutMs: 30_000, what: 'the two waiting deliveries' });
    const types = listening.requests.map((r) => r.headers['x-service-event-type']).sort();
    expect(types).toEqual(['proposta.aguardando_formalizacao', 'proposta.criada']);
    for (const request of listening.requests) {
      expect(signedWith(request, secret)).toBe(true);
      expect(JSON.parse(request.body).link.id).toBe(linkId);
    }
    // Same channel credentials, same link and proposal.
    const auth2 = await token(again.url, channel.clientId, channel.clientSecret);
    const view = await call(again.url, 'GET', `/v1/links/${linkId}`, auth2);
    expect(view.body).toMatchObject({
      id: linkId,
      status: 'CONCLUIDO',
      referenciaExterna: 'backup-1',
      proposta: { status: 'AGUARDANDO_FORMALIZACAO' },
    });
    expect(await again.kill('SIGTERM')).toBe(0);
  });
});

/** A receiver on a given port (the webhook's address from before the backup). */
async function startReceiverOn(port: number): Promise<Receiver> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const receiver = await startReceiver({ port });
      receivers.push(receiver);
      return receiver;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`port ${port} stayed busy`);
}
