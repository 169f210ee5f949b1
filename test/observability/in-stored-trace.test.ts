// inStoredTrace's span ends with its work, whatever way the work ends: a value, a rejected
// promise or a synchronous throw, each with the error passed on as it was. Over the real
// exporter (tracing.ts with an OTLP/protobuf endpoint) to a local collector.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { inStoredTrace, startTracing } from '../../src/observability/tracing.ts';
import { startOtlpCollector, type OtlpCollector } from '../helpers/otlp.ts';

let collector: OtlpCollector;
let stop: () => Promise<void>;

beforeAll(async () => {
  collector = await startOtlpCollector();
  const config = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '60000' }, '/srv');
  stop = await startTracing(config.tracing!, {}, createLogger('silent'));
});

afterAll(async () => {
  await stop?.();
  await collector?.close();
});

describe('inStoredTrace', () => {
  it("ends the span with the work's outcome and passes the outcome on", async () => {
    const failure = Object.assign(new Error('falhou com o CPF 12345678909'), { code: 'banco_indisponivel' });
    const outcomes = [];
    for (const current of [true, false]) {
      outcomes.push(await inStoredTrace(null, `ok ${current}`, {}, async () => 7, undefined, { current }));
      outcomes.push(
        await inStoredTrace(null, `rejeitada ${current}`, {}, async () => Promise.reject(failure), undefined, { current }).catch(
          (error: unknown) => error,
        ),
      );
      outcomes.push(
        await inStoredTrace(
          null,
          `lancada ${current}`,
          {},
          () => {
            throw new TypeError('síncrono');
          },
          undefined,
          { current },
        ).catch((error: unknown) => error),
      );
    }
    expect(outcomes[0]).toBe(7);
    expect(outcomes[1]).toBe(failure);
    expect(outcomes[2]).toBeInstanceOf(TypeError);
    expect(outcomes[3]).toBe(7);
    expect(outcomes[4]).toBe(failure);
    expect(outcomes[5]).toBeInstanceOf(TypeError);

    await stop();
    const { spans } = collector;
    const byName = new Map(spans.map((s) => [s.name, s]));
    for (const current of [true, false]) {
      const ok = byName.get(`ok ${current}`)!;
      const rejected = byName.get(`rejeitada ${current}`)!;
      const thrown = byName.get(`lancada ${current}`)!;
      for (const span of [ok, rejected, thrown]) {
        expect(span, `span of ${current}`).toBeDefined();
        expect(BigInt(span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(span.startTimeUnixNano));
      }
      expect(ok.status.code ?? 0).toBe(0);
      expect(ok.attributes).toEqual([]);
      // The code, never the message (it may quote a value).
      expect(rejected.status.code).toBe(2);
      expect(rejected.attributes).toEqual([{ key: 'error.type', value: { stringValue: 'banco_indisponivel' } }]);
      expect(thrown.status.code).toBe(2);
      expect(thrown.attributes).toEqual([{ key: 'error.type', value: { stringValue: 'TypeError' } }]);
    }
    expect(JSON.stringify(spans)).not.toContain('12345678909');
  });
});
