import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.ts';

const problemsOf = (env: Record<string, string>): readonly string[] => {
  try {
    loadConfig(env, '/srv');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, '/srv');
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicBaseUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      dataDir: '/srv/data',
      ambiente: 'SANDBOX',
      linkTtlSeconds: 604_800,
      retryDelaysSeconds: [60, 300, 1800, 7200, 21_600, 86_400],
      allowInsecureWebhooks: false,
      trustProxy: false,
      logLevel: 'info',
      retention: { eventsDays: 30, personalDataDays: 30, idempotencyHours: 24 },
      embeddedSharedBuffersMb: 32,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads the retention periods, and never keeps idempotency keys less than the 24 hours the contract promises', () => {
    expect(
      loadConfig({
        CONSIGNA_RETENTION_EVENTS_DAYS: '90',
        CONSIGNA_RETENTION_PERSONAL_DATA_DAYS: '7',
        CONSIGNA_RETENTION_IDEMPOTENCY_HOURS: '72',
      }).retention,
    ).toEqual({ eventsDays: 90, personalDataDays: 7, idempotencyHours: 72 });
    const problems = problemsOf({
      CONSIGNA_RETENTION_EVENTS_DAYS: '0',
      CONSIGNA_RETENTION_PERSONAL_DATA_DAYS: 'trinta',
      CONSIGNA_RETENTION_IDEMPOTENCY_HOURS: '12',
    });
    expect(problems).toEqual([
      'CONSIGNA_RETENTION_EVENTS_DAYS: expected an integer from 1 to 3650, got "0"',
      'CONSIGNA_RETENTION_PERSONAL_DATA_DAYS: expected an integer from 1 to 3650, got "trinta"',
      'CONSIGNA_RETENTION_IDEMPOTENCY_HOURS: expected an integer from 24 to 8760, got "12"',
    ]);
  });

  it('derives the public base url from the port and strips a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }, '/srv').publicBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://sandbox.consigna.dev/' }, '/srv').publicBaseUrl).toBe(
      'https://sandbox.consigna.dev',
    );
  });

  it('reports one clear line per wrong variable, all at once', () => {
    const problems = problemsOf({
      PORT: 'abc',
      PUBLIC_BASE_URL: 'ftp://x',
      CONSIGNA_AMBIENTE: 'PROD',
      CONSIGNA_RETRY_DELAYS: '1,2,3',
      CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'sim',
      LOG_LEVEL: 'loud',
      CONSIGNA_LINK_TTL_SECONDS: '-5',
    });
    expect(problems).toHaveLength(7);
    expect(problems[0]).toMatch(/^PORT: expected an integer/);
    expect(problems.join('\n')).toMatch(/PUBLIC_BASE_URL: expected a http: or https: URL/);
    expect(problems.join('\n')).toMatch(/CONSIGNA_AMBIENTE: expected one of SANDBOX, REAL/);
    expect(problems.join('\n')).toMatch(/CONSIGNA_RETRY_DELAYS: expected 6 comma-separated/);
    expect(problems.join('\n')).toMatch(/CONSIGNA_ALLOW_INSECURE_WEBHOOKS: expected true or false/);
    expect(problems.join('\n')).toMatch(/LOG_LEVEL: expected one of/);
    expect(problems.join('\n')).toMatch(/CONSIGNA_LINK_TTL_SECONDS/);
  });

  it('requires a master key with PostgreSQL and never echoes the database url', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgres://u:hunter2@db/consigna' });
    expect(problems).toEqual([expect.stringMatching(/^CONSIGNA_MASTER_KEY: required with DATABASE_URL/)]);
    const bad = problemsOf({ DATABASE_URL: 'mysql://u:hunter2@db/x', CONSIGNA_MASTER_KEY: 'a'.repeat(64) });
    expect(bad.join()).not.toContain('hunter2');
  });

  it('validates the master key format', () => {
    expect(problemsOf({ CONSIGNA_MASTER_KEY: 'short' })).toEqual([
      expect.stringMatching(/^CONSIGNA_MASTER_KEY: expected 32 bytes/),
    ]);
    expect(loadConfig({ CONSIGNA_MASTER_KEY: 'ab'.repeat(32) }, '/srv').masterKey).toHaveLength(32);
    expect(loadConfig({ CONSIGNA_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') }, '/srv').masterKey).toHaveLength(32);
  });

  it('refuses REAL (no bank connector yet) and insecure webhooks in REAL', () => {
    const problems = problemsOf({ CONSIGNA_AMBIENTE: 'REAL', CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true' });
    expect(problems).toEqual([
      expect.stringMatching(/^CONSIGNA_AMBIENTE: REAL is not available yet/),
      expect.stringMatching(/^CONSIGNA_ALLOW_INSECURE_WEBHOOKS: must not be true when CONSIGNA_AMBIENTE is REAL/),
    ]);
  });

  it('parses retry delays and trust proxy forms', () => {
    expect(loadConfig({ CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1' }, '/srv').retryDelaysSeconds).toEqual([1, 1, 1, 1, 1, 1]);
    expect(loadConfig({ CONSIGNA_TRUST_PROXY: 'true' }, '/srv').trustProxy).toBe(true);
    expect(loadConfig({ CONSIGNA_TRUST_PROXY: '2' }, '/srv').trustProxy).toBe(2);
    expect(loadConfig({ CONSIGNA_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }, '/srv').trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(problemsOf({ CONSIGNA_TRUST_PROXY: 'maybe' })).toHaveLength(1);
  });

  it('turns traces on only with an OTLP endpoint, from the standard OTEL_* variables', () => {
    expect(loadConfig({}, '/srv').tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318/' }, '/srv').tracing).toEqual({
      endpoint: 'http://otel:4318/v1/traces',
      protocol: 'http/protobuf',
      sampler: { name: 'parentbased_always_on', ratio: 1 },
      batch: { scheduledDelayMillis: 5000, maxQueueSize: 2048, maxExportBatchSize: 512, exportTimeoutMillis: 30_000 },
      spanLimits: {},
    });
    const tuned = loadConfig(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/custom',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_BSP_MAX_QUEUE_SIZE: '100',
        OTEL_ATTRIBUTE_COUNT_LIMIT: '64',
        OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '32',
        OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '256',
        OTEL_SPAN_LINK_COUNT_LIMIT: '4',
      },
      '/srv',
    ).tracing;
    expect(tuned).toMatchObject({
      endpoint: 'https://traces.example/custom',
      protocol: 'http/json',
      sampler: { name: 'parentbased_traceidratio', ratio: 0.25 },
      batch: { maxQueueSize: 100, maxExportBatchSize: 100 },
      // The span's own limit before the general one.
      spanLimits: { attributeCountLimit: 32, attributeValueLengthLimit: 256, linkCountLimit: 4 },
    });
    // Off again, whatever the endpoint says.
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318', OTEL_SDK_DISABLED: 'true' }, '/srv').tracing,
    ).toBeUndefined();
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318', OTEL_TRACES_EXPORTER: 'none' }, '/srv').tracing,
    ).toBeUndefined();
    // gRPC is not offered; a wrong value is a clear problem, and the endpoint is never echoed.
    const problems = problemsOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://user:s3cr3t@otel:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_TRACES_SAMPLER_ARG: '1.5',
      OTEL_SPAN_EVENT_COUNT_LIMIT: 'many',
    });
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/OTEL_EXPORTER_OTLP_PROTOCOL: expected one of http\/protobuf, http\/json/);
    expect(problems.join('\n')).not.toContain('s3cr3t');
    expect(problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel:4318' })).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT: expected a http: or https: URL',
    ]);
  });
});
