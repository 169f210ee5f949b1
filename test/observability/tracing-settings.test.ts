// The standard OTEL_* settings reach OpenTelemetry's SDK (src/observability/tracing.ts,
// from src/config/config.ts): span limits, the sampler, the protocol, and the batch
// processor's queue, whose overflow the service's log reports. Each test starts tracing
// from the variables an operator would set, exports to a local collector and stops.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { currentTraceparent, inSpan, inStoredTrace, startTracing } from '../../src/observability/tracing.ts';
import { startOtlpCollector, type OtlpCollector } from '../helpers/otlp.ts';
import { waitFor } from '../helpers/wait.ts';

let collector: OtlpCollector | undefined;
let stop: (() => Promise<void>) | undefined;

afterEach(async () => {
  await stop?.();
  await collector?.close();
  stop = collector = undefined;
});

/** Tracing started from these variables (and the collector as endpoint); the log's lines kept. */
async function tracingWith(env: Record<string, string>) {
  collector = await startOtlpCollector();
  const lines: string[] = [];
  const log = createLogger('warn', { write: (line: string) => lines.push(line) });
  const config = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, ...env }, '/srv');
  stop = await startTracing(config.tracing!, { 'consigna.roles': 'api' }, log);
  return { collector, lines, flush: () => stop!() };
}

const noWork = async () => undefined;

describe('tracing from the standard OTEL_* variables', () => {
  it('applies the span limits (OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT, OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT)', async () => {
    const { collector, flush } = await tracingWith({
      OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '2',
      OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '4',
    });
    await inSpan('limitado', { 'consigna.a': 'abcdefgh', 'consigna.b': 1, 'consigna.c': 2 }, noWork);
    await flush();
    const [span] = collector.spans.filter((s) => s.name === 'limitado');
    expect(span?.attributes).toEqual([
      { key: 'consigna.a', value: { stringValue: 'abcd' } },
      { key: 'consigna.b', value: { intValue: '1' } },
    ]);
    expect(span?.droppedAttributesCount).toBe(1);
  });

  it('samples with OTEL_TRACES_SAMPLER, and a stored trace keeps its own decision', async () => {
    const { collector, flush } = await tracingWith({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
    });
    // A new trace at ratio 0 is left out, and what it stores says so.
    let stored: string | null = null;
    await inSpan('raiz', {}, async () => {
      stored = currentTraceparent();
    });
    expect(stored).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    await inStoredTrace(stored, 'continua nao amostrada', {}, noWork);
    // A trace stored as sampled goes on being sampled, in the stored trace, under the stored span.
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await inStoredTrace(`00-${traceId}-00f067aa0ba902b7-01`, 'continua amostrada', {}, noWork);
    await flush();
    expect(collector.spans.map((s) => s.name)).toEqual(['continua amostrada']);
    expect(collector.spans[0]).toMatchObject({ traceId, parentSpanId: '00f067aa0ba902b7' });
  });

  it('exports OTLP/JSON when OTEL_EXPORTER_OTLP_PROTOCOL=http/json', async () => {
    const { collector, flush } = await tracingWith({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    await inSpan('em json', {}, noWork);
    await flush();
    expect([...collector.contentTypes]).toEqual(['application/json']);
    expect(collector.spans.map((s) => s.name)).toEqual(['em json']);
  });

  it('says in the log when spans are dropped past OTEL_BSP_MAX_QUEUE_SIZE', async () => {
    const { collector, lines, flush } = await tracingWith({
      OTEL_BSP_MAX_QUEUE_SIZE: '2',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2',
      OTEL_BSP_SCHEDULE_DELAY: '60000',
    });
    // Two leave at once, two wait while they are exported, the other six find the queue full.
    for (let i = 0; i < 10; i++) await inSpan(`fila ${i}`, {}, noWork);
    await waitFor(() => collector.spans.length === 4, { timeoutMs: 10_000, what: 'the four queued spans at the collector' });
    // The next span finds room, and the processor reports what it dropped.
    await inSpan('depois', {}, noWork);
    await flush();
    const warnings = lines.map((line) => JSON.parse(line) as { component?: string; msg: string });
    expect(warnings).toContainEqual(
      expect.objectContaining({ component: 'opentelemetry', msg: expect.stringMatching(/^Dropped 6 spans/) }),
    );
  });
});
