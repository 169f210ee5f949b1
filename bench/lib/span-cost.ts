// CPU per span of the service's tracer (src/observability/lean-tracer.ts) against the
// SDK's, in one process, in turns: spans shaped like the service's (a request's server
// span and its statement's span; a delivery attempt's span continuing a stored trace,
// with a link), each ended into the span processor the service uses for OTLP/protobuf
// (span-batches.ts), whose export goes nowhere.
//
//   node bench/lib/span-cost.ts [spans per round, default 200000]
//
// Then tracing off, as the service runs it without an OTLP endpoint: a delivery attempt's
// wrapper (inStoredTrace, which returns at its first line) around an empty async step,
// against the same step called directly.
//
// Run by hand (bench/README.md, "Tracing"); the suite's tracing parts measure the
// service as a whole.
import { context, trace, SpanKind, type Attributes, type Context, type Link, type Span, type Tracer } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, ParentBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { contexts, LEAN_ROOT } from '../../src/observability/lean-context.ts';
import { LeanTracer } from '../../src/observability/lean-tracer.ts';
import { EncodedBatchProcessor } from '../../src/observability/span-batches.ts';
import { inStoredTrace, parseTraceparent } from '../../src/observability/tracing.ts';

const SPANS = Number(process.argv[2] ?? 200_000);
const ROUNDS = 5;

context.setGlobalContextManager(contexts);
const resource = resourceFromAttributes({ 'service.name': 'consigna-bench', 'consigna.role': 'api' });
const processor = () =>
  new EncodedBatchProcessor({ scheduleDelayMs: 5000, maxQueueSize: 2048, maxExportBatchSize: 512 }, async () => {});

const tracers: Record<'sdk' | 'lean', Tracer> = {
  // OTEL_TRACES_SAMPLER's default, parentbased_always_on, as each tracer takes it.
  sdk: new TracerProvider({
    resource,
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [processor()],
  }).getTracer('consigna'),
  lean: new LeanTracer({
    resource,
    scope: { name: 'consigna' },
    processor: processor(),
    sampler: new AlwaysOnSampler(),
    parentBased: true,
  }),
};

const stored = parseTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')!;
const channelId = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

/**
 * A span as each tracer is called: the SDK's through the API (an options object, its
 * attributes copied), the service's through startOwned, as the service calls it.
 */
function start(tracer: Tracer, name: string, kind: SpanKind, attributes: Attributes, parent?: Context, links?: Link[]): Span {
  if (tracer instanceof LeanTracer) return tracer.startOwned(name, kind, attributes, parent, links);
  return tracer.startSpan(name, { kind, attributes, ...(links ? { links } : {}) }, parent);
}

/** GET /v1/links/{id}: the request's span and its one statement's span (2 spans). */
function request(tracer: Tracer, i: number): void {
  const span = start(
    tracer,
    'GET /v1/links/:id',
    SpanKind.SERVER,
    { 'http.request.method': 'GET', 'http.route': '/v1/links/:id', 'consigna.request.id': `req-${i}` },
    LEAN_ROOT,
  );
  const active: Context = trace.setSpan(LEAN_ROOT, span);
  context.with(active, () => {
    const db = start(tracer, 'select links', SpanKind.CLIENT, {
      'db.system.name': 'postgresql',
      'db.query.summary': 'select links',
    });
    db.setAttribute('db.response.returned_rows', 1);
    db.end();
  });
  span.setAttribute('http.response.status_code', 200);
  span.setAttribute('consigna.channel.id', channelId);
  span.end();
}

/** A delivery attempt over the network: continues the stored trace, links to the current span (1 span). */
function attempt(tracer: Tracer, i: number, current: Span): void {
  const span = start(
    tracer,
    'webhook proposta.aprovada',
    SpanKind.CLIENT,
    {
      'http.request.method': 'POST',
      'http.request.resend_count': 0,
      'consigna.delivery.attempt': 1,
      'consigna.event.id': `evt-${i}`,
      'consigna.event.type': 'proposta.aprovada',
      'consigna.delivery.id': `dlv-${i}`,
      'consigna.channel.id': channelId,
    },
    trace.setSpanContext(LEAN_ROOT, stored),
    [{ context: current.spanContext() }],
  );
  span.setAttribute('http.response.status_code', 204);
  span.end();
}

/** CPU of `count` calls of `work`, yielding now and then so that finished batches are exported. */
async function cpuMicros(count: number, work: (i: number) => void): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    work(i);
    if (i % 256 === 255) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

const results: Record<string, number[]> = {};
const current = tracers.sdk.startSpan('current');
for (let round = 0; round <= ROUNDS; round++) {
  for (const name of ['sdk', 'lean'] as const) {
    const tracer = tracers[name];
    const requestUs = await cpuMicros(SPANS / 2, (i) => request(tracer, i));
    const attemptUs = await cpuMicros(SPANS, (i) => attempt(tracer, i, current));
    if (round === 0) continue; // warm-up
    (results[`${name} request`] ??= []).push(requestUs / SPANS);
    (results[`${name} attempt`] ??= []).push(attemptUs / SPANS);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`CPU per span, median of ${ROUNDS} rounds of ${SPANS.toLocaleString('en-US')} spans each (after one warm-up round):`);
for (const kind of ['request', 'attempt']) {
  const sdk = median(results[`sdk ${kind}`]!);
  const lean = median(results[`lean ${kind}`]!);
  const label = kind === 'request' ? 'GET request (server + statement span)' : 'delivery attempt (7 attributes, a link)';
  console.log(`  ${label}: SDK tracer ${sdk.toFixed(2)} µs, service tracer ${lean.toFixed(2)} µs (${(lean / sdk).toFixed(2)}×)`);
}

// Tracing off: nothing was started in this process for tracing.ts, so its tracer is unset.
const step = async (_span: unknown) => 1;
const offRuns: Record<'direct' | 'wrapped', number[]> = { direct: [], wrapped: [] };
for (let round = 0; round <= ROUNDS; round++) {
  const direct = await cpuMicros(SPANS, () => void step(undefined));
  const wrapped = await cpuMicros(SPANS, (i) => void inStoredTrace(null, `webhook ${i}`, {}, step, SpanKind.CLIENT));
  if (round === 0) continue;
  offRuns.direct.push(direct / SPANS);
  offRuns.wrapped.push(wrapped / SPANS);
}
const direct = median(offRuns.direct);
const wrapped = median(offRuns.wrapped);
console.log(
  `  tracing off, per attempt: the step alone ${direct.toFixed(3)} µs, through inStoredTrace ${wrapped.toFixed(3)} µs (+${(wrapped - direct).toFixed(3)} µs)`,
);
