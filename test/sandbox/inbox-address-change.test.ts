// The sandbox inbox is the channel's own whatever the service's address (docs/rules.md
// §5.5): a webhook registered with the inbox URL of the day keeps reaching the inbox after
// the service restarts on another PORT (the same database), is accepted when registered
// again by hand, and `listen` (the library and the command) takes it as the inbox without
// asking. The inbox is known by its path and token, the token belonging to the channel:
// another channel's token is refused on any host, and a URL elsewhere with the inbox path
// and a token of no inbox stays a foreign URL, delivered over the network under its rules.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/db.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';
import { Consigna, ConsignaError, listen, verifyWebhook, type ForwardResult, type Inbox } from '../../packages/sdk/src/index.ts';

const CLI = path.resolve(import.meta.dirname, '../../packages/sdk/src/cli.ts');
const FAST = { CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1' };
const stops: Array<() => Promise<void> | void> = [];

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

const code = (error: unknown) => (error instanceof ConsignaError ? error.code : String(error));
const unknownToken = () => `sbx_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x').slice(0, 32)}`;

async function receiver(): Promise<Receiver> {
  const started = await startReceiver({ path: '/webhooks' });
  stops.push(() => started.close());
  return started;
}

describe('after the service moves to another port, on the same database', () => {
  let store: { database: TestDatabase } | { dataDir: string };
  let before: TestService;
  let after: TestService;
  let credentials: { clientId: string; clientSecret: string };
  let other: Consigna;
  let registered: Inbox;
  let secret: string;

  beforeAll(async () => {
    store = usingPostgres()
      ? { database: await createTestDatabase() }
      : { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-inbox-moved-')) };
    before = await startTestService({ listen: true, worker: true, env: FAST, ...store });
    credentials = await before.createChannel({ name: 'Canal que muda de porta' });
    const consigna = new Consigna({ baseUrl: before.baseUrl, ...credentials });
    registered = await consigna.ensureInbox();
    rememberSecret(registered.url.slice(registered.url.lastIndexOf('/') + 1));
    secret = (await consigna.putWebhook({ url: registered.url })).segredo!;
    rememberSecret(secret);
    const otherCredentials = await before.createChannel({ name: 'Outro canal' });
    await before.close();

    after = await startTestService({ listen: true, worker: true, env: FAST, ...store });
    other = new Consigna({ baseUrl: after.baseUrl, ...otherCredentials });
  }, 120_000);

  afterAll(async () => {
    // A connection this process's fetch opened and never used (undici opens one when a
    // request finds its pool busy, then sends the request on a freed one) is not idle to
    // Node's server: the service's close would wait for the 60 s headers timeout.
    after?.app.server.closeAllConnections();
    await after?.close();
    if (store && 'database' in store) await store.database.drop();
    if (store && 'dataDir' in store) fs.rmSync(store.dataDir, { recursive: true, force: true });
  });

  const channel = () => new Consigna({ baseUrl: after.baseUrl, ...credentials });

  it('still delivers into the inbox registered at the old address: the test event and the worker’s deliveries', async () => {
    expect(new URL(after.baseUrl).port).not.toBe(new URL(before.baseUrl).port);
    const consigna = channel();
    expect((await consigna.getWebhook()).url).toBe(registered.url);
    const current = await consigna.ensureInbox();
    expect(current.url).not.toBe(registered.url);
    expect(current.url.slice(current.url.lastIndexOf('/'))).toBe(registered.url.slice(registered.url.lastIndexOf('/')));

    expect(await consigna.sendTestEvent()).toMatchObject({ entregue: true, httpStatus: 200 });
    const link = await consigna.createLink({ cpf: '12345678909' });
    rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
    await consigna.simulateJourney(link.id);
    await waitFor(async () => (await consigna.listDeliveries({ status: 'ENTREGUE' })).entregas.length === 2, {
      timeoutMs: 20_000,
      intervalMs: 200,
      what: 'both proposal deliveries ENTREGUE',
    });
    const kept = (await consigna.listInboxEvents(current)).eventos;
    expect(kept.map((e) => [e.tipo, e.assinaturaValida, e.tentativa]).toSorted()).toEqual([
      ['proposta.aguardando_formalizacao', true, '1'],
      ['proposta.criada', true, '1'],
      ['webhook.teste', true, '1'],
    ]);
  });

  it('accepts the old address registered again by hand, and refuses it to another channel in any form', async () => {
    const consigna = channel();
    for (const url of [registered.url, `${registered.url}?x=1`, `${registered.url}/`]) {
      const updated = await consigna.putWebhook({ url });
      expect(updated.url).toBe(url);
      expect(updated.segredo).toBeUndefined();
      expect(await consigna.sendTestEvent()).toMatchObject({ entregue: true, httpStatus: 200 });
    }
    // Its own token on a host that is not ours at all is its inbox too: delivered in-process.
    const elsewhere = registered.url.replace(new URL(registered.url).origin, 'http://127.0.0.1:9');
    await consigna.putWebhook({ url: elsewhere });
    expect(await consigna.sendTestEvent()).toMatchObject({ entregue: true, httpStatus: 200 });
    await consigna.putWebhook({ url: registered.url });

    for (const url of [registered.url, `${registered.url}?x=1`, elsewhere, `${elsewhere}?x=1`]) {
      expect([url, code(await other.putWebhook({ url }).catch((e: unknown) => e))]).toEqual([url, 'url_invalida']);
    }
    // The inbox path with a token of no inbox, off our address: a foreign URL, under the
    // network rules (http and loopback are refused here).
    const foreign = `http://127.0.0.1:9/v1/sandbox/receptor/${unknownToken()}`;
    expect(code(await consigna.putWebhook({ url: foreign }).catch((e: unknown) => e))).toBe('url_invalida');
    const onOurAddress = `${after.baseUrl}/v1/sandbox/receptor/${unknownToken()}`;
    expect(code(await consigna.putWebhook({ url: onOurAddress }).catch((e: unknown) => e))).toBe('url_invalida');
    expect((await consigna.getWebhook()).url).toBe(registered.url);
  });

  it('`listen` takes the old address as the channel’s inbox without asking, and forwards its events', async () => {
    const consigna = channel();
    const local = await receiver();
    const asked: string[] = [];
    const forwards: ForwardResult[] = [];
    const controller = new AbortController();
    const started = await listen({
      consigna,
      forwardTo: local.url,
      signal: controller.signal,
      confirmReplace: async (url) => {
        asked.push(url);
        return false;
      },
      onForward: (result) => forwards.push(result),
    });
    stops.push(async () => {
      controller.abort();
      await started.done;
    });
    expect(asked).toEqual([]);
    expect(started.newSecret).toBeUndefined();
    expect((await consigna.getWebhook()).url).toBe(registered.url);
    await waitFor(async () => (await consigna.sendTestEvent()).entregue && forwards.length > 0, {
      intervalMs: 300,
      what: 'a test event forwarded',
    });
    expect(forwards[0]).toMatchObject({ status: 200, event: { tipo: 'webhook.teste', respondeuStatus: 200 } });
    expect(verifyWebhook(local.requests[0]!.body, local.requests[0]!.headers['x-service-signature'] as string, secret).tipo).toBe(
      'webhook.teste',
    );
    controller.abort();
    await started.done;

    // The command, with no terminal to ask on: it would stop at once had it taken the
    // registered URL for another one.
    const child = spawn(process.execPath, [CLI, 'listen', '--forward-to', local.url], {
      env: {
        PATH: process.env.PATH,
        CONSIGNA_URL: after.baseUrl,
        CONSIGNA_CLIENT_ID: credentials.clientId,
        CONSIGNA_CLIENT_SECRET: credentials.clientSecret,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    stops.push(() => void child.kill('SIGKILL'));
    await waitFor(() => output.includes('recebendo eventos') || child.exitCode !== null, {
      timeoutMs: 20_000,
      what: 'the command to listen',
    });
    expect(output).not.toContain('Rode de novo com --sim');
    expect(output).toContain('o segredo do webhook foi mostrado quando ele foi registrado');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect((await consigna.getWebhook()).url).toBe(registered.url);
  });
});

describe('the inbox path on a host that is not ours', () => {
  let service: TestService;
  beforeAll(async () => {
    // Loopback receivers allowed: a foreign URL is delivered to one over the network.
    service = await startTestService({ listen: true, env: { CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true' } });
  });
  afterAll(() => service?.close());

  async function channel() {
    const credentials = await service.createChannel();
    const consigna = new Consigna({ baseUrl: service.baseUrl, ...credentials });
    const inbox = await consigna.ensureInbox();
    rememberSecret(inbox.url.slice(inbox.url.lastIndexOf('/') + 1));
    return { consigna, inbox, token: inbox.url.slice(inbox.url.lastIndexOf('/') + 1) };
  }

  it('with a token of no inbox is a foreign URL: delivered over the network', async () => {
    const { consigna } = await channel();
    const foreign = await receiver();
    const url = `${new URL(foreign.url).origin}/v1/sandbox/receptor/${unknownToken()}`;
    rememberSecret((await consigna.putWebhook({ url })).segredo);
    expect(await consigna.sendTestEvent()).toMatchObject({ entregue: true, httpStatus: 200 });
    expect(foreign.requests.map((r) => [r.method, r.url])).toEqual([['POST', new URL(url).pathname]]);
  });

  it('with the channel’s own token is its inbox: delivered in-process, nothing sent to that host', async () => {
    const { consigna, inbox, token } = await channel();
    const foreign = await receiver();
    const url = `${new URL(foreign.url).origin}/v1/sandbox/receptor/${token}`;
    rememberSecret((await consigna.putWebhook({ url })).segredo);
    expect(await consigna.sendTestEvent()).toMatchObject({ entregue: true, httpStatus: 200 });
    expect(foreign.connections).toBe(0);
    expect((await consigna.listInboxEvents(inbox)).eventos.map((e) => [e.tipo, e.assinaturaValida])).toEqual([
      ['webhook.teste', true],
    ]);
  });

  it('with another channel’s token is refused, with or without a query', async () => {
    const victim = await channel();
    const { consigna } = await channel();
    const foreign = await receiver();
    for (const suffix of ['', '?x=1', '/']) {
      const url = `${new URL(foreign.url).origin}/v1/sandbox/receptor/${victim.token}${suffix}`;
      expect(code(await consigna.putWebhook({ url }).catch((e: unknown) => e))).toBe('url_invalida');
    }
    expect(foreign.connections).toBe(0);
    expect((await victim.consigna.listInboxEvents(victim.inbox)).eventos).toEqual([]);
  });
});
