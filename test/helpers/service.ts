// A real service for tests: a real database (see db.ts), the real Fastify app, a
// captured logger, and helpers that go through the public API like a channel would.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/config/config.ts';
import { ManualClock, type Clock } from '../../src/clock.ts';
import { createLogger } from '../../src/observability/logger.ts';
import type { App } from '../../src/app.ts';
import type { Context } from '../../src/context.ts';
import type { BankGateway } from '../../src/bank/bank-gateway.ts';
import { createChannel, type IssuedCredentials } from '../../src/channels/channels.service.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import type { OutboundOptions } from '../../src/webhooks/outbound.ts';
import type { DeliveryWorker } from '../../src/webhooks/delivery/worker.ts';
import { openContext, startRoles, type Running } from '../../src/server.ts';
import { captureLogLine, rememberSecret } from './secrets.ts';
import { migratedImage } from './pglite-image.ts';

export interface TestServiceOptions {
  env?: Record<string, string>;
  /** A ManualClock to control time; the system clock otherwise. */
  clock?: Clock;
  /** Listen on a real port (needed by browsers and outbound receivers). */
  listen?: boolean;
  /** Share another service's database server-side (PostgreSQL only: a new pool, like another process). */
  database?: TestDatabase;
  /** Reuse another service's open database (works on PGlite too). */
  sameDatabaseAs?: TestService;
  /** PGlite data folder (to survive a restart); in memory otherwise. */
  dataDir?: string;
  /**
   * Replace the sandbox bank (the only edge tests may fake); a function receives the
   * service's context, whose own sandbox bank it may wrap.
   */
  bank?: BankGateway | ((ctx: Context) => BankGateway);
  /** Options of the outbound webhook client (e.g. a resolver pointed at loopback). */
  outbound?: Partial<OutboundOptions>;
  /** Run the delivery worker in this service too. */
  worker?: boolean;
}

export interface TestService {
  ctx: Context;
  app: App;
  config: Config;
  clock: Clock;
  database: TestDatabase;
  baseUrl: string;
  logs: string[];
  worker: DeliveryWorker | undefined;
  /** /metrics on its own address (CONSIGNA_METRICS_LISTEN, with `listen`). */
  metricsUrl: string | undefined;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  createChannel(options?: { name?: string; allowIps?: string[] }): Promise<IssuedCredentials>;
  token(channel: IssuedCredentials): Promise<string>;
  bearer(channel: IssuedCredentials): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const database = options.sameDatabaseAs?.database ?? options.database ?? (await createTestDatabase());
  const port = options.listen ? await freePort() : 3000;
  const masterKey =
    options.env?.CONSIGNA_MASTER_KEY ?? options.sameDatabaseAs?.config.masterKey?.toString('hex') ?? sharedMasterKey;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    CONSIGNA_MASTER_KEY: masterKey,
    LOG_LEVEL: 'info',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    // The test process's own event loop (the embedded database starting, other tests'
    // services) is no measure of this service's load: no shedding by delay unless a
    // test asks for it (test/http/load-shedding.test.ts does).
    CONSIGNA_SHED_EVENT_LOOP_DELAY_MS: '0',
    ...options.env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      const line = String(chunk);
      logs.push(line);
      captureLogLine(line);
      done();
    },
  });
  const log = createLogger(config.logLevel, sink);
  const shared = options.sameDatabaseAs?.ctx.database;
  // The service's own assembly (src/server.ts), with what a test puts in its place.
  const ctx = await openContext(config, {
    log,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(shared ? { database: shared } : {}),
    pgliteDir: options.dataDir ?? 'memory',
    ...(options.dataDir || shared ? {} : { pgliteImage: await migratedImage() }),
    ...(options.bank && typeof options.bank !== 'function' ? { bank: options.bank } : {}),
    ...(options.outbound ? { outbound: options.outbound } : {}),
  });
  if (typeof options.bank === 'function') ctx.bank = options.bank(ctx);
  let running: Running;
  try {
    running = await startRoles(ctx, {
      api: true,
      worker: options.worker ?? false,
      sweeper: false,
      listen: options.listen ?? false,
    });
  } catch (error) {
    await ctx.release();
    throw error;
  }
  const app = running.app!;
  const worker = running.worker;
  const clock = ctx.clock;

  const service: TestService = {
    ctx,
    app,
    config,
    clock,
    database,
    baseUrl: config.publicBaseUrl,
    logs,
    metricsUrl: running.metricsUrl,
    inject: (injectOptions) => app.inject(injectOptions),
    async createChannel(channelOptions = {}) {
      const issued = await createChannel(ctx, {
        name: channelOptions.name ?? 'Canal de teste',
        allowIps: channelOptions.allowIps ?? [],
      });
      rememberSecret(issued.clientSecret);
      return issued;
    },
    async token(channel) {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: channel.clientId,
          client_secret: channel.clientSecret,
        }).toString(),
      });
      if (response.statusCode !== 200) throw new Error(`token failed: ${response.statusCode} ${response.body}`);
      const token = response.json<{ access_token: string }>().access_token;
      rememberSecret(token);
      return token;
    },
    async bearer(channel) {
      return { authorization: `Bearer ${await service.token(channel)}` };
    },
    worker,
    async close() {
      try {
        await running.stop();
      } finally {
        // Also when closing failed (a test that closed the database itself): never leave
        // a test database behind on the server.
        if (!shared && !options.database && !options.dataDir) await database.drop();
      }
    },
  };
  return service;
}

// One key per test process; tests that need a specific key pass CONSIGNA_MASTER_KEY.
const sharedMasterKey = randomBytes(32).toString('hex');

export { ManualClock };
