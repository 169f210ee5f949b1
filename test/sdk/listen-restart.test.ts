// `listen` (packages/sdk/src/listen.ts) across a restart of the service: a real `consigna
// serve` process on a database of its own (an embedded data folder, or PostgreSQL when
// DATABASE_URL is set), stopped with SIGTERM and started again on the same database and
// port while `listen` runs. `listen` notices the stream ended, reconnects to the new
// process with Last-Event-ID, and forwards what comes next to a real local receiver with a
// signature that verifies with the channel's webhook secret; every event the inbox kept is
// forwarded exactly once, including those it stored before `listen` was back.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { killAll, startConsigna, type ConsignaProcess } from '../helpers/processes.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { freePort } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';
import { Consigna, listen, verifyWebhook, type Inbox } from '../../packages/sdk/src/index.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/consigna.js');
const CLI = path.resolve(import.meta.dirname, '../../packages/sdk/src/cli.ts');

vi.setConfig({ testTimeout: 180_000 });

let database: TestDatabase;
let dataDir: string;
let env: Record<string, string>;
let baseUrl: string;
let serve: ConsignaProcess;
const channels: Array<{ clientId: string; clientSecret: string }> = [];
const stops: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-listen-restart-'));
  // One port for both processes: the inbox's URL (which `listen` follows) is built from it.
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    LOG_LEVEL: 'warn',
    CONSIGNA_DATA_DIR: dataDir,
    DATABASE_URL: database.url ?? '',
    // The embedded database keeps its key in the data folder; PostgreSQL takes it from here.
    CONSIGNA_MASTER_KEY: database.url ? randomBytes(32).toString('hex') : '',
  };
  // The operator's command, before the service holds the data folder.
  for (const name of ['Canal Listen', 'Canal Listen Aguardado']) {
    const created = await promisify(execFile)(process.execPath, [BIN, 'channels', 'create', '--name', name, '--json'], {
      env: { ...process.env, ...env },
    });
    const channel = JSON.parse(created.stdout) as { clientId: string; clientSecret: string };
    rememberSecret(channel.clientSecret);
    channels.push(channel);
  }
  serve = await startConsigna('serve', env);
}, 120_000);

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  await killAll();
  await database?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** SIGTERM, the process gone (exit 0), then a new `consigna serve` on the same database and port. */
async function restartService(whileDown: () => Promise<void> = async () => {}): Promise<void> {
  expect(await serve.kill('SIGTERM')).toBe(0);
  await whileDown();
  serve = await startConsigna('serve', env);
}

async function localReceiver(): Promise<Receiver> {
  const receiver = await startReceiver({ path: '/webhooks' });
  stops.push(() => receiver.close());
  return receiver;
}

/** A link through the simulated journey: two proposal events, delivered to the inbox by the worker. */
async function proposalEvents(consigna: Consigna): Promise<void> {
  const link = await consigna.createLink({ cpf: '12345678909' });
  rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
  expect((await consigna.simulateJourney(link.id)).status).toBe('CONCLUIDO');
}

/**
 * Every event the inbox kept arrived at the local receiver exactly once, byte for byte as
 * the inbox received it, and verifies with the channel's webhook secret.
 */
async function expectEverythingForwarded(consigna: Consigna, inbox: Inbox, local: Receiver, secret: string): Promise<void> {
  const kept = (await consigna.listInboxEvents(inbox)).eventos;
  const key = (eventId: unknown, attempt: unknown) => `${String(eventId)} tentativa ${String(attempt)}`;
  expect(
    local.requests.map((r) => key(r.headers['x-service-event-id'], r.headers['x-service-delivery-attempt'])).toSorted(),
  ).toEqual(kept.map((e) => key(e.eventoId, e.tentativa)).toSorted());
  for (const arrival of local.requests) {
    const event = verifyWebhook(arrival.body, arrival.headers['x-service-signature'] as string, secret);
    expect(event.id).toBe(arrival.headers['x-service-event-id']);
    const stored = kept.find((e) => e.eventoId === event.id);
    expect(JSON.parse(arrival.body)).toEqual(stored?.corpo);
  }
}

describe('listen across a restart of the service (real `consigna serve` processes)', () => {
  it('the command reconnects to the restarted service and forwards its events, signed, with nothing missed', async () => {
    const credentials = channels[0]!;
    const consigna = new Consigna({ baseUrl, ...credentials });
    const local = await localReceiver();
    const child = spawn(process.execPath, [CLI, 'listen', '--forward-to', local.url], {
      env: {
        PATH: process.env.PATH,
        CONSIGNA_URL: baseUrl,
        CONSIGNA_CLIENT_ID: credentials.clientId,
        CONSIGNA_CLIENT_SECRET: credentials.clientSecret,
      },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    stops.push(() => void child.kill('SIGKILL'));
    await waitFor(() => output.includes('recebendo eventos'), { timeoutMs: 20_000, what: 'the command to listen' });
    const secret = /segredo do webhook[^:]*: (whsec_\S+)/.exec(output)?.[1];
    rememberSecret(secret);
    expect(secret).toBeDefined();

    await consigna.sendTestEvent();
    await proposalEvents(consigna);
    await waitFor(() => local.requests.length >= 3, { timeoutMs: 15_000, what: 'three events before the restart' });

    await restartService(() =>
      waitFor(() => output.includes('conexão com o serviço perdida'), { timeoutMs: 10_000, what: 'the lost stream noticed' }),
    );
    await waitFor(() => output.includes('reconectado'), { timeoutMs: 20_000, what: `the reconnection: ${output.slice(-500)}` });

    const test = await consigna.sendTestEvent();
    expect(test.entregue).toBe(true);
    await proposalEvents(consigna);
    await waitFor(() => local.requests.length >= 6, { timeoutMs: 15_000, what: 'three events after the restart' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(local.requests).toHaveLength(6);
    expect(local.requests.slice(3).some((r) => r.headers['x-service-event-type'] === 'webhook.teste')).toBe(true);
    await expectEverythingForwarded(consigna, await consigna.ensureInbox(), local, secret!);
    expect(output.match(/→ 200/g)).toHaveLength(6);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).not.toContain(credentials.clientSecret);
  });

  it('forwards, once each, the events the restarted service stored before listen was back', async () => {
    const consigna = new Consigna({ baseUrl, ...channels[1]! });
    const local = await localReceiver();
    // The stream's reconnection waits here until the test opens the gate.
    let gate: Promise<void> = Promise.resolve();
    let open = (): void => {};
    const gated: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/eventos/fluxo')) await gate;
      return fetch(input, init);
    };
    const controller = new AbortController();
    const statuses: string[] = [];
    const started = await listen({
      consigna,
      forwardTo: local.url,
      signal: controller.signal,
      onStatus: (s) => statuses.push(s),
      fetch: gated,
    });
    rememberSecret(started.newSecret);
    stops.push(async () => {
      open();
      controller.abort();
      await started.done;
    });
    await waitFor(() => statuses.some((s) => s.startsWith('recebendo eventos')), { what: 'the stream to open' });
    await consigna.sendTestEvent();
    await waitFor(() => local.requests.length === 1, { what: 'the first event' });

    gate = new Promise((resolve) => (open = resolve));
    await restartService(() =>
      waitFor(() => statuses.some((s) => s.startsWith('conexão com o serviço perdida')), { what: 'the lost stream noticed' }),
    );
    // Stored by the new process while nobody streams.
    await consigna.sendTestEvent();
    await proposalEvents(consigna);
    await waitFor(async () => (await consigna.listInboxEvents(started.inbox)).eventos.length === 4, {
      timeoutMs: 15_000,
      what: 'the inbox to keep four events',
    });
    expect(local.requests).toHaveLength(1);

    open();
    await waitFor(() => statuses.some((s) => s.startsWith('reconectado')), { timeoutMs: 15_000, what: 'the reconnection' });
    await waitFor(() => local.requests.length >= 4, { timeoutMs: 15_000, what: 'the events stored meanwhile' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(local.requests).toHaveLength(4);
    await expectEverythingForwarded(consigna, started.inbox, local, started.newSecret!);
  });
});
