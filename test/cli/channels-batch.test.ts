// Many channels in one command (`consigna channels create --count N` or several --name):
// each one works at the token endpoint of a real `consigna serve`, the secrets are all
// different, and bad input is refused in pt-BR with nothing created. On both databases.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { killAll, startConsigna } from '../helpers/processes.ts';
import { rememberSecret } from '../helpers/secrets.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/consigna.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-batch-'));
let database: TestDatabase | undefined;

afterAll(async () => {
  await killAll();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

vi.setConfig({ testTimeout: 120_000 });

interface Issued {
  canalId: string;
  nome: string;
  clientId: string;
  clientSecret: string;
  ipsPermitidos: string[];
}

async function env(): Promise<Record<string, string>> {
  database ??= await createTestDatabase();
  return {
    DATABASE_URL: database.url ?? '',
    CONSIGNA_DATA_DIR: dataDir,
    CONSIGNA_MASTER_KEY: 'ab'.repeat(32),
    LOG_LEVEL: 'warn',
  };
}

async function consigna(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, ...(await env()) } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const channelCount = async (): Promise<number> => JSON.parse((await consigna(['channels', 'list', '--json'])).stdout).length;

describe('consigna channels create, many at once', () => {
  const created: Issued[] = [];

  it('creates N channels in one command, each with its own credentials, listed in order', async () => {
    const result = await consigna(['channels', 'create', '--count', '25', '--name-prefix', 'Bench', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const issued = JSON.parse(result.stdout) as Issued[];
    for (const channel of issued) rememberSecret(channel.clientSecret);
    expect(issued.map((c) => c.nome)).toEqual(Array.from({ length: 25 }, (_, i) => `Bench-${String(i + 1).padStart(2, '0')}`));
    for (const channel of issued) {
      expect(channel).toEqual({
        canalId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        nome: expect.any(String),
        clientId: expect.stringMatching(/^cid_[A-Za-z0-9]{24}$/),
        clientSecret: expect.stringMatching(/^csk_[A-Za-z0-9]{48}$/),
        ipsPermitidos: [],
      });
    }
    expect(new Set(issued.map((c) => c.clientSecret)).size).toBe(25);
    expect(new Set(issued.map((c) => c.clientId)).size).toBe(25);
    expect(new Set(issued.map((c) => c.canalId)).size).toBe(25);
    created.push(...issued);

    // Several --name: one list, even in text; the allow-list applies to each.
    const named = await consigna(['channels', 'create', '--name', 'Fintech A', '--name', 'Fintech B', '--allow-ip', '127.0.0.1']);
    expect(named.code, named.stderr).toBe(0);
    const lines = named.stdout.trim().split('\n');
    expect(lines[0]).toBe('2 channels created (allowed IPs: 127.0.0.1/32).');
    const rows = lines.slice(2, 4).map((line) => line.split('  '));
    expect(rows.map((r) => r[3])).toEqual(['Fintech A', 'Fintech B']);
    for (const [canalId, clientId, clientSecret, nome] of rows) {
      rememberSecret(clientSecret);
      created.push({
        canalId: canalId!,
        clientId: clientId!,
        clientSecret: clientSecret!,
        nome: nome!,
        ipsPermitidos: ['127.0.0.1/32'],
      });
    }
    expect(lines.at(-1)).toContain('shown only now');

    // One --name keeps printing one object, as before.
    const single = JSON.parse((await consigna(['channels', 'create', '--name', 'Solo', '--json'])).stdout) as Issued;
    rememberSecret(single.clientSecret);
    expect(single.nome).toBe('Solo');
    created.push(single);

    const list = JSON.parse((await consigna(['channels', 'list', '--json'])).stdout) as Array<{ canalId: string }>;
    expect(list.map((c) => c.canalId)).toEqual(created.map((c) => c.canalId));
  });

  it('refuses bad input in pt-BR, with exit code 1, no stack trace and nothing created', async () => {
    const before = await channelCount();
    for (const [args, message] of [
      [['--count', '0'], '--count deve ser um número inteiro de 1 a 1000 (recebido "0")'],
      [['--count', '1001'], '--count deve ser um número inteiro de 1 a 1000 (recebido "1001")'],
      [['--count', 'dez'], '--count deve ser um número inteiro de 1 a 1000 (recebido "dez")'],
      [['--count', '2.5'], '--count deve ser um número inteiro de 1 a 1000 (recebido "2.5")'],
      [['--count', '3', '--name', 'X'], 'use --count com --name-prefix, não com --name'],
      [['--name-prefix', 'X'], '--name-prefix precisa de --count N'],
      [['--count', '3', '--name-prefix', ' '], '--name-prefix não pode ser vazio'],
      [['--name', 'Boa', '--name', ' '], '--name must have 1 to 200 characters'],
    ] as const) {
      const result = await consigna(['channels', 'create', ...args]);
      expect([result.code, result.stderr.trim()], args.join(' ')).toEqual([1, `Error: ${message}`]);
    }
    const tooMany = await consigna(['channels', 'create', ...Array.from({ length: 1001 }, (_, i) => ['--name', `C${i}`]).flat()]);
    expect([tooMany.code, tooMany.stderr.trim()]).toEqual([1, 'Error: no máximo 1000 --name por comando (recebidos 1001)']);
    expect(await channelCount()).toBe(before);
  });

  it('every channel created gets a token from the running service', async () => {
    const serve = await startConsigna('serve', await env());
    for (const channel of created) {
      const answer = await fetch(`${serve.url}/v1/oauth/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${channel.clientId}:${channel.clientSecret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      });
      expect(answer.status, channel.nome).toBe(200);
      const token = ((await answer.json()) as { access_token: string }).access_token;
      rememberSecret(token);
      const ping = await fetch(`${serve.url}/v1/ping`, { headers: { authorization: `Bearer ${token}` } });
      expect(ping.status, channel.nome).toBe(200);
    }
    // One channel's secret is not another's.
    const [a, b] = created;
    const crossed = await fetch(`${serve.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${a!.clientId}:${b!.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(crossed.status).toBe(401);
    expect(await serve.kill('SIGTERM')).toBe(0);
  });
});
