// The one place that reads the environment. Everything else receives a frozen Config.
// What each variable may hold is src/config/env-schema.ts; here are the rules between
// variables and the shape the rest of the code receives.
import path from 'node:path';
import type { RateLimit, TrustProxy } from './env-types.ts';
import type { SAMPLERS } from './env-schema.ts';
import { readEnv, type Env } from './read-env.ts';

export type { RateLimit, TrustProxy };
export type Ambiente = 'SANDBOX' | 'REAL';

export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  ambiente: Ambiente;
  /** Raw CONSIGNA_MASTER_KEY when given; otherwise the embedded data folder provides one. */
  masterKey: Buffer | undefined;
  linkTtlSeconds: number;
  tokenTtlSeconds: number;
  retryDelaysSeconds: readonly number[];
  allowInsecureWebhooks: boolean;
  trustProxy: TrustProxy;
  logLevel: string;
  authGuard: {
    maxPerClient: number;
    maxPerIp: number;
    windowSeconds: number;
    blockSeconds: number;
  };
  rateLimits: {
    api: RateLimit;
    inbox: RateLimit;
    journey: RateLimit;
    /** Per source address, for path tokens (link, inbox) that do not exist. */
    unknownToken: RateLimit;
  };
  pgPoolSize: number;
  /** The embedded database's buffer cache, in MB (PostgreSQL's shared_buffers; PGlite's own default is 160). */
  embeddedSharedBuffersMb: number;
  worker: {
    concurrency: number;
    leaseSeconds: number;
    pollSeconds: number;
    deliveryTimeoutMs: number;
    /** Attempts in flight per channel, counted across every worker. */
    maxInFlightPerChannel: number;
    /** Failed attempts in a row before a channel gets one probing attempt at a time. */
    containAfter: number;
    /** An attempt not answered by then stops holding one of the `concurrency` slots. */
    slowAfterMs: number;
  };
  shutdownTimeoutMs: number;
  /** Budgets every channel shares in one process (docs/operations.md "Bounded work"). */
  limits: {
    /** Inbox event streams open at once in one api process. */
    streams: number;
    /** Mean event-loop delay, in ms, past which the expensive routes answer 503 (0: never). */
    shedEventLoopDelayMs: number;
    /** Heap in use, as a share of V8's heap limit, past which the expensive routes answer 503. */
    shedHeapRatio: number;
    /** Requests of the expensive routes (sandbox inbox and viewer) that run at once in one process. */
    heavyConcurrency: number;
  };
  /**
   * Who may read /metrics (README "Operating it"): with `listen`, only that address serves
   * it (any role, the worker's included) and the API port does not; with `token`, a
   * `Authorization: Bearer` of it is required. Neither: public on the API port (local use).
   */
  metrics: { listen?: { host: string; port: number }; token?: string };
  /**
   * OpenTelemetry traces (docs/observability.md "Traces"), exported over OTLP; absent (the default) when
   * no OTLP endpoint is set: then nothing of OpenTelemetry's SDK is even loaded.
   */
  tracing?: TracingConfig;
  /** How long data is kept (docs/operations.md "Retention"); the sweeper removes what is past it. */
  retention: {
    /** Events, their deliveries and attempts: days after the delivery is final (or the event, without one). */
    eventsDays: number;
    /** CPF, phone, name, e-mail, Pix key and signing link: days after the link is final. */
    personalDataDays: number;
    /** Idempotency-Key records (and the sealed first answer they replay). */
    idempotencyHours: number;
  };
}

/**
 * From the standard OTEL_* variables (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/),
 * named as OpenTelemetry's SDK takes them (src/observability/tracing.ts hands them over as they are). Since
 * SDK 3.0 the trace SDK reads no variable itself; the exporter still reads its own (OTEL_EXPORTER_OTLP_*HEADERS,
 * TIMEOUT, COMPRESSION, CERTIFICATE…), and the resource detectors OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
 */
export interface TracingConfig {
  /** Where spans are POSTed: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  endpoint: string;
  protocol: 'http/protobuf' | 'http/json';
  /** OTEL_TRACES_SAMPLER and its argument (a ratio for the traceidratio samplers). */
  sampler: { name: (typeof SAMPLERS)[number]; ratio: number };
  /** OTEL_BSP_*: the batch span processor. */
  batch: { scheduledDelayMillis: number; maxQueueSize: number; maxExportBatchSize: number; exportTimeoutMillis: number };
  /** OTEL_SPAN_*_LIMIT and OTEL_ATTRIBUTE_*_LIMIT, the span-specific one first; unset: the SDK's defaults. */
  spanLimits: {
    attributeCountLimit?: number;
    attributeValueLengthLimit?: number;
    eventCountLimit?: number;
    linkCountLimit?: number;
    attributePerEventCountLimit?: number;
    attributePerLinkCountLimit?: number;
  };
}

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Reads and validates every variable at once, so an operator sees all problems in one go. */
export function loadConfig(source: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  const { env, problems } = readEnv(source);
  // One line per variable: a rule naming a variable already reported adds nothing.
  for (const [name, problem] of rulesBetween(env)) if (!problems.has(name)) problems.set(name, problem);
  if (problems.size > 0) throw new ConfigError([...problems].map(([name, problem]) => `${name}: ${problem}`));

  return Object.freeze({
    port: env.PORT,
    host: env.HOST,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(cwd, env.CONSIGNA_DATA_DIR),
    ambiente: env.CONSIGNA_AMBIENTE,
    masterKey: env.CONSIGNA_MASTER_KEY,
    linkTtlSeconds: env.CONSIGNA_LINK_TTL_SECONDS,
    tokenTtlSeconds: env.CONSIGNA_TOKEN_TTL_SECONDS,
    retryDelaysSeconds: env.CONSIGNA_RETRY_DELAYS,
    allowInsecureWebhooks: env.CONSIGNA_ALLOW_INSECURE_WEBHOOKS,
    trustProxy: env.CONSIGNA_TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    authGuard: {
      maxPerClient: env.CONSIGNA_AUTH_MAX_PER_CLIENT,
      maxPerIp: env.CONSIGNA_AUTH_MAX_PER_IP,
      windowSeconds: env.CONSIGNA_AUTH_WINDOW_SECONDS,
      blockSeconds: env.CONSIGNA_AUTH_BLOCK_SECONDS,
    },
    rateLimits: {
      api: env.CONSIGNA_RATE_LIMIT_API,
      inbox: env.CONSIGNA_RATE_LIMIT_INBOX,
      journey: env.CONSIGNA_RATE_LIMIT_JOURNEY,
      unknownToken: env.CONSIGNA_RATE_LIMIT_UNKNOWN_TOKEN,
    },
    pgPoolSize: env.CONSIGNA_PG_POOL_SIZE,
    embeddedSharedBuffersMb: env.CONSIGNA_EMBEDDED_SHARED_BUFFERS_MB,
    worker: {
      concurrency: env.CONSIGNA_WORKER_CONCURRENCY,
      leaseSeconds: env.CONSIGNA_WORKER_LEASE_SECONDS,
      pollSeconds: env.CONSIGNA_WORKER_POLL_SECONDS,
      deliveryTimeoutMs: env.CONSIGNA_DELIVERY_TIMEOUT_MS,
      maxInFlightPerChannel: env.CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL,
      containAfter: env.CONSIGNA_WORKER_CONTAIN_AFTER,
      slowAfterMs: env.CONSIGNA_WORKER_SLOW_AFTER_MS,
    },
    shutdownTimeoutMs: env.CONSIGNA_SHUTDOWN_TIMEOUT_MS,
    limits: {
      streams: env.CONSIGNA_MAX_STREAMS,
      shedEventLoopDelayMs: env.CONSIGNA_SHED_EVENT_LOOP_DELAY_MS,
      shedHeapRatio: env.CONSIGNA_SHED_HEAP_RATIO,
      heavyConcurrency: env.CONSIGNA_HEAVY_CONCURRENCY,
    },
    metrics: defined({ listen: env.CONSIGNA_METRICS_LISTEN, token: env.CONSIGNA_METRICS_TOKEN }),
    ...defined({ tracing: tracingOf(env) }),
    retention: {
      eventsDays: env.CONSIGNA_RETENTION_EVENTS_DAYS,
      personalDataDays: env.CONSIGNA_RETENTION_PERSONAL_DATA_DAYS,
      idempotencyHours: env.CONSIGNA_RETENTION_IDEMPOTENCY_HOURS,
    },
  });
}

/** Rules no single variable's schema can say, as [variable, problem]. */
function* rulesBetween(env: Env): Generator<[string, string]> {
  if (env.CONSIGNA_AMBIENTE === 'REAL') {
    yield ['CONSIGNA_AMBIENTE', 'REAL is not available yet: no bank connector exists; use SANDBOX'];
    if (env.CONSIGNA_ALLOW_INSECURE_WEBHOOKS) {
      yield ['CONSIGNA_ALLOW_INSECURE_WEBHOOKS', 'must not be true when CONSIGNA_AMBIENTE is REAL'];
    }
  }
  if (env.DATABASE_URL && !env.CONSIGNA_MASTER_KEY) {
    yield [
      'CONSIGNA_MASTER_KEY',
      'required with DATABASE_URL (32 bytes as 64 hex characters or base64); generate one with: openssl rand -hex 32',
    ];
  }
  if (env.CONSIGNA_WORKER_LEASE_SECONDS * 1000 < env.CONSIGNA_DELIVERY_TIMEOUT_MS * 3) {
    yield ['CONSIGNA_WORKER_LEASE_SECONDS', 'must be at least three times the delivery timeout'];
  }
}

/**
 * On when an OTLP endpoint is set, unless OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 * The exporter's headers, timeout and compression (OTEL_EXPORTER_OTLP_*HEADERS and so on) are
 * read by the exporter itself, as the specification defines them.
 */
function tracingOf(env: Env): TracingConfig | undefined {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base && `${base.replace(/\/+$/, '')}/v1/traces`);
  if (!endpoint || env.OTEL_SDK_DISABLED || env.OTEL_TRACES_EXPORTER === 'none') return undefined;
  return {
    endpoint,
    protocol: env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL,
    sampler: { name: env.OTEL_TRACES_SAMPLER, ratio: env.OTEL_TRACES_SAMPLER_ARG },
    batch: {
      scheduledDelayMillis: env.OTEL_BSP_SCHEDULE_DELAY,
      maxQueueSize: env.OTEL_BSP_MAX_QUEUE_SIZE,
      maxExportBatchSize: Math.min(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, env.OTEL_BSP_MAX_QUEUE_SIZE),
      exportTimeoutMillis: env.OTEL_BSP_EXPORT_TIMEOUT,
    },
    // The span's own limit before the general one (which the schema skips when the span's is set).
    spanLimits: defined({
      attributeCountLimit: env.OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT ?? env.OTEL_ATTRIBUTE_COUNT_LIMIT,
      attributeValueLengthLimit: env.OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT ?? env.OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT,
      eventCountLimit: env.OTEL_SPAN_EVENT_COUNT_LIMIT,
      linkCountLimit: env.OTEL_SPAN_LINK_COUNT_LIMIT,
      attributePerEventCountLimit: env.OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT,
      attributePerLinkCountLimit: env.OTEL_LINK_ATTRIBUTE_COUNT_LIMIT,
    }),
  };
}

/** The object without its undefined entries: an unset limit is absent, not undefined, for whoever spreads it. */
const defined = <T extends object>(object: T): T =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
