// OpenTelemetry traces (README "Traces"). With no OTLP endpoint configured nothing of the
// SDK is loaded and every helper here returns at its first line: tracing off costs a
// null check. With one, spans go out in batches from a background processor.
//
// What a span may carry is decided here and in the three places that make spans (HTTP
// requests, database statements, delivery attempts): route patterns, statement summaries,
// ids, types, counts and status codes. Never a URL (a link's or an inbox's carries its
// token), a header, a body, a query parameter, a client address or an error message
// (a database error can quote the value that broke it). test/observability/tracing.test.ts
// looks for every secret and personal datum of a whole journey in everything exported.
import {
  context,
  trace,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Attributes,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import type { TracingConfig } from '../config/config.ts';
import { contexts, LEAN_ROOT } from './lean-context.ts';
import type { LeanTracer } from './lean-tracer.ts';

export { SpanKind, SpanStatusCode, type Attributes, type Span, type Tracer };

/** The service's tracer (lean-tracer.ts): the API's Tracer, and startOwned for our own spans. */
export type ServiceTracer = LeanTracer;

let active: ServiceTracer | undefined;

/** The process's tracer while tracing runs; undefined when it is off. */
export function activeTracer(): ServiceTracer | undefined {
  return active;
}

/**
 * Starts exporting (once per process: OpenTelemetry's provider and context manager are
 * process-wide). Answers the function that flushes what is queued and stops.
 */
export async function startTracing(
  config: TracingConfig,
  attributes: Attributes,
  onDropped: (dropped: number) => void = () => {},
): Promise<() => Promise<void>> {
  if (active) return async () => {};
  const [sdk, resources, spanProcessor, { LeanTracer, leanProvider }, { RatioSampler }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
    config.protocol === 'http/json' ? jsonProcessor(config) : protobufProcessor(config, onDropped),
    import('./lean-tracer.ts'),
    import('./ratio-sampler.ts'),
  ]);
  const samplers = {
    always_on: () => new sdk.AlwaysOnSampler(),
    always_off: () => new sdk.AlwaysOffSampler(),
    traceidratio: () => new RatioSampler(config.sampler.ratio),
  };
  const parentBased = config.sampler.name.startsWith('parentbased_');
  const rootSampler = samplers[config.sampler.name.replace(/^parentbased_/, '') as keyof typeof samplers]();
  const resource = resources
    .resourceFromAttributes({ 'service.name': config.serviceName, ...attributes })
    // OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME, as every OpenTelemetry SDK reads them.
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const tracer = new LeanTracer({
    resource,
    scope: { name: 'consigna' },
    processor: spanProcessor,
    sampler: rootSampler,
    parentBased,
  });
  context.setGlobalContextManager(contexts);
  trace.setGlobalTracerProvider(leanProvider(tracer));
  active = tracer;
  return async () => {
    active = undefined;
    await spanProcessor.shutdown().catch(() => {});
    trace.disable();
    context.disable();
  };
}

/**
 * OTLP/protobuf, the default: spans encoded as they end (span-batches.ts), sent by
 * OpenTelemetry's own OTLP/HTTP transport, which reads the exporter's settings from
 * the environment as the specification defines them (OTEL_EXPORTER_OTLP_*HEADERS,
 * TIMEOUT, COMPRESSION, CERTIFICATE, CLIENT_KEY…) and retries what may be retried.
 */
async function protobufProcessor(config: TracingConfig, onDropped: (dropped: number) => void) {
  const [{ createOtlpHttpExportDelegate, convertLegacyHttpOptions }, { ProtobufTraceSerializer }, { ExportResultCode }, batches] =
    await Promise.all([
      import('@opentelemetry/otlp-exporter-base/node-http'),
      import('@opentelemetry/otlp-transformer'),
      import('@opentelemetry/core'),
      import('./span-batches.ts'),
    ]);
  interface Encoded {
    body: Buffer;
    spans: number;
  }
  const delegate = createOtlpHttpExportDelegate<Encoded, unknown>(
    convertLegacyHttpOptions({ url: config.endpoint }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
    { serializeRequest: (batch) => batch.body, deserializeResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data) },
    'otlp_http_span_exporter',
    { name: 'span', countItems: (batch) => batch.spans },
    undefined,
  );
  const { exportTimeoutMs } = config.batch;
  const send = (body: Buffer, spans: number) =>
    new Promise<void>((resolve, reject) => {
      // OTEL_BSP_EXPORT_TIMEOUT bounds the whole export, retries included, as in the SDK's processor.
      const timer = setTimeout(() => reject(new Error('export timed out')), exportTimeoutMs);
      delegate.export({ body, spans }, (result) => {
        clearTimeout(timer);
        if (result.code === ExportResultCode.SUCCESS) resolve();
        else reject(result.error ?? new Error('export failed'));
      });
    });
  return new batches.EncodedBatchProcessor(config.batch, send, { onDropped, close: () => delegate.shutdown() });
}

/** OTLP/JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json): the SDK's own processor and exporter. */
async function jsonProcessor(config: TracingConfig) {
  const [{ BatchSpanProcessor }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  return new BatchSpanProcessor({
    exporter: new OTLPTraceExporter({ url: config.endpoint }),
    scheduledDelayMillis: config.batch.scheduleDelayMs,
    maxQueueSize: config.batch.maxQueueSize,
    maxExportBatchSize: config.batch.maxExportBatchSize,
    exportTimeoutMillis: config.batch.exportTimeoutMs,
  });
}

/**
 * The current span as a W3C `traceparent`, for a row whose later work belongs to this
 * trace: a link (its journey and proposal), an event (its delivery attempts, in
 * whichever worker process). null when tracing is off or no span is current.
 */
export function currentTraceparent(): string | null {
  if (!active) return null;
  const span = trace.getSpan(contexts.active());
  if (!span) return null;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-0${(traceFlags & TraceFlags.SAMPLED).toString(16)}`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A `traceparent` value (stored by us, or a client's header) as a remote span context. */
export function parseTraceparent(value: string | null | undefined): SpanContext | undefined {
  const match = value ? TRACEPARENT.exec(value) : null;
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16) & TraceFlags.SAMPLED, isRemote: true };
}

/**
 * Runs `work` in a span that continues the trace stored with a row (`stored`, from
 * currentTraceparent), so that a link's creation, its journey's steps, its proposal's
 * changes and the attempts to deliver their events make one trace whatever process and
 * request runs each. The span also links to the span current here (the HTTP request
 * that carried the step). Without a stored context the span continues the current one.
 * `work` runs with the span as the current one (its statements' spans are its children)
 * unless `current` is false.
 */
export function inStoredTrace<T>(
  stored: string | null | undefined,
  name: string,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
  { current: makeCurrent = true }: { current?: boolean } = {},
): Promise<T> {
  const tracer = active;
  if (!tracer) return work(undefined);
  const parent = parseTraceparent(stored);
  const here = contexts.active();
  const current = trace.getSpan(here);
  const parentContext = parent ? trace.setSpanContext(LEAN_ROOT, parent) : here;
  const links = parent && current ? [{ context: current.spanContext() }] : undefined;
  const span = tracer.startOwned(name, kind, attributes, parentContext, links);
  // `current: false` for work that makes no spans of its own (a request to another
  // server): entering a context for it costs more than the span itself.
  if (!makeCurrent) return finishing(span, work);
  return contexts.run(trace.setSpan(parentContext, span), () => finishing(span, work));
}

/** Runs `work` in a child span of the current one (a call to the bank, for example). */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return inStoredTrace(null, name, attributes, work, kind);
}

// With then() rather than an async function: one promise fewer per span, on every
// delivery attempt.
function finishing<T>(span: Span, work: (span: Span) => Promise<T>): Promise<T> {
  let running: Promise<T>;
  try {
    running = work(span);
  } catch (error) {
    markFailed(span, error);
    span.end();
    return Promise.reject(error as Error);
  }
  return running.then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      markFailed(span, error);
      span.end();
      throw error;
    },
  );
}

/**
 * A failed span says what kind of failure (our error code, or the error's class), never
 * the message: a database error's message can quote a parameter value.
 */
export function markFailed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  const type = typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? code : ((error as Error)?.name ?? 'Error');
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR });
}
