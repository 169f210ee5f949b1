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
  it('has the documented defaults, every one of them, and is frozen', () => {
    const config = loadConfig({}, '/srv');
    expect(config).toStrictEqual({
      port: 3000,
      host: '0.0.0.0',
      publicBaseUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      dataDir: '/srv/data',
      ambiente: 'SANDBOX',
      masterKey: undefined,
      linkTtlSeconds: 604_800,
      tokenTtlSeconds: 3600,
      retryDelaysSeconds: [60, 300, 1800, 7200, 21_600, 86_400],
      allowInsecureWebhooks: false,
      trustProxy: false,
      logLevel: 'info',
      authGuard: { maxPerClient: 10, maxPerIp: 30, windowSeconds: 900, blockSeconds: 900 },
      rateLimits: {
        api: { max: 30_000, windowSeconds: 60 },
        inbox: { max: 1200, windowSeconds: 60 },
        journey: { max: 300, windowSeconds: 60 },
        unknownToken: { max: 300, windowSeconds: 60 },
      },
      pgPoolSize: 20,
      embeddedSharedBuffersMb: 32,
      worker: {
        concurrency: 64,
        leaseSeconds: 60,
        pollSeconds: 5,
        deliveryTimeoutMs: 10_000,
        maxInFlightPerChannel: 32,
        containAfter: 3,
        slowAfterMs: 1000,
      },
      shutdownTimeoutMs: 15_000,
      limits: { streams: 200, shedEventLoopDelayMs: 100, shedHeapRatio: 0.8, heavyConcurrency: 1 },
      metrics: {},
      retention: { eventsDays: 30, personalDataDays: 30, idempotencyHours: 24 },
    });
    expect(Object.isFrozen(config)).toBe(true);
    // Blank is unset, as a shell's `VAR=` means; surrounding spaces are not part of a value.
    expect(loadConfig({ PORT: '  ', LOG_LEVEL: '', CONSIGNA_RATE_LIMIT_API: ' 10/1 ' }, '/srv')).toMatchObject({
      port: 3000,
      logLevel: 'info',
      rateLimits: { api: { max: 10, windowSeconds: 1 } },
    });
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

  it('reads integers as plain decimal digits only', () => {
    expect(loadConfig({ CONSIGNA_MAX_STREAMS: '007' }, '/srv').limits.streams).toBe(7);
    for (const text of ['1.5', '1e3', '+5', '-5', '0x10', '5 5', '٣']) {
      expect(problemsOf({ CONSIGNA_MAX_STREAMS: text })).toEqual([
        `CONSIGNA_MAX_STREAMS: expected an integer from 1 to 100000, got "${text}"`,
      ]);
    }
  });

  it('reads ratios from 0 to 1 and booleans as true/1 or false/0', () => {
    for (const [text, ratio] of [
      ['0', 0],
      ['1', 1],
      ['.5', 0.5],
      ['0.25', 0.25],
    ] as const) {
      expect(loadConfig({ CONSIGNA_SHED_HEAP_RATIO: text }, '/srv').limits.shedHeapRatio).toBe(ratio);
    }
    for (const text of ['1.5', '-0.1', '1e-1', 'half']) {
      expect(problemsOf({ CONSIGNA_SHED_HEAP_RATIO: text })).toEqual([
        `CONSIGNA_SHED_HEAP_RATIO: expected a number from 0 to 1, got "${text}"`,
      ]);
    }
    for (const [text, value] of [
      ['true', true],
      ['1', true],
      ['false', false],
      ['0', false],
    ] as const) {
      expect(loadConfig({ CONSIGNA_ALLOW_INSECURE_WEBHOOKS: text }, '/srv').allowInsecureWebhooks).toBe(value);
    }
    for (const text of ['TRUE', 'yes', 'constructor']) {
      expect(problemsOf({ CONSIGNA_ALLOW_INSECURE_WEBHOOKS: text })).toEqual([
        `CONSIGNA_ALLOW_INSECURE_WEBHOOKS: expected true or false, got "${text}"`,
      ]);
    }
  });

  it('reads rate limits as N/SECONDS, where 0 requests disables the limit', () => {
    expect(loadConfig({ CONSIGNA_RATE_LIMIT_API: '0/60', CONSIGNA_RATE_LIMIT_INBOX: '5/1' }, '/srv').rateLimits).toMatchObject({
      api: { max: 0, windowSeconds: 60 },
      inbox: { max: 5, windowSeconds: 1 },
    });
    for (const text of ['5/0', '5', '-1/5', '10 / 1', 'a/b']) {
      expect(problemsOf({ CONSIGNA_RATE_LIMIT_JOURNEY: text })).toEqual([
        `CONSIGNA_RATE_LIMIT_JOURNEY: expected "<requests>/<seconds>", e.g. 600/60 (0/60 disables), got "${text}"`,
      ]);
    }
  });

  it('reads the retry delays as exactly six positive integers', () => {
    expect(loadConfig({ CONSIGNA_RETRY_DELAYS: ' 1 , 2,3,4,5,6' }, '/srv').retryDelaysSeconds).toEqual([1, 2, 3, 4, 5, 6]);
    for (const text of ['1,1,1,1,1,1,1', '0,1,1,1,1,1', '1,1,1,1,1,', '1,1,1,1,1,x']) {
      expect(problemsOf({ CONSIGNA_RETRY_DELAYS: text })).toEqual([
        `CONSIGNA_RETRY_DELAYS: expected 6 comma-separated positive integers (seconds), got "${text}"`,
      ]);
    }
  });

  describe('rules between variables', () => {
    it('wants the lease at least three times the delivery timeout', () => {
      const lease = (env: Record<string, string>) => problemsOf(env).filter((p) => p.startsWith('CONSIGNA_WORKER_LEASE'));
      expect(lease({ CONSIGNA_WORKER_LEASE_SECONDS: '30', CONSIGNA_DELIVERY_TIMEOUT_MS: '10000' })).toEqual([]);
      expect(lease({ CONSIGNA_WORKER_LEASE_SECONDS: '29' })).toEqual([
        'CONSIGNA_WORKER_LEASE_SECONDS: must be at least three times the delivery timeout',
      ]);
      expect(lease({ CONSIGNA_WORKER_LEASE_SECONDS: '15', CONSIGNA_DELIVERY_TIMEOUT_MS: '5000' })).toEqual([]);
      expect(lease({ CONSIGNA_WORKER_LEASE_SECONDS: '15', CONSIGNA_DELIVERY_TIMEOUT_MS: '5001' })).toHaveLength(1);
    });

    it('judges a wrong variable by its default, so a rule reports only its own problem', () => {
      // The timeout falls back to 10 s, which a lease of 20 s does not cover three times.
      expect(problemsOf({ CONSIGNA_WORKER_LEASE_SECONDS: '20', CONSIGNA_DELIVERY_TIMEOUT_MS: 'dez' })).toEqual([
        'CONSIGNA_DELIVERY_TIMEOUT_MS: expected an integer from 100 to 10000, got "dez"',
        'CONSIGNA_WORKER_LEASE_SECONDS: must be at least three times the delivery timeout',
      ]);
      // A wrong ambiente is SANDBOX for the rules: one line, not a second about REAL.
      expect(problemsOf({ CONSIGNA_AMBIENTE: 'PROD', CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true' })).toEqual([
        'CONSIGNA_AMBIENTE: expected one of SANDBOX, REAL, got "PROD"',
      ]);
      // A wrong key is one line; it is not also "required".
      expect(problemsOf({ DATABASE_URL: 'postgres://db/consigna', CONSIGNA_MASTER_KEY: 'short' })).toEqual([
        'CONSIGNA_MASTER_KEY: expected 32 bytes as 64 hex characters or base64',
      ]);
    });

    it('requires the master key with DATABASE_URL, a blank one included', () => {
      for (const key of [undefined, '', '   ']) {
        const env = { DATABASE_URL: 'postgresql://db/consigna', ...(key === undefined ? {} : { CONSIGNA_MASTER_KEY: key }) };
        expect(problemsOf(env)).toEqual([
          'CONSIGNA_MASTER_KEY: required with DATABASE_URL (32 bytes as 64 hex characters or base64); generate one with: openssl rand -hex 32',
        ]);
      }
      const config = loadConfig({ DATABASE_URL: 'postgresql://db/consigna', CONSIGNA_MASTER_KEY: 'ab'.repeat(32) }, '/srv');
      expect(config.databaseUrl).toBe('postgresql://db/consigna');
      expect(config.masterKey).toEqual(Buffer.from('ab'.repeat(32), 'hex'));
    });

    it('checks a general OTEL variable only when its traces-specific one is unset', () => {
      // OTEL_EXPORTER_OTLP_PROTOCOL may be meant for other signals of the same environment.
      const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' };
      expect(loadConfig({ ...env, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }, '/srv').tracing?.protocol).toBe('http/json');
      expect(problemsOf(env)).toEqual(['OTEL_EXPORTER_OTLP_PROTOCOL: expected one of http/protobuf, http/json, got "grpc"']);
      expect(
        loadConfig(
          { ...env, OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '8', OTEL_ATTRIBUTE_COUNT_LIMIT: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: '' },
          '/srv',
        ).tracing?.spanLimits,
      ).toEqual({ attributeCountLimit: 8 });
      expect(problemsOf({ OTEL_ATTRIBUTE_COUNT_LIMIT: 'x' })).toEqual([
        'OTEL_ATTRIBUTE_COUNT_LIMIT: expected an integer from 0 to 1000000, got "x"',
      ]);
    });

    it('keeps an export batch no larger than the queue, and leaves unset span limits to the SDK', () => {
      const tracing = (env: Record<string, string>) =>
        loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://otel:4318/v1/traces', ...env }, '/srv').tracing;
      expect(tracing({ OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '500' })?.batch).toMatchObject({
        maxQueueSize: 100,
        maxExportBatchSize: 100,
      });
      expect(tracing({ OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT: '0' })?.spanLimits).toStrictEqual({ attributePerEventCountLimit: 0 });
      // The traces endpoint is used as given (no /v1/traces appended).
      expect(tracing({})?.endpoint).toBe('http://otel:4318/v1/traces');
    });
  });
});
