// What an operator reads when the environment is wrong: every problem at once, one line per
// variable naming it, the expected form and bounds, and never the value of a secret.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import { EnvSchema } from '../../src/config/env-schema.ts';

const problemsOf = (env: Record<string, string>): readonly string[] => {
  try {
    loadConfig(env, '/srv');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

type Variable = { writeOnly?: boolean; overriddenBy?: string; type?: string };
const VARIABLES = Object.entries(EnvSchema.properties as Record<string, Variable>);
// Free text has no wrong value.
const FREE_TEXT = ['HOST', 'CONSIGNA_DATA_DIR'];

describe('configuration problems', () => {
  it('reports every wrong variable at once, one line each, naming it', () => {
    // A value wrong for every kind of variable: not a number, a choice, a URL, an address or a key.
    const wrong = 'no such value';
    const env = Object.fromEntries(VARIABLES.map(([name]) => [name, wrong]));
    const problems = problemsOf(env);
    // A general OTEL variable whose traces-specific one is set is not read at all.
    const expected = VARIABLES.filter(([name, schema]) => !FREE_TEXT.includes(name) && !schema.overriddenBy).map(
      ([name]) => name,
    );
    expect(expected.length).toBeGreaterThan(40);
    expect(problems.map((line) => line.slice(0, line.indexOf(':')))).toEqual(expected);
    for (const line of problems) expect(line).toMatch(/^[A-Z_]+: (expected|not a valid URL)/);
    expect(() => loadConfig(env, '/srv')).toThrow(/^Invalid configuration:\n {2}- PORT: expected an integer from 0 to 65535/);
  });

  it('never shows a secret, a URL (it may carry a password) or anything the exporter reads itself', () => {
    const secrets = VARIABLES.filter(([, schema]) => schema.writeOnly).map(([name]) => name);
    expect(secrets).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'CONSIGNA_MASTER_KEY',
        'CONSIGNA_METRICS_TOKEN',
        'OTEL_EXPORTER_OTLP_ENDPOINT',
        'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      ]),
    );
    const wrong = Object.fromEntries(secrets.map((name) => [name, 'x s3cr3t:p4ss@']));
    const problems = problemsOf({ ...wrong, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer s3cr3t', PORT: 'x' });
    expect(problems).toHaveLength(secrets.length + 1);
    expect(problems.join('\n')).not.toContain('s3cr3t');
    // Valid secrets beside a rule that fails are not shown either.
    const rule = problemsOf({
      DATABASE_URL: 'postgres://consigna:s3cr3t@db/consigna',
      CONSIGNA_MASTER_KEY: Buffer.alloc(32, 5).toString('base64'),
      CONSIGNA_METRICS_TOKEN: 's3cr3t-s3cr3t-s3cr3t',
      CONSIGNA_AMBIENTE: 'REAL',
    });
    expect(rule).toHaveLength(1);
    expect(rule.join('\n')).not.toMatch(/s3cr3t|BQUF/);
  });

  // Each integer's bounds, as operators rely on them (README "Configuration").
  const MAX = Number.MAX_SAFE_INTEGER;
  const BOUNDS: [string, number, number][] = [
    ['PORT', 0, 65_535],
    ['CONSIGNA_LINK_TTL_SECONDS', 60, MAX],
    ['CONSIGNA_TOKEN_TTL_SECONDS', 1, 86_400],
    ['CONSIGNA_AUTH_MAX_PER_CLIENT', 1, MAX],
    ['CONSIGNA_AUTH_MAX_PER_IP', 1, MAX],
    ['CONSIGNA_AUTH_WINDOW_SECONDS', 1, MAX],
    ['CONSIGNA_AUTH_BLOCK_SECONDS', 1, MAX],
    ['CONSIGNA_PG_POOL_SIZE', 1, 500],
    ['CONSIGNA_EMBEDDED_SHARED_BUFFERS_MB', 1, 4096],
    ['CONSIGNA_WORKER_CONCURRENCY', 1, 4096],
    ['CONSIGNA_WORKER_LEASE_SECONDS', 15, MAX],
    ['CONSIGNA_WORKER_POLL_SECONDS', 1, MAX],
    ['CONSIGNA_DELIVERY_TIMEOUT_MS', 100, 10_000],
    ['CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL', 1, 4096],
    ['CONSIGNA_WORKER_CONTAIN_AFTER', 1, 1000],
    ['CONSIGNA_WORKER_SLOW_AFTER_MS', 100, 10_000],
    ['CONSIGNA_SHUTDOWN_TIMEOUT_MS', 0, MAX],
    ['CONSIGNA_MAX_STREAMS', 1, 100_000],
    ['CONSIGNA_SHED_EVENT_LOOP_DELAY_MS', 0, 60_000],
    ['CONSIGNA_HEAVY_CONCURRENCY', 1, 1000],
    ['CONSIGNA_RETENTION_EVENTS_DAYS', 1, 3650],
    ['CONSIGNA_RETENTION_PERSONAL_DATA_DAYS', 1, 3650],
    ['CONSIGNA_RETENTION_IDEMPOTENCY_HOURS', 24, 8760],
    ['OTEL_BSP_SCHEDULE_DELAY', 1, 600_000],
    ['OTEL_BSP_MAX_QUEUE_SIZE', 1, 1_000_000],
    ['OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 1, 100_000],
    ['OTEL_BSP_EXPORT_TIMEOUT', 1, 600_000],
    ['OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT', 0, 1_000_000],
    ['OTEL_ATTRIBUTE_COUNT_LIMIT', 0, 1_000_000],
    ['OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT', 0, 1_000_000],
    ['OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT', 0, 1_000_000],
    ['OTEL_SPAN_EVENT_COUNT_LIMIT', 0, 1_000_000],
    ['OTEL_SPAN_LINK_COUNT_LIMIT', 0, 1_000_000],
    ['OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT', 0, 1_000_000],
    ['OTEL_LINK_ATTRIBUTE_COUNT_LIMIT', 0, 1_000_000],
  ];

  it('knows the bounds of every integer variable', () => {
    const integers = VARIABLES.filter(([, schema]) => schema.type === 'integer').map(([name]) => name);
    expect(BOUNDS.map(([name]) => name).toSorted()).toEqual(integers.toSorted());
  });

  it.each(BOUNDS)('%s takes %d to %d', (name, min, max) => {
    const own = (text: string) => problemsOf({ [name]: text }).filter((line) => line.startsWith(`${name}: expected`));
    expect(own(String(min))).toEqual([]);
    expect(own(String(max))).toEqual([]);
    const outside = [...(min > 0 ? [min - 1] : []), max + 1];
    for (const value of outside) {
      expect(own(String(value))).toEqual([`${name}: expected an integer from ${min} to ${max}, got "${value}"`]);
    }
  });

  it('takes the metrics address and token forms, and the trust proxy forms', () => {
    const metrics = (env: Record<string, string>) => loadConfig(env, '/srv').metrics;
    expect(metrics({ CONSIGNA_METRICS_LISTEN: '0.0.0.0:9464', CONSIGNA_METRICS_TOKEN: 'a'.repeat(16) })).toEqual({
      listen: { host: '0.0.0.0', port: 9464 },
      token: 'a'.repeat(16),
    });
    for (const text of ['0', '65536', ':80', 'host:', 'a b:80']) {
      expect(problemsOf({ CONSIGNA_METRICS_LISTEN: text })).toEqual([
        `CONSIGNA_METRICS_LISTEN: expected host:port or a port, e.g. 127.0.0.1:9464, got "${text}"`,
      ]);
    }
    expect(problemsOf({ CONSIGNA_METRICS_TOKEN: 'a'.repeat(15) })).toEqual([
      'CONSIGNA_METRICS_TOKEN: expected at least 16 characters without spaces',
    ]);
    expect(problemsOf({ CONSIGNA_METRICS_TOKEN: 'a'.repeat(8) + ' ' + 'a'.repeat(8) })).toHaveLength(1);
    expect(loadConfig({ CONSIGNA_TRUST_PROXY: 'false' }, '/srv').trustProxy).toBe(false);
    expect(loadConfig({ CONSIGNA_TRUST_PROXY: '::1, fd00::/8' }, '/srv').trustProxy).toEqual(['::1', 'fd00::/8']);
    expect(problemsOf({ CONSIGNA_TRUST_PROXY: '10.0.0.1,' })).toEqual([
      'CONSIGNA_TRUST_PROXY: expected true, false, a hop count or a list of proxy addresses/CIDRs, got "10.0.0.1,"',
    ]);
  });
});
