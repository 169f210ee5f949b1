// The service's OTLP/protobuf encoding (src/observability/otlp-encoding.ts) against
// OpenTelemetry's own serializer, byte for byte, on spans made by the real SDK and by the
// service's own tracer (lean-tracer.ts), which must make the same spans; and the
// batching processor (span-batches.ts) exporting to a real OTLP/HTTP receiver through
// the exporter transport the service uses.
import http from 'node:http';
import { context, trace, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, createTraceState } from '@opentelemetry/api';
import {
  AlwaysOnSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { afterAll, describe, expect, it } from 'vitest';
import { exportRequest, ProtoWriter, writeSpan } from '../../src/observability/otlp-encoding.ts';
import { startTracing } from '../../src/observability/tracing.ts';
import { LeanTracer } from '../../src/observability/lean-tracer.ts';
import type { TracingConfig } from '../../src/config/config.ts';
import { decodeTraceRequest } from '../helpers/otlp.ts';
import { waitFor } from '../helpers/wait.ts';

/** A span processor that keeps every span that ends, in `ended`. */
const capturing = (ended: ReadableSpan[]): SpanProcessor => ({
  onStart() {},
  onEnd: (span) => void ended.push(span),
  forceFlush: async () => {},
  shutdown: async () => {},
});

/** The service's tracer, always sampling, each span that ends kept in `ended`. */
const capturingTracer = (ended: ReadableSpan[]) =>
  new LeanTracer({
    resource: resourceFromAttributes({ 'service.name': 'consigna-teste' }),
    scope: { name: 'consigna' },
    processor: capturing(ended),
    sampler: new AlwaysOnSampler(),
  });

/** An export request of `spans` (one resource, scope `consigna`), by our encoder. */
function encoded(spans: ReadableSpan[]): Buffer {
  const writer = new ProtoWriter(64);
  for (const span of spans) writeSpan(writer, span);
  return exportRequest(spans[0]!.resource, [{ scope: { name: 'consigna' }, spans: writer.buffer.subarray(0, writer.pos) }]);
}

/**
 * Every kind of span a tracer can end: each field, each attribute type, lengths of 1, 2 and
 * 3 bytes. By the SDK's tracer, or by the service's own (the one tracing.ts runs).
 */
function madeSpans(by: 'sdk' | 'lean'): ReadableSpan[] {
  const ended: ReadableSpan[] = [];
  const capture = capturing(ended);
  const resource = resourceFromAttributes({ 'service.name': 'consigna-teste', 'process.pid': 4242, 'x.ratio': 0.5 });
  const tracer =
    by === 'sdk'
      ? new TracerProvider({ resource, sampler: new AlwaysOnSampler(), spanProcessors: [capture] }).getTracer('consigna', '1.2.3')
      : new LeanTracer({
          resource,
          scope: { name: 'consigna', version: '1.2.3' },
          processor: capture,
          sampler: new AlwaysOnSampler(),
        });
  const root = tracer.startSpan('POST /v1/links', {
    kind: SpanKind.SERVER,
    attributes: {
      'http.request.method': 'POST',
      'http.response.status_code': 201,
      'consigna.flag': true,
      'consigna.falso': false,
      'consigna.ratio': 0.25,
      'consigna.negativo': -7,
      'consigna.grande': 2 ** 40 + 3,
      'consigna.lista': ['a', 'b', 'ção'],
      'consigna.numeros': [1, 2.5, -3],
      'consigna.acentos': 'proposta ação — 🎉',
      'consigna.medio': 'x'.repeat(300),
      'consigna.longo': 'é'.repeat(9000),
    },
  });
  root.addEvent('evento', { 'consigna.n': 3 });
  root.addEvent('sem atributos');
  const child = tracer.startSpan('select links', { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, root));
  child.setAttribute('db.response.returned_rows', 0);
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'falhou' });
  child.end();
  const remote = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
    traceState: createTraceState('vendor=valor,outro=1'),
  });
  const linked = tracer.startSpan(
    'jornada consulta',
    {
      kind: SpanKind.INTERNAL,
      links: [
        { context: root.spanContext(), attributes: { 'consigna.motivo': 'pedido' } },
        { context: trace.getSpanContext(remote)! },
      ],
    },
    remote,
  );
  linked.setStatus({ code: SpanStatusCode.OK });
  linked.end();
  for (const kind of [SpanKind.PRODUCER, SpanKind.CONSUMER]) tracer.startSpan(`tipo ${kind}`, { kind }).end();
  root.end();
  return ended;
}

describe('OTLP/protobuf encoding', () => {
  it.each(['sdk', 'lean'] as const)('writes the bytes of OpenTelemetry’s own serializer (spans by the %s tracer)', (by) => {
    const spans = madeSpans(by);
    expect(spans).toHaveLength(5);
    const writer = new ProtoWriter(64); // small: it has to grow, more than once
    for (const span of spans) writeSpan(writer, span);
    const { name, version } = spans[0]!.instrumentationScope;
    const ours = exportRequest(spans[0]!.resource, [
      { scope: { name, ...(version ? { version } : {}) }, spans: writer.buffer.subarray(0, writer.pos) },
    ]);
    const theirs = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
    // Decoded first, so that a difference shows as a field rather than a byte offset.
    expect(decodeTraceRequest(ours)).toEqual(decodeTraceRequest(theirs));
    expect(ours.equals(theirs)).toBe(true);

    const decoded = decodeTraceRequest(ours).resourceSpans[0]!.scopeSpans[0]!;
    expect(decoded.scope).toEqual({ name: 'consigna', version: '1.2.3' });
    const root = decoded.spans.find((s) => s.name === 'POST /v1/links')!;
    const attrs = Object.fromEntries(root.attributes.map((a) => [a.key, a.value]));
    expect(attrs['consigna.longo']!.stringValue).toBe('é'.repeat(9000));
    expect(attrs['consigna.negativo']!.intValue).toBe('-7');
    expect(attrs['consigna.grande']!.intValue).toBe(String(2 ** 40 + 3));
    // Times: nanoseconds since the epoch, exact.
    const [seconds, nanos] = spans.find((s) => s.name === 'POST /v1/links')!.startTime;
    expect(root.startTimeUnixNano).toBe((BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString());
  });

  it('writes repeated attributes from kept bytes as the serializer does, past the values it keeps for a key', () => {
    const ended: ReadableSpan[] = [];
    const tracer = capturingTracer(ended);
    // 200 spans: a route that never changes, a status among two, a request id that never
    // repeats (more values than the encoder keeps for one key), a long text that repeats,
    // and one key whose value is now a number, now the same digits as a string, now a boolean.
    for (let i = 0; i < 200; i++) {
      const span = tracer.startOwned('GET /v1/links/:id', SpanKind.SERVER, {
        'http.request.method': 'GET',
        'http.route': '/v1/links/:id',
        'consigna.request.id': `req-${i}`,
        'consigna.texto': 'ação '.repeat(20), // longer than the values kept: written each time
        'consigna.misto': i % 3 === 0 ? 1 : i % 3 === 1 ? '1' : true,
      });
      span.setAttribute('http.response.status_code', i % 7 === 0 ? 404 : 200);
      span.end();
    }
    // Twice: the second pass writes every repeated pair from what the first one kept.
    const theirs = Buffer.from(ProtobufTraceSerializer.serializeRequest(ended)!);
    expect(encoded(ended).equals(theirs), 'first pass').toBe(true);
    expect(encoded(ended).equals(theirs), 'second pass').toBe(true);
    const spans = decodeTraceRequest(encoded(ended)).resourceSpans[0]!.scopeSpans[0]!.spans;
    const value = (i: number, key: string) => spans[i]!.attributes.find((a) => a.key === key)!.value;
    expect(value(199, 'consigna.request.id')).toEqual({ stringValue: 'req-199' });
    expect([value(0, 'consigna.misto'), value(1, 'consigna.misto'), value(2, 'consigna.misto')]).toEqual([
      { intValue: '1' },
      { stringValue: '1' },
      { boolValue: true },
    ]);
    expect([value(7, 'http.response.status_code'), value(8, 'http.response.status_code')]).toEqual([
      { intValue: '404' },
      { intValue: '200' },
    ]);
  });

  it('writes times as exact nanoseconds since the epoch, at the edges of its arithmetic', () => {
    const seconds = [0, 1, 65_535, 65_536, 2 ** 31 - 1, 2 ** 31, 1_795_000_000, 2 ** 32 - 1, 2 ** 32, 2 ** 33 + 5];
    for (const s of seconds) {
      for (const nanos of [0, 1, 65_535, 999_999_999]) {
        const writer = new ProtoWriter(8);
        writer.time([s, nanos]);
        expect(writer.buffer.readBigUInt64LE(0), `${s} s ${nanos} ns`).toBe(BigInt(s) * 1_000_000_000n + BigInt(nanos));
      }
    }
    // Epoch milliseconds to the microsecond (the service's spans), as HrTime would round them.
    for (const [ms, s, nanos] of [
      [1_795_000_000_123.5, 1_795_000_000, 123_500_000],
      [1_795_000_000_000.25, 1_795_000_000, 250_000],
      [1_999.999_999_999_6, 2, 0], // rounds up to the next second
      [0.001, 0, 1_000],
    ] as const) {
      const writer = new ProtoWriter(8);
      writer.timeMs(ms);
      expect(writer.buffer.readBigUInt64LE(0), `${ms} ms`).toBe(BigInt(s) * 1_000_000_000n + BigInt(nanos));
    }
  });

  it('gives each span random ids of the right length, none twice', () => {
    const ended: ReadableSpan[] = [];
    const tracer = capturingTracer(ended);
    // More ids than one draw of random bytes holds (4 KB: 170 root spans' ids).
    for (let i = 0; i < 2_000; i++) {
      const root = tracer.startSpan('raiz');
      tracer.startSpan('filho', {}, trace.setSpan(ROOT_CONTEXT, root)).end();
      root.end();
    }
    const traceIds = new Set(ended.map((s) => s.spanContext().traceId));
    const spanIds = new Set(ended.map((s) => s.spanContext().spanId));
    expect(traceIds.size).toBe(2_000);
    expect(spanIds.size).toBe(4_000);
    for (const id of traceIds) expect(id).toMatch(/^[0-9a-f]{32}$/);
    for (const id of spanIds) expect(id).toMatch(/^[0-9a-f]{16}$/);
    // The bytes the encoder copies are those of the hex ids, for children as for roots.
    const decoded = decodeTraceRequest(exportFrom(ended.slice(0, 64))).resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(decoded.map((s) => [s.traceId, s.spanId, s.parentSpanId ?? ''])).toEqual(
      ended.slice(0, 64).map((s) => [s.spanContext().traceId, s.spanContext().spanId, s.parentSpanContext?.spanId ?? '']),
    );
  });

  it('makes with the service’s tracer the spans the SDK’s makes, ids and times aside', () => {
    // Ids and times differ from run to run; everything else, field for field.
    const shape = (spans: ReadableSpan[]) => {
      const ids = new Map<string, string>();
      const id = <T extends string | undefined>(value: T): T =>
        (value ? (ids.get(value) ?? ids.set(value, `id${ids.size}`).get(value)!) : value) as T;
      const request = decodeTraceRequest(exportFrom(spans));
      for (const span of request.resourceSpans[0]!.scopeSpans[0]!.spans) {
        span.traceId = id(span.traceId);
        span.spanId = id(span.spanId);
        if (span.parentSpanId) span.parentSpanId = id(span.parentSpanId);
        for (const link of span.links) {
          link.traceId = id(link.traceId);
          link.spanId = id(link.spanId);
        }
        for (const event of span.events) event.timeUnixNano = 't';
        span.startTimeUnixNano = 't';
        span.endTimeUnixNano = 't';
      }
      return request;
    };
    expect(shape(madeSpans('lean'))).toEqual(shape(madeSpans('sdk')));
  });

  it('follows the sampler: a trace left out stays out in its children, a sampled parent is followed', () => {
    const ended: ReadableSpan[] = [];
    const tracer = new LeanTracer({
      resource: resourceFromAttributes({ 'service.name': 'consigna-teste' }),
      scope: { name: 'consigna' },
      processor: capturing(ended),
      sampler: new TraceIdRatioBasedSampler(0),
      parentBased: true,
    });
    const root = tracer.startSpan('GET /v1/links/:id');
    expect(root.isRecording()).toBe(false);
    expect(root.spanContext().traceFlags).toBe(TraceFlags.NONE);
    const child = tracer.startSpan('select links', {}, trace.setSpan(ROOT_CONTEXT, root));
    expect(child.isRecording()).toBe(false);
    expect(child.spanContext().traceId).toBe(root.spanContext().traceId);
    const remote = {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    };
    const followed = tracer.startSpan('webhook proposta.aprovada', {}, trace.setSpanContext(ROOT_CONTEXT, remote));
    expect(followed.isRecording()).toBe(true);
    const notSampled = { ...remote, spanId: 'c8be7c8270314442', traceFlags: TraceFlags.NONE };
    const notFollowed = tracer.startSpan('webhook proposta.paga', {}, trace.setSpanContext(ROOT_CONTEXT, notSampled));
    expect(notFollowed.isRecording()).toBe(false);
    expect(notFollowed.spanContext().traceId).toBe(remote.traceId);
    notFollowed.end();
    followed.end();
    followed.setAttribute('depois', 'do fim');
    followed.end();
    root.end();
    child.end();
    expect(ended.map((s) => [s.name, s.spanContext().traceId, s.parentSpanContext?.spanId, s.attributes])).toEqual([
      ['webhook proposta.aprovada', remote.traceId, remote.spanId, {}],
    ]);
  });
});

/** An export request of these spans, as the service's processor would send them. */
function exportFrom(spans: ReadableSpan[]): Buffer {
  const writer = new ProtoWriter();
  for (const span of spans) writeSpan(writer, span);
  const { name, version } = spans[0]!.instrumentationScope;
  return exportRequest(spans[0]!.resource, [
    { scope: { name, ...(version ? { version } : {}) }, spans: writer.buffer.subarray(0, writer.pos) },
  ]);
}

describe('span batches, exported to an OTLP/HTTP receiver', () => {
  const requests: Array<{ contentType: string | undefined; body: Buffer }> = [];
  let answer = 200;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      requests.push({ contentType: request.headers['content-type'], body: Buffer.concat(chunks) });
      response.writeHead(answer, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  let stop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await stop?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** The service's tracing configuration, to a receiver on this machine. */
  const tracingTo = (
    port: number,
    protocol: TracingConfig['protocol'],
    sampler: string,
    batch: Partial<TracingConfig['batch']>,
  ): TracingConfig => ({
    endpoint: `http://127.0.0.1:${port}/v1/traces`,
    protocol,
    sampler: { name: sampler as TracingConfig['sampler']['name'], ratio: 1 },
    serviceName: 'consigna-lotes',
    batch: { scheduleDelayMs: 60_000, maxQueueSize: 100, maxExportBatchSize: 10, exportTimeoutMs: 5000, ...batch },
  });

  const spansIn = (body: Buffer) =>
    decodeTraceRequest(body).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));

  it('sends batches of the configured size, the rest after the delay, sampled spans only, and a flush on stop', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const config = tracingTo(port, 'http/protobuf', 'parentbased_always_on', { scheduleDelayMs: 300 });
    stop = await startTracing(config, { 'consigna.roles': 'api' });
    const tracer = trace.getTracer('consigna');

    // 25 spans at once: two full batches go at once, the last 5 after the delay.
    const started = Date.now();
    for (let i = 0; i < 25; i++) tracer.startSpan(`span ${i}`).end();
    await waitFor(() => requests.length === 2, { what: `2 export requests` });
    expect(requests.map((r) => spansIn(r.body).length)).toEqual([10, 10]);
    await waitFor(() => requests.length === 3, { what: `3 export requests` });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(spansIn(requests[2]!.body).map((s) => s.name)).toEqual(['span 20', 'span 21', 'span 22', 'span 23', 'span 24']);
    expect(new Set(requests.map((r) => r.contentType))).toEqual(new Set(['application/x-protobuf']));
    const resource = decodeTraceRequest(requests[0]!.body).resourceSpans[0]!.resource.attributes;
    expect(resource).toContainEqual({ key: 'service.name', value: { stringValue: 'consigna-lotes' } });
    expect(resource).toContainEqual({ key: 'consigna.roles', value: { stringValue: 'api' } });

    // A child of an unsampled remote parent is not sampled (parentbased): never sent.
    const unsampled = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '1'.repeat(32),
      spanId: '2'.repeat(16),
      traceFlags: TraceFlags.NONE,
      isRemote: true,
    });
    context.with(unsampled, () => tracer.startSpan('não amostrado').end());
    // A failed export is not retried forever: the next spans still go.
    answer = 400;
    tracer.startSpan('recusado').end();
    await waitFor(() => requests.length === 4, { what: `4 export requests` });
    answer = 200;
    tracer.startSpan('último').end();
    await stop();
    stop = undefined;
    expect(requests).toHaveLength(5);
    expect(spansIn(requests[3]!.body).map((s) => s.name)).toEqual(['recusado']);
    expect(spansIn(requests[4]!.body).map((s) => s.name)).toEqual(['último']);
  });

  it('drops spans past the queue size while an export is under way, and sends the rest', async () => {
    requests.length = 0;
    // A receiver that holds its answer: the queue fills behind the export under way.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        requests.push({ contentType: request.headers['content-type'], body: Buffer.concat(chunks) });
        void held.then(() => response.writeHead(200).end());
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const { port } = slow.address() as { port: number };
    const dropped: number[] = [];
    stop = await startTracing(tracingTo(port, 'http/protobuf', 'always_on', { maxQueueSize: 20 }), {}, (n) => dropped.push(n));
    const tracer = trace.getTracer('consigna');
    for (let i = 0; i < 10; i++) tracer.startSpan(`a ${i}`).end(); // sent: the receiver holds it
    await waitFor(() => requests.length === 1, { what: `1 export requests` });
    for (let i = 0; i < 15; i++) tracer.startSpan(`b ${i}`).end(); // 10 fit beside the 10 under way; 5 dropped
    // Said in the log at the first drop (then at most once a minute).
    expect(dropped).toEqual([1]);
    release();
    await stop();
    stop = undefined;
    await new Promise<void>((resolve) => slow.close(() => resolve()));
    expect(requests.map((r) => spansIn(r.body).length)).toEqual([10, 10]);
    expect(spansIn(requests[1]!.body).map((s) => s.name)).toEqual([...Array(10).keys()].map((i) => `b ${i}`));
  });

  it('with http/json, sends OTLP/JSON through the SDK’s own processor and exporter', async () => {
    requests.length = 0;
    const { port } = server.address() as { port: number };
    stop = await startTracing(tracingTo(port, 'http/json', 'always_on', {}), {});
    trace
      .getTracer('consigna')
      .startSpan('em json', { attributes: { 'consigna.n': 1 } })
      .end();
    await stop();
    stop = undefined;
    expect(requests.map((r) => r.contentType)).toEqual(['application/json']);
    const body = JSON.parse(requests[0]!.body.toString('utf8')) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }>;
    };
    expect(body.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.name)).toEqual(['em json']);
  });
});
