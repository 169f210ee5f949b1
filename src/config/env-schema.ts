// What the environment may hold: every variable the service reads, with its default, bounds
// and meaning. This schema is the source of truth; README "Configuration" describes it for
// operators (test/config/readme-table.test.ts keeps the two together). Values are read as
// text (src/config/read-env.ts); rules between variables live in src/config/config.ts.
import { Type } from 'typebox';
import {
  Bool,
  Int,
  IntList,
  ListenAddress,
  MasterKey,
  OneOf,
  RateLimitText,
  Ratio,
  Secret,
  Text,
  TrustProxyText,
  Url,
} from './env-types.ts';

const HTTP = ['http:', 'https:'];

export const SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;

const SERVICE = {
  PORT: Int({ default: 3000, maximum: 65_535, description: 'port the HTTP server listens on' }),
  HOST: Text({ default: '0.0.0.0', description: 'address the HTTP server listens on' }),
  PUBLIC_BASE_URL: Type.Optional(
    Url(HTTP, { description: 'origin of link, inbox and viewer urls; unset: http://localhost:{PORT}' }),
  ),
  DATABASE_URL: Type.Optional(Url(['postgres:', 'postgresql:'], { description: 'PostgreSQL; unset: the embedded database' })),
  CONSIGNA_DATA_DIR: Text({ default: './data', description: 'folder of the embedded database and its generated master key' }),
  CONSIGNA_AMBIENTE: OneOf(['SANDBOX', 'REAL'], {
    default: 'SANDBOX',
    description: 'REAL refuses to start until a bank connector exists',
  }),
  CONSIGNA_MASTER_KEY: Type.Optional(
    MasterKey({ description: 'encryption at rest and keyed hashes; required with DATABASE_URL' }),
  ),
  CONSIGNA_ALLOW_INSECURE_WEBHOOKS: Bool({ default: false, description: 'allow http and loopback webhook targets' }),
  CONSIGNA_LINK_TTL_SECONDS: Int({ default: 604_800, minimum: 60, description: 'link lifetime' }),
  CONSIGNA_TOKEN_TTL_SECONDS: Int({ default: 3600, minimum: 1, maximum: 86_400, description: 'access token lifetime' }),
  CONSIGNA_RETRY_DELAYS: IntList(6, {
    default: '60,300,1800,7200,21600,86400',
    description: 'seconds between webhook attempts (6 values, 7 attempts)',
  }),
  CONSIGNA_TRUST_PROXY: TrustProxyText({ default: 'false', description: 'whose X-Forwarded-For to trust' }),
  LOG_LEVEL: OneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    default: 'info',
    description: 'pino level',
  }),
  CONSIGNA_AUTH_MAX_PER_CLIENT: Int({
    default: 10,
    minimum: 1,
    description: 'token-endpoint failures per client before a block',
  }),
  CONSIGNA_AUTH_MAX_PER_IP: Int({ default: 30, minimum: 1, description: 'token-endpoint failures per address before a block' }),
  CONSIGNA_AUTH_WINDOW_SECONDS: Int({ default: 900, minimum: 1, description: 'window the failures are counted in' }),
  CONSIGNA_AUTH_BLOCK_SECONDS: Int({ default: 900, minimum: 1, description: 'block duration' }),
  CONSIGNA_RATE_LIMIT_API: RateLimitText({ default: '30000/60', description: 'per channel on /v1' }),
  CONSIGNA_RATE_LIMIT_INBOX: RateLimitText({ default: '1200/60', description: 'per inbox token' }),
  CONSIGNA_RATE_LIMIT_JOURNEY: RateLimitText({ default: '300/60', description: 'per link token on the hosted pages' }),
  CONSIGNA_RATE_LIMIT_UNKNOWN_TOKEN: RateLimitText({
    default: '300/60',
    description: 'per source address, for link and inbox tokens that do not exist',
  }),
  CONSIGNA_PG_POOL_SIZE: Int({ default: 20, minimum: 1, maximum: 500, description: 'PostgreSQL connections per process' }),
  CONSIGNA_EMBEDDED_SHARED_BUFFERS_MB: Int({
    default: 32,
    minimum: 1,
    maximum: 4096,
    description: "the embedded database's buffer cache (shared_buffers; PGlite's own default is 160)",
  }),
  CONSIGNA_WORKER_CONCURRENCY: Int({ default: 64, minimum: 1, maximum: 4096, description: 'attempts in flight per worker' }),
  CONSIGNA_WORKER_LEASE_SECONDS: Int({
    default: 60,
    minimum: 15,
    description: 'how long a claimed delivery belongs to a worker',
  }),
  CONSIGNA_WORKER_POLL_SECONDS: Int({ default: 5, minimum: 1, description: 'fallback poll when no notification arrives' }),
  CONSIGNA_DELIVERY_TIMEOUT_MS: Int({ default: 10_000, minimum: 100, maximum: 10_000, description: 'total time of one attempt' }),
  // Half a worker's default slots: one channel's endpoint that hangs can hold at most half of
  // a worker, so every other channel's events still find slots while the hanging one is being
  // recognised (see CONTAIN_AFTER). It is also the most requests at once a channel's own server
  // receives from us during a burst. Measured (bench webhook-throughput): one channel's
  // 20,000-event drain at 32 at once runs at 0.8× a raw undici loop at 64.
  CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: Int({
    default: 32,
    minimum: 1,
    maximum: 4096,
    description: "attempts in flight to one channel's endpoint, across every worker",
  }),
  // Well under the delivery timeout: a hanging endpoint lets go of its slots within this, not
  // after the whole timeout (docs/delivery-engine.md "Slow endpoints").
  CONSIGNA_WORKER_SLOW_AFTER_MS: Int({
    default: 1000,
    minimum: 100,
    maximum: 10_000,
    description: 'an attempt not answered by then stops holding a worker slot; its channel is slow until it answers in time',
  }),
  CONSIGNA_WORKER_CONTAIN_AFTER: Int({
    default: 3,
    minimum: 1,
    maximum: 1000,
    description: 'failed attempts in a row before a channel gets one probing attempt at a time',
  }),
  CONSIGNA_SHUTDOWN_TIMEOUT_MS: Int({ default: 15_000, description: 'bound on a graceful shutdown' }),
  CONSIGNA_MAX_STREAMS: Int({
    default: 200,
    minimum: 1,
    maximum: 100_000,
    description: 'inbox event streams open at once per process',
  }),
  CONSIGNA_SHED_EVENT_LOOP_DELAY_MS: Int({
    default: 100,
    maximum: 60_000,
    description: 'mean event-loop delay past which the expensive routes answer 503 (0: never)',
  }),
  CONSIGNA_SHED_HEAP_RATIO: Ratio({
    default: 0.8,
    description: "heap in use, as a share of V8's heap limit, past which the expensive routes answer 503",
  }),
  // One at a time: the embedded database is one connection every request shares, and on
  // PostgreSQL more at once bought the sandbox nothing but a slower API beside it (bench "attacker").
  CONSIGNA_HEAVY_CONCURRENCY: Int({
    default: 1,
    minimum: 1,
    maximum: 1000,
    description: 'requests of the expensive sandbox routes that run at once per process',
  }),
  CONSIGNA_METRICS_LISTEN: Type.Optional(ListenAddress({ description: 'where /metrics is served instead of the API port' })),
  CONSIGNA_METRICS_TOKEN: Type.Optional(Secret(16, { description: 'bearer token /metrics then requires' })),
  CONSIGNA_RETENTION_EVENTS_DAYS: Int({
    default: 30,
    minimum: 1,
    maximum: 3650,
    description: 'days events, deliveries and attempts are kept after the delivery is final',
  }),
  CONSIGNA_RETENTION_PERSONAL_DATA_DAYS: Int({
    default: 30,
    minimum: 1,
    maximum: 3650,
    description: "days the customer's personal data is kept after the link is final",
  }),
  // At least the 24 hours the contract promises a repeated key its first answer.
  CONSIGNA_RETENTION_IDEMPOTENCY_HOURS: Int({
    default: 24,
    minimum: 24,
    maximum: 8760,
    description: 'hours an Idempotency-Key replays its first answer',
  }),
};

/**
 * OpenTelemetry's standard variables (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/)
 * that src/observability/tracing.ts hands to the SDK. The exporter reads its own others itself
 * (OTEL_EXPORTER_OTLP_*HEADERS, TIMEOUT, COMPRESSION, CERTIFICATE…), the resource detectors
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. A general variable `overriddenBy` a set
 * traces-specific one is neither read nor checked: it may be meant for other signals.
 */
const TRACING = {
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.Optional(Url(HTTP, { description: 'where spans are POSTed' })),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    Url(HTTP, { description: 'an OTLP/HTTP collector; spans go to its /v1/traces. Unset: no tracing' }),
  ),
  OTEL_TRACES_EXPORTER: OneOf(['otlp', 'none'], { default: 'otlp', description: 'none turns tracing off' }),
  OTEL_SDK_DISABLED: Bool({ default: false, description: 'true turns tracing off' }),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: Type.Optional(
    OneOf(['http/protobuf', 'http/json'], { description: 'OTLP encoding of spans (gRPC is not offered)' }),
  ),
  OTEL_EXPORTER_OTLP_PROTOCOL: OneOf(['http/protobuf', 'http/json'], {
    default: 'http/protobuf',
    description: 'OTLP encoding (gRPC is not offered)',
    overriddenBy: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  }),
  OTEL_TRACES_SAMPLER: OneOf(SAMPLERS, { default: 'parentbased_always_on', description: 'sampler' }),
  OTEL_TRACES_SAMPLER_ARG: Ratio({ default: 1, description: 'ratio of the traceidratio samplers' }),
  OTEL_BSP_SCHEDULE_DELAY: Int({ default: 5000, minimum: 1, maximum: 600_000, description: 'ms between batch exports' }),
  OTEL_BSP_MAX_QUEUE_SIZE: Int({ default: 2048, minimum: 1, maximum: 1_000_000, description: 'spans queued at most' }),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: Int({
    default: 512,
    minimum: 1,
    maximum: 100_000,
    description: 'spans per export, at most the queue size',
  }),
  OTEL_BSP_EXPORT_TIMEOUT: Int({ default: 30_000, minimum: 1, maximum: 600_000, description: 'ms an export may take' }),
  OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: SpanLimit('attributes per span'),
  OTEL_ATTRIBUTE_COUNT_LIMIT: SpanLimit('attributes per span', 'OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT'),
  OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT: SpanLimit('characters per attribute value'),
  OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: SpanLimit('characters per attribute value', 'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT'),
  OTEL_SPAN_EVENT_COUNT_LIMIT: SpanLimit('events per span'),
  OTEL_SPAN_LINK_COUNT_LIMIT: SpanLimit('links per span'),
  OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT: SpanLimit('attributes per span event'),
  OTEL_LINK_ATTRIBUTE_COUNT_LIMIT: SpanLimit('attributes per span link'),
};

/** Unset: the SDK's own default. */
function SpanLimit(description: string, overriddenBy?: string) {
  return Type.Optional(Int({ maximum: 1_000_000, description, ...(overriddenBy ? { overriddenBy } : {}) }));
}

export const EnvSchema = Type.Object({ ...SERVICE, ...TRACING });
