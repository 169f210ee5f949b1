// Starting and stopping the service's roles: api (HTTP), worker (webhook delivery)
// and sweeper (periodic upkeep). `serve` runs all three in one process.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Config } from './config/config.ts';
import type { Context } from './context.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { restrictToOwner } from './db/data-dir-permissions.ts';
import { deriveKeys, loadOrCreateMasterKey } from './crypto/keys.ts';
import { systemClock, type Clock } from './clock.ts';
import { tracedBank, type BankGateway } from './bank/bank-gateway.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import type { App } from './app.ts';
import { createInboxReceiver } from './sandbox/inbox.service.ts';
import { createSandboxBank } from './bank/sandbox-bank.ts';
import { createOutbound, type OutboundOptions } from './webhooks/outbound.ts';
import { createDeliverer, USER_AGENT } from './webhooks/delivery/deliverer.ts';
import { reachingOwnInboxes } from './webhooks/own-inbox.ts';
import type { DeliveryWorker } from './webhooks/delivery/worker.ts';
import { backupControl } from './db/backup.ts';
import { serveControlSocket, type ControlHandler } from './db/control-socket.ts';
import { activeTracer, inSpan, SpanKind, startTracing } from './observability/tracing.ts';

export interface Roles {
  api: boolean;
  worker: boolean;
  sweeper: boolean;
  /** The api listens on the configured host and port (default); false: ready for `inject` only (tests). */
  listen?: boolean;
}

export interface Running {
  ctx: Context;
  app: App | undefined;
  /** The address the HTTP server listens on (when the api role runs and listens). */
  url: string | undefined;
  worker: DeliveryWorker | undefined;
  /** The metrics address of its own, when CONSIGNA_METRICS_LISTEN is set. */
  metricsUrl?: string;
  stop(): Promise<void>;
}

/**
 * What a caller may put in place of the parts `openContext` would make. Production
 * passes nothing (or a logger); tests pass a captured logger, a ManualClock, an open
 * database to share, an in-memory PGlite, a fake bank (the one edge we do not own) or
 * a loopback resolver for the webhook client.
 */
export interface ContextOverrides {
  log?: Logger;
  clock?: Clock;
  /** An open, migrated database to use (not closed on release: its owner closes it). */
  database?: Database;
  /** PGlite's folder instead of `<dataDir>/pglite` ('memory': nothing on disk, no data-dir lock). */
  pgliteDir?: string;
  /** With pgliteDir 'memory': a data folder image to start from (see OpenOptions.image). */
  pgliteImage?: Blob;
  bank?: BankGateway;
  outbound?: Partial<OutboundOptions>;
}

/**
 * Everything a role needs, assembled once: opens the database (embedded or
 * PostgreSQL) and applies migrations, derives keys, and builds the bank gateway and
 * the webhook deliverer. The one assembly path of the service: `serve`, `api`,
 * `worker`, the CLI commands and the tests all come through here.
 */
export async function openContext(
  config: Config,
  overrides: ContextOverrides = {},
): Promise<Context & { release(): Promise<void>; embeddedDataDir?: string }> {
  const log = overrides.log ?? createLogger(config.logLevel);
  const embeddedOnDisk = !config.databaseUrl && !overrides.database && overrides.pgliteDir !== 'memory';
  let unlock = () => {};
  let masterKey = config.masterKey;
  if (embeddedOnDisk) {
    unlock = lockDataDir(config.dataDir);
    // Before the database opens: what an older version, a restore or an operator left open to others.
    const { changed, failed } = restrictToOwner(config.dataDir);
    if (changed > 0) log.warn({ changed }, 'data folder: removed group and other permissions from files and folders');
    if (failed > 0) log.error({ failed }, 'data folder: entries readable by others could not be changed (another owner?)');
    masterKey ??= loadOrCreateMasterKey(config.dataDir);
  }
  if (!masterKey) throw new Error('CONSIGNA_MASTER_KEY is required when the database is not embedded on disk');
  let database: Database;
  try {
    database =
      overrides.database ??
      (await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: overrides.pgliteDir ?? path.join(config.dataDir, 'pglite'),
        poolSize: config.pgPoolSize,
        sharedBuffersMb: config.embeddedSharedBuffersMb,
        ...(overrides.pgliteImage ? { image: overrides.pgliteImage } : {}),
        log,
        ...(config.tracing ? { tracer: activeTracer } : {}),
      }));
    if (!overrides.database) await migrate(database);
  } catch (error) {
    unlock();
    throw error;
  }
  const clock = overrides.clock ?? systemClock;
  const outbound = createOutbound({
    allowInsecure: config.allowInsecureWebhooks,
    timeoutMs: config.worker.deliveryTimeoutMs,
    userAgent: USER_AGENT,
    // A socket for every attempt slot: an attempt that queued for a socket could use
    // up its timeout without being sent, and still count as one of the seven.
    connectionsPerOrigin: config.worker.concurrency,
    ...overrides.outbound,
  });
  const base = { config, database, keys: deriveKeys(masterKey), clock, log };
  const bank = overrides.bank ?? createSandboxBank({ signingBaseUrl: config.publicBaseUrl, keys: base.keys, database });
  return {
    ...base,
    ...(embeddedOnDisk ? { embeddedDataDir: config.dataDir } : {}),
    bank: config.tracing ? tracedBank(bank, (name, work) => inSpan(name, {}, work, SpanKind.CLIENT)) : bank,
    deliverer: reachingOwnInboxes(
      base,
      createDeliverer({ outbound, clock, publicBaseUrl: config.publicBaseUrl, inbox: createInboxReceiver(base) }),
    ),
    async release() {
      try {
        await outbound.close();
        if (!overrides.database) await database.close();
      } finally {
        unlock();
      }
    },
  };
}

export async function startRoles(
  ctx: Context & { release(): Promise<void>; embeddedDataDir?: string },
  roles: Roles,
  options: {
    /** Commands the control socket takes besides `backup` (the CLI's `channels`). */
    control?: Record<string, ControlHandler>;
  } = {},
): Promise<Running> {
  const stoppers: Array<() => Promise<void>> = [];
  // Before anything that makes spans; flushed after everything else has stopped.
  const stopTracing = ctx.config.tracing
    ? await startTracing(
        ctx.config.tracing,
        {
          'deployment.environment.name': ctx.config.ambiente.toLowerCase(),
          'service.instance.id': randomUUID(),
          'process.pid': process.pid,
          'consigna.roles': (['api', 'worker', 'sweeper'] as const).filter((role) => roles[role]).join(','),
        },
        ctx.log,
      )
    : undefined;
  // The embedded database can only be opened by this process: `consigna backup` and
  // `consigna channels …` ask it through the control socket.
  if (ctx.embeddedDataDir && roles.listen !== false) {
    const handlers = { backup: backupControl(ctx.database), ...options.control };
    stoppers.push(await serveControlSocket(ctx.embeddedDataDir, handlers, ctx.log));
  }
  let app: App | undefined;
  let url: string | undefined;
  let worker: DeliveryWorker | undefined;

  // The roles' code is loaded when a role starts: the CLI's commands (channels, status,
  // backup…) open the context only, and start in a third of the time without the HTTP
  // application's modules (measured: importing src/app.ts took 1.5–4.5 s of a command).
  if (roles.sweeper) stoppers.push((await import('./sweeper/sweeper.ts')).startSweeper(ctx));
  let metricsUrl: string | undefined;
  if (ctx.config.metrics.listen && roles.listen !== false) {
    const [{ startMetricsServer }, { metricsFor }, { deliveryMetricsFor }] = await Promise.all([
      import('./metrics/metrics-server.ts'),
      import('./metrics/metrics.ts'),
      import('./webhooks/delivery/delivery-metrics.ts'),
    ]);
    deliveryMetricsFor(ctx, metricsFor(ctx).registry);
    const metricsServer = await startMetricsServer(ctx, ctx.config.metrics.listen);
    metricsUrl = metricsServer.url;
    stoppers.push(() => metricsServer.close());
  } else if (roles.api && !ctx.config.metrics.token && roles.listen !== false) {
    ctx.log.warn(
      'GET /metrics is public on the API port: set CONSIGNA_METRICS_LISTEN or CONSIGNA_METRICS_TOKEN outside local use',
    );
  }
  if (roles.worker) {
    const [{ metricsFor }, { deliveryMetricsFor }, { startDeliveryWorker }] = await Promise.all([
      import('./metrics/metrics.ts'),
      import('./webhooks/delivery/delivery-metrics.ts'),
      import('./webhooks/delivery/worker.ts'),
    ]);
    const metrics = deliveryMetricsFor(ctx, metricsFor(ctx).registry);
    const started = await startDeliveryWorker(ctx, { onAttempt: (claimed, result) => metrics.observeAttempt(claimed, result) });
    metrics.watchPool(() => started.pool());
    stoppers.push(() => started.stop());
    worker = started;
  }
  if (roles.api) {
    app = await (await import('./app.ts')).buildApp(ctx);
    if (roles.listen === false) await app.ready();
    else url = await app.listen({ port: ctx.config.port, host: ctx.config.host });
    const server = app;
    // HTTP first: stop accepting, finish in-flight requests.
    stoppers.unshift(() => server.close());
  }

  let stopping: Promise<void> | undefined;
  return {
    ctx,
    app,
    url,
    worker,
    ...(metricsUrl ? { metricsUrl } : {}),
    stop() {
      stopping ??= (async () => {
        try {
          for (const stop of stoppers) await stop();
          await ctx.release();
        } finally {
          await stopTracing?.();
        }
      })();
      return stopping;
    },
  };
}
