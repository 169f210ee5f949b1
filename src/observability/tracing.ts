// OpenTelemetry traces (docs/observability.md "Traces"), on OpenTelemetry's own SDK: its tracer provider
// and samplers, its batch span processor around its OTLP exporter, and its AsyncLocalStorage
// context manager. With no OTLP endpoint configured the SDK is never imported (it is loaded
// when tracing starts) and every helper here returns at its first line.
//
// What a span may carry is decided here and in the three places that make spans (HTTP
// requests, database statements, delivery attempts): route patterns, statement summaries,
// ids, types, counts and status codes. Never a URL (a link's or an inbox's carries its
// token), a header, a body, a query parameter, a client address or an error message
// (a database error can quote the value that broke it). test/observability/tracing.test.ts
// looks for every secret and personal datum of a whole journey in everything exported.
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  diag,
  propagation,
  trace,
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type DiagLogger,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import type { TracingConfig } from '../config/config.ts';
import type { Logger } from './logger.ts';

export { SpanKind, SpanStatusCode, type Attributes, type Span, type Tracer };

/** The service's tracer: OpenTelemetry's, from the SDK's provider. */
export type ServiceTracer = Tracer;

let active: { tracer: Tracer; traceContext: TextMapPropagator } | undefined;

/** The process's tracer while tracing runs; undefined when it is off. */
export function activeTracer(): ServiceTracer | undefined {
  return active?.tracer;
}

/**
 * Starts exporting (once per process: OpenTelemetry's provider, context manager and
 * propagator are process-wide). `attributes` describe this process (its roles, pid…);
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES are read by the SDK's detectors and win.
 * What the SDK reports (spans dropped past OTEL_BSP_MAX_QUEUE_SIZE, failed exports) goes to
 * `log`. Answers the function that flushes what is queued and stops.
 */
export async function startTracing(config: TracingConfig, attributes: Attributes, log: Logger): Promise<() => Promise<void>> {
  if (active) return async () => {};
  const [sdk, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, resources, { OTLPTraceExporter }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
      config.protocol === 'http/json'
        ? import('@opentelemetry/exporter-trace-otlp-http')
        : import('@opentelemetry/exporter-trace-otlp-proto'),
    ]);
  diag.setLogger(diagLogger(log), DiagLogLevel.WARN);

  const { name, ratio } = config.sampler;
  const root = name.endsWith('always_on')
    ? new sdk.AlwaysOnSampler()
    : name.endsWith('always_off')
      ? new sdk.AlwaysOffSampler()
      : new sdk.TraceIdRatioBasedSampler(ratio);
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': 'consigna', ...attributes }).merge(
      resources.detectResources({
        detectors: [resources.resourceAttributesEnvDetector, resources.serviceNameEnvDetector],
      }),
    ),
    sampler: name.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root,
    spanLimits: config.spanLimits,
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: config.endpoint }), ...config.batch })],
  });
  const traceContext = new W3CTraceContextPropagator();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(traceContext);
  trace.setGlobalTracerProvider(provider);
  active = { tracer: provider.getTracer('consigna'), traceContext };
  return async () => {
    active = undefined;
    await provider.shutdown().catch((error: unknown) => log.warn({ err: error }, 'trace export failed at shutdown'));
    trace.disable();
    propagation.disable();
    context.disable();
    diag.disable();
  };
}

/** The SDK's diagnostics at warn and error, as the service's log lines. */
function diagLogger(log: Logger): DiagLogger {
  const at =
    (level: 'warn' | 'error') =>
    (message: string, ...args: unknown[]) =>
      log[level]({ component: 'opentelemetry', ...(args.length > 0 ? { details: args.map(String) } : {}) }, message);
  const none = () => {};
  return { error: at('error'), warn: at('warn'), info: none, debug: none, verbose: none };
}

/**
 * The current span as a W3C `traceparent`, for a row whose later work belongs to this
 * trace: a link (its journey and proposal), an event (its delivery attempts, in
 * whichever worker process). null when tracing is off or no span is current.
 */
export function currentTraceparent(): string | null {
  if (!active) return null;
  const carrier: Record<string, string> = {};
  active.traceContext.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier.traceparent ?? null;
}

/** A stored `traceparent` as a context whose span is that remote one; undefined when there is none or it is malformed. */
function storedContext(traceContext: TextMapPropagator, stored: string | null | undefined): Context | undefined {
  if (!stored) return undefined;
  const extracted = traceContext.extract(ROOT_CONTEXT, { traceparent: stored }, defaultTextMapGetter);
  return trace.getSpanContext(extracted) ? extracted : undefined;
}

/**
 * Runs `work` in a span that continues the trace stored with a row (`stored`, from
 * currentTraceparent), so that a link's creation, its journey's steps, its proposal's
 * changes and the attempts to deliver their events make one trace whatever process and
 * request runs each. The span also links to the span current here (the HTTP request
 * that carried the step). Without a stored context the span continues the current one.
 * `work` runs with the span as the current one (its statements' spans are its children)
 * unless `current` is false (work that makes no spans of its own: a request to another server).
 */
export function inStoredTrace<T>(
  stored: string | null | undefined,
  name: string,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
  { current: makeCurrent = true }: { current?: boolean } = {},
): Promise<T> {
  if (!active) return work(undefined);
  const here = context.active();
  const parent = storedContext(active.traceContext, stored);
  const current = trace.getSpan(here);
  const links = parent && current ? [{ context: current.spanContext() }] : [];
  const parentContext = parent ?? here;
  const span = active.tracer.startSpan(name, { kind, attributes, links }, parentContext);
  if (!makeCurrent) return finishing(span, work);
  return context.with(trace.setSpan(parentContext, span), () => finishing(span, work));
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

async function finishing<T>(span: Span, work: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await work(span);
  } catch (error) {
    markFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
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
