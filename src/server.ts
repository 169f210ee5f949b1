// Starting and stopping the service's roles: api (HTTP), worker (webhook delivery)
// and sweeper (periodic upkeep). `serve` runs all three in one process.
import path from 'node:path';
import type { Config } from './config/config.ts';
import type { Context } from './context.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { deriveKeys, loadOrCreateMasterKey } from './crypto/keys.ts';
import { systemClock, type Clock } from './clock.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import { buildApp, type App } from './http/app.ts';
import { startSweeper } from './sweeper.ts';
import { createInboxReceiver } from './sandbox/inbox.service.ts';
import { createSandboxBank } from './bank/sandbox-bank.ts';
import { createOutbound } from './webhooks/outbound.ts';
import { createDeliverer, USER_AGENT } from './webhooks/delivery/deliverer.ts';
import { startDeliveryWorker } from './webhooks/delivery/worker.ts';
import { metricsFor } from './observability/metrics.ts';

export interface Roles {
  api: boolean;
  worker: boolean;
  sweeper: boolean;
}

export interface Running {
  ctx: Context;
  app: App | undefined;
  /** The address the HTTP server listens on (when the api role runs). */
  url: string | undefined;
  stop(): Promise<void>;
}

/** Opens the database (embedded or PostgreSQL), applies migrations and derives keys. */
export async function openContext(
  config: Config,
  options: { log?: Logger; clock?: Clock } = {},
): Promise<Context & { release(): Promise<void> }> {
  const log = options.log ?? createLogger(config.logLevel);
  let unlock = () => {};
  let masterKey = config.masterKey;
  if (!config.databaseUrl) {
    unlock = lockDataDir(config.dataDir);
    masterKey ??= loadOrCreateMasterKey(config.dataDir);
  }
  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: path.join(config.dataDir, 'pglite'),
      poolSize: config.pgPoolSize,
      log,
    });
    await migrate(database);
  } catch (error) {
    unlock();
    throw error;
  }
  const clock = options.clock ?? systemClock;
  const outbound = createOutbound({
    allowInsecure: config.allowInsecureWebhooks,
    timeoutMs: config.worker.deliveryTimeoutMs,
    userAgent: USER_AGENT,
    // A socket for every attempt slot: an attempt that queued for a socket could use
    // up its timeout without being sent, and still count as one of the seven.
    connectionsPerOrigin: config.worker.concurrency,
  });
  const ctx: Context & { release(): Promise<void> } = {
    config,
    database,
    keys: deriveKeys(masterKey!),
    clock,
    log,
    bank: createSandboxBank({ signingBaseUrl: config.publicBaseUrl }),
    deliverer: undefined as never,
    async release() {
      await outbound.close();
      await database.close();
      unlock();
    },
  };
  ctx.deliverer = createDeliverer({ outbound, clock, publicBaseUrl: config.publicBaseUrl, inbox: createInboxReceiver(ctx) });
  return ctx;
}

export async function startRoles(ctx: Context & { release(): Promise<void> }, roles: Roles): Promise<Running> {
  const stoppers: Array<() => Promise<void>> = [];
  let app: App | undefined;
  let url: string | undefined;

  if (roles.sweeper) stoppers.push(startSweeper(ctx));
  if (roles.worker) {
    const metrics = metricsFor(ctx);
    const worker = await startDeliveryWorker(ctx, { onAttempt: (claimed, result) => metrics.observeAttempt(claimed, result) });
    stoppers.push(() => worker.stop());
  }
  if (roles.api) {
    app = await buildApp(ctx);
    url = await app.listen({ port: ctx.config.port, host: ctx.config.host });
    const server = app;
    // HTTP first: stop accepting, finish in-flight requests.
    stoppers.unshift(() => server.close());
  }

  let stopping: Promise<void> | undefined;
  return {
    ctx,
    app,
    url,
    stop() {
      stopping ??= (async () => {
        for (const stop of stoppers) await stop();
        await ctx.release();
      })();
      return stopping;
    },
  };
}
