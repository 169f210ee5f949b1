// Real `consigna` processes for fault tests: several api/worker/serve processes on one
// PostgreSQL, killed and restarted like in production.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { inject } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase } from './db.ts';
import { rememberSecret } from './secrets.ts';
import { freePort } from './service.ts';
import { waitFor } from './wait.ts';
import { captureLogLine } from './secrets.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/consigna.js');

export interface ConsignaProcess {
  child: ChildProcess;
  role: 'serve' | 'api' | 'worker';
  /** http://127.0.0.1:port (api and serve). */
  url: string;
  output(): string;
  alive(): boolean;
  /** Resolves with the exit code (null when a signal killed it), without signalling. */
  exited(): Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<ConsignaProcess>();

export async function startConsigna(
  role: 'serve' | 'api' | 'worker',
  env: Record<string, string>,
  args: string[] = [],
): Promise<ConsignaProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, role, ...args], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    const text = String(chunk);
    output += text;
    for (const line of text.split('\n')) if (line) captureLogLine(line);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      resolve(code);
    }),
  );
  const proc: ConsignaProcess = {
    child,
    role,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    alive: () => exitCode === undefined,
    exited: () => exited,
    async kill(signal = 'SIGTERM') {
      if (exitCode === undefined) child.kill(signal);
      running.delete(proc);
      return exited;
    },
  };
  running.add(proc);
  try {
    await waitFor(
      () => {
        if (exitCode !== undefined) throw new Error(`consigna ${role} exited (${exitCode}): ${output.slice(-800)}`);
        return /listening on|worker running/.test(output);
      },
      { timeoutMs: 30_000, what: `consigna ${role} to start` },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${output.slice(-800)}`, { cause: error });
  }
  return proc;
}

/** Kills every process a test left running (afterAll). */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.kill('SIGKILL')));
}

export interface ServedChannel {
  serve: ConsignaProcess;
  /** Authorization header value of a fresh access token of the channel. */
  bearer: string;
  /** The same for each channel asked for (`channels`), the first one included. */
  bearers: string[];
  /** Kills the process and drops its database (or data folder). */
  close(): Promise<void>;
}

/**
 * A real `consigna serve` on a database of its own (PostgreSQL when DATABASE_URL is
 * set, an embedded data folder otherwise) with one channel, created by the operator's
 * command before the service holds the data folder, and a token of that channel.
 */
export async function serveWithChannel(env: Record<string, string> = {}, channels = 1): Promise<ServedChannel> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'consigna-serve-'));
  // The run's migrated data folder, copied: no initdb and no migrations per process.
  const template = inject('embeddedDataDir');
  if (!database.url && template && !env.CONSIGNA_MASTER_KEY) await cp(template, dataDir, { recursive: true });
  const fullEnv: Record<string, string> = {
    CONSIGNA_MASTER_KEY: 'ab'.repeat(32),
    LOG_LEVEL: 'warn',
    ...(database.url ? { DATABASE_URL: database.url } : { CONSIGNA_DATA_DIR: dataDir }),
    ...env,
  };
  const cleanup = async () => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const credentials: Array<{ clientId: string; clientSecret: string }> = [];
    for (let n = 1; n <= channels; n++) {
      const created = await promisify(execFile)(process.execPath, [BIN, 'channels', 'create', '--name', `Canal ${n}`, '--json'], {
        env: { ...process.env, ...fullEnv },
      });
      const issued = JSON.parse(created.stdout) as { clientId: string; clientSecret: string };
      rememberSecret(issued.clientSecret);
      credentials.push(issued);
    }
    const serve = await startConsigna('serve', fullEnv);
    const bearers: string[] = [];
    for (const { clientId, clientSecret } of credentials) {
      const answer = await fetch(`${serve.url}/v1/oauth/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      });
      const token = ((await answer.json()) as { access_token: string }).access_token;
      rememberSecret(token);
      bearers.push(`Bearer ${token}`);
    }
    return {
      serve,
      bearer: bearers[0]!,
      bearers,
      async close() {
        await serve.kill();
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
