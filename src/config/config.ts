// The one place that reads the environment. Everything else receives a frozen Config.
import path from 'node:path';
import { isIP } from 'node:net';

export type Ambiente = 'SANDBOX' | 'REAL';
export type TrustProxy = boolean | number | string[];

export interface RateLimit {
  /** Requests allowed per window. 0 disables the limit. */
  max: number;
  windowSeconds: number;
}

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

const SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and validates every variable at once, so an operator sees all problems in one go. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const read = new Reader(env, problems);

  const port = read.int('PORT', 3000, { min: 0, max: 65535 });
  const host = read.string('HOST', '0.0.0.0');
  const publicBaseUrl = read.url('PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:']);
  const databaseUrl = read.optionalUrl('DATABASE_URL', ['postgres:', 'postgresql:']);
  const dataDir = path.resolve(cwd, read.string('CONSIGNA_DATA_DIR', './data'));
  const ambiente = read.oneOf('CONSIGNA_AMBIENTE', ['SANDBOX', 'REAL'] as const, 'SANDBOX');
  const masterKey = read.masterKey('CONSIGNA_MASTER_KEY');
  const allowInsecureWebhooks = read.bool('CONSIGNA_ALLOW_INSECURE_WEBHOOKS', false);

  if (ambiente === 'REAL') {
    problems.push('CONSIGNA_AMBIENTE: REAL is not available yet: no bank connector exists; use SANDBOX');
    if (allowInsecureWebhooks) {
      problems.push('CONSIGNA_ALLOW_INSECURE_WEBHOOKS: must not be true when CONSIGNA_AMBIENTE is REAL');
    }
  }
  if (databaseUrl && !masterKey && env.CONSIGNA_MASTER_KEY === undefined) {
    problems.push(
      'CONSIGNA_MASTER_KEY: required with DATABASE_URL (32 bytes as 64 hex characters or base64); generate one with: openssl rand -hex 32',
    );
  }

  const config: Config = {
    port,
    host,
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    databaseUrl,
    dataDir,
    ambiente,
    masterKey,
    linkTtlSeconds: read.int('CONSIGNA_LINK_TTL_SECONDS', 604_800, { min: 60 }),
    tokenTtlSeconds: read.int('CONSIGNA_TOKEN_TTL_SECONDS', 3600, { min: 1, max: 86_400 }),
    retryDelaysSeconds: read.intList('CONSIGNA_RETRY_DELAYS', [60, 300, 1800, 7200, 21_600, 86_400], 6),
    allowInsecureWebhooks,
    trustProxy: read.trustProxy('CONSIGNA_TRUST_PROXY'),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    authGuard: {
      maxPerClient: read.int('CONSIGNA_AUTH_MAX_PER_CLIENT', 10, { min: 1 }),
      maxPerIp: read.int('CONSIGNA_AUTH_MAX_PER_IP', 30, { min: 1 }),
      windowSeconds: read.int('CONSIGNA_AUTH_WINDOW_SECONDS', 900, { min: 1 }),
      blockSeconds: read.int('CONSIGNA_AUTH_BLOCK_SECONDS', 900, { min: 1 }),
    },
    rateLimits: {
      api: read.rateLimit('CONSIGNA_RATE_LIMIT_API', { max: 30_000, windowSeconds: 60 }),
      inbox: read.rateLimit('CONSIGNA_RATE_LIMIT_INBOX', { max: 1200, windowSeconds: 60 }),
      journey: read.rateLimit('CONSIGNA_RATE_LIMIT_JOURNEY', { max: 300, windowSeconds: 60 }),
      unknownToken: read.rateLimit('CONSIGNA_RATE_LIMIT_UNKNOWN_TOKEN', { max: 300, windowSeconds: 60 }),
    },
    pgPoolSize: read.int('CONSIGNA_PG_POOL_SIZE', 20, { min: 1, max: 500 }),
    embeddedSharedBuffersMb: read.int('CONSIGNA_EMBEDDED_SHARED_BUFFERS_MB', 32, { min: 1, max: 4096 }),
    worker: {
      concurrency: read.int('CONSIGNA_WORKER_CONCURRENCY', 64, { min: 1, max: 4096 }),
      leaseSeconds: read.int('CONSIGNA_WORKER_LEASE_SECONDS', 60, { min: 15 }),
      pollSeconds: read.int('CONSIGNA_WORKER_POLL_SECONDS', 5, { min: 1 }),
      deliveryTimeoutMs: read.int('CONSIGNA_DELIVERY_TIMEOUT_MS', 10_000, { min: 100, max: 10_000 }),
      // Half a worker's default slots: one channel's endpoint that hangs can hold at
      // most half of a worker, so every other channel's events still find slots while
      // the hanging one is being recognised (see containAfter). It is also the most
      // requests at once a channel's own server receives from us during a burst.
      // Measured (bench webhook-throughput): one channel's 20,000-event drain at 32 at
      // once runs at 0.8× a raw undici loop at 64.
      maxInFlightPerChannel: read.int('CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL', 32, { min: 1, max: 4096 }),
      containAfter: read.int('CONSIGNA_WORKER_CONTAIN_AFTER', 3, { min: 1, max: 1000 }),
    },
    shutdownTimeoutMs: read.int('CONSIGNA_SHUTDOWN_TIMEOUT_MS', 15_000, { min: 0 }),
    limits: {
      streams: read.int('CONSIGNA_MAX_STREAMS', 200, { min: 1, max: 100_000 }),
      shedEventLoopDelayMs: read.int('CONSIGNA_SHED_EVENT_LOOP_DELAY_MS', 100, { min: 0, max: 60_000 }),
      shedHeapRatio: read.ratio('CONSIGNA_SHED_HEAP_RATIO', 0.8),
      // One at a time: the embedded database is one connection every request shares, and
      // on PostgreSQL more at once bought the sandbox nothing but a slower API beside it
      // (bench "attacker").
      heavyConcurrency: read.int('CONSIGNA_HEAVY_CONCURRENCY', 1, { min: 1, max: 1000 }),
    },
    metrics: {
      ...optional('listen', read.listenAddress('CONSIGNA_METRICS_LISTEN')),
      ...optional('token', read.secret('CONSIGNA_METRICS_TOKEN', 16)),
    },
    ...optional('tracing', readTracing(read, env)),
    retention: {
      eventsDays: read.int('CONSIGNA_RETENTION_EVENTS_DAYS', 30, { min: 1, max: 3650 }),
      personalDataDays: read.int('CONSIGNA_RETENTION_PERSONAL_DATA_DAYS', 30, { min: 1, max: 3650 }),
      // At least the 24 hours the contract promises a repeated key its first answer.
      idempotencyHours: read.int('CONSIGNA_RETENTION_IDEMPOTENCY_HOURS', 24, { min: 24, max: 8760 }),
    },
  };
  if (config.worker.leaseSeconds * 1000 < config.worker.deliveryTimeoutMs * 3) {
    problems.push('CONSIGNA_WORKER_LEASE_SECONDS: must be at least three times the delivery timeout');
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/**
 * On when an OTLP endpoint is set, unless OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 * The exporter's headers, timeout and compression (OTEL_EXPORTER_OTLP_*HEADERS and so on) are
 * read by the exporter itself, as the specification defines them.
 */
function readTracing(read: Reader, env: Env): TracingConfig | undefined {
  const tracesEndpoint = read.optionalUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http:', 'https:']);
  const baseEndpoint = read.optionalUrl('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']);
  const exporter = read.oneOf('OTEL_TRACES_EXPORTER', ['otlp', 'none'] as const, 'otlp');
  const disabled = read.bool('OTEL_SDK_DISABLED', false);
  const protocol = read.oneOf(
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL',
    ['http/protobuf', 'http/json'] as const,
    'http/protobuf',
  );
  const sampler = read.oneOf('OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on');
  const ratio = read.ratio('OTEL_TRACES_SAMPLER_ARG', 1);
  const batch = {
    scheduledDelayMillis: read.int('OTEL_BSP_SCHEDULE_DELAY', 5000, { min: 1, max: 600_000 }),
    maxQueueSize: read.int('OTEL_BSP_MAX_QUEUE_SIZE', 2048, { min: 1, max: 1_000_000 }),
    maxExportBatchSize: read.int('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, { min: 1, max: 100_000 }),
    exportTimeoutMillis: read.int('OTEL_BSP_EXPORT_TIMEOUT', 30_000, { min: 1, max: 600_000 }),
  };
  const limit = (name: string) => read.optionalInt(name, { max: 1_000_000 });
  const spanLimits = {
    ...optional('attributeCountLimit', limit('OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT') ?? limit('OTEL_ATTRIBUTE_COUNT_LIMIT')),
    ...optional(
      'attributeValueLengthLimit',
      limit('OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT') ?? limit('OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT'),
    ),
    ...optional('eventCountLimit', limit('OTEL_SPAN_EVENT_COUNT_LIMIT')),
    ...optional('linkCountLimit', limit('OTEL_SPAN_LINK_COUNT_LIMIT')),
    ...optional('attributePerEventCountLimit', limit('OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT')),
    ...optional('attributePerLinkCountLimit', limit('OTEL_LINK_ATTRIBUTE_COUNT_LIMIT')),
  };
  const endpoint = tracesEndpoint ?? (baseEndpoint ? `${baseEndpoint.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (!endpoint || disabled || exporter === 'none') return undefined;
  return {
    endpoint,
    protocol,
    sampler: { name: sampler, ratio },
    batch: { ...batch, maxExportBatchSize: Math.min(batch.maxExportBatchSize, batch.maxQueueSize) },
    spanLimits,
  };
}

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

class Reader {
  private readonly env: Env;
  private readonly problems: string[];
  constructor(env: Env, problems: string[]) {
    this.env = env;
    this.problems = problems;
  }

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  int(name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.problems.push(`${name}: expected an integer from ${min} to ${max}, got "${value}"`);
      return fallback;
    }
    return Number(value);
  }

  optionalInt(name: string, bounds: { min?: number; max?: number } = {}): number | undefined {
    return this.raw(name) === undefined ? undefined : this.int(name, 0, bounds);
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    this.problems.push(`${name}: expected true or false, got "${value}"`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name}: expected one of ${allowed.join(', ')}, got "${value}"`);
      return fallback;
    }
    return value as T;
  }

  /** A number from 0 to 1. */
  ratio(name: string, fallback: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const number = Number(value);
    if (!/^\d*\.?\d+$/.test(value) || number > 1) {
      this.problems.push(`${name}: expected a number from 0 to 1, got "${value}"`);
      return fallback;
    }
    return number;
  }

  url(name: string, fallback: string, protocols: string[]): string {
    return this.optionalUrl(name, protocols) ?? fallback;
  }

  optionalUrl(name: string, protocols: string[]): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      // Never echo the value: a DATABASE_URL carries a password.
      this.problems.push(`${name}: not a valid URL`);
      return undefined;
    }
    if (!protocols.includes(parsed.protocol)) {
      this.problems.push(`${name}: expected a ${protocols.join(' or ')} URL`);
      return undefined;
    }
    return value;
  }

  intList(name: string, fallback: number[], length: number): number[] {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parts = value.split(',').map((p) => p.trim());
    if (parts.length !== length || parts.some((p) => !/^\d+$/.test(p) || Number(p) < 1)) {
      this.problems.push(`${name}: expected ${length} comma-separated positive integers (seconds), got "${value}"`);
      return fallback;
    }
    return parts.map(Number);
  }

  masterKey(name: string): Buffer | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
    if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(value) && !/^[A-Za-z0-9+/_-]+={0,2}$/.test(value))) {
      this.problems.push(`${name}: expected 32 bytes as 64 hex characters or base64`);
      return undefined;
    }
    return key;
  }

  trustProxy(name: string): TrustProxy {
    const value = this.raw(name);
    if (value === undefined || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((p) => p.trim());
    const bad = entries.filter((e) => !isIP(e.split('/')[0] ?? ''));
    if (bad.length > 0) {
      this.problems.push(`${name}: expected true, false, a hop count or a list of proxy addresses/CIDRs`);
      return false;
    }
    return entries;
  }

  /** `host:port`, `[ipv6]:port` or a bare port (on 127.0.0.1). */
  listenAddress(name: string): { host: string; port: number } | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\s]+):)?(\d{1,5})$/.exec(value);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) {
      this.problems.push(`${name}: expected host:port or a port, e.g. 127.0.0.1:9464, got "${value}"`);
      return undefined;
    }
    return { host: (match[1] ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1'), port };
  }

  /** A secret of at least `min` characters; never echoed in a problem. */
  secret(name: string, min: number): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (value.length < min || /\s/.test(value)) {
      this.problems.push(`${name}: expected at least ${min} characters without spaces`);
      return undefined;
    }
    return value;
  }

  rateLimit(name: string, fallback: RateLimit): RateLimit {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const match = /^(\d+)\/(\d+)$/.exec(value);
    if (!match || Number(match[2]) < 1) {
      this.problems.push(`${name}: expected "<requests>/<seconds>", e.g. 600/60 (0/60 disables), got "${value}"`);
      return fallback;
    }
    return { max: Number(match[1]), windowSeconds: Number(match[2]) };
  }
}
