// The tracer behind tracing.ts: spans of our own, handed to the same span processors
// (span-batches.ts for OTLP/protobuf, the SDK's batch processor for OTLP/JSON) as the
// SDK's spans would be, with the SDK's samplers; ids of its own (see randomHex).
//
// Why not the SDK's Tracer: for every span it copies and checks the attributes twice
// (cleanAttributes), counts the span in its own metrics (a no-op meter by default, still
// called with two attribute objects), and builds a span object of some twenty fields,
// time tuples and closures included. Measured with bench/lib/span-cost.ts, encoding by
// the same processor included, each tracer called as its users call it (the SDK's through
// the API, ours through startOwned): a request's span 3.0–3.4 µs of CPU with the SDK's
// tracer, 1.4 with this one; a delivery attempt's (seven attributes and a link) 4.5 and 2.5
// (bench/README.md, "Tracing").
//
// What it leaves out is what no span of ours needs: attribute count and length limits
// (OTEL_ATTRIBUTE_*_LIMIT, OTEL_SPAN_*_LIMIT: our spans carry at most a dozen attributes,
// each an id, a type, a count or a status) and the check of each attribute's type, which
// TypeScript makes at our call sites. Everything a span may carry is decided in
// tracing.ts's header comment.
import { randomBytes } from 'node:crypto';
import {
  trace,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Attributes,
  type AttributeValue,
  type Context,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  SamplingDecision,
  type ReadableSpan,
  type Sampler,
  type SpanProcessor,
  type TimedEvent,
} from '@opentelemetry/sdk-trace';
import type { IdBytes } from './otlp-encoding.ts';
import { contexts } from './lean-context.ts';
import { RatioSampler } from './ratio-sampler.ts';

// Ids are hex in the API. The SDK's generator writes Math.random()'s numbers into a
// buffer and converts it to hex for every id (0.6 µs for a trace id and a span id,
// measured in a loop of 2,000,000); here the operating system's random bytes are drawn
// 4 KB at a time and converted once, and an id is a slice of that text (0.16 µs for the
// same two). The bytes come from a cryptographic source, as W3C Trace Context
// recommends for ids meant to be unique across every system a trace crosses.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolHex = '';
let poolAt = 0;
// Where the bytes of the id randomHex returned last are: a span keeps them, and the
// encoder copies them instead of converting the hex back (otlp-encoding.ts, IdBytes).
let lastPool = pool;
let lastAt = 0;

/** `chars` random lowercase hex digits, never all zero (an invalid id). */
export function randomHex(chars: number): string {
  const bytes = chars >>> 1;
  if (poolAt + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolHex = pool.toString('hex');
    poolAt = 0;
  }
  const at = poolAt;
  poolAt += bytes;
  const id = poolHex.slice(2 * at, 2 * (at + bytes));
  if (id.charCodeAt(0) === 48 && /^0+$/.test(id)) return randomHex(chars);
  lastPool = pool;
  lastAt = at;
  return id;
}

// A span's events and links are nearly always none, and its status unset until it ends:
// these stand in until the first change (copied on write), one allocation each fewer per span.
const NO_EVENTS: TimedEvent[] = Object.freeze([]) as unknown as TimedEvent[];
const NO_LINKS: Link[] = Object.freeze([]) as unknown as Link[];
const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });

const origin = performance.timeOrigin;

/** Epoch milliseconds, to the microsecond, as the SDK measures them. */
const nowMs = () => origin + performance.now();

function msOf(time: TimeInput): number {
  if (typeof time === 'number') return time < origin ? origin + time : time;
  if (time instanceof Date) return time.getTime();
  return time[0] * 1000 + time[1] / 1e6;
}

function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  const nanos = Math.round((ms - seconds * 1000) * 1e6);
  return nanos >= 1e9 ? [seconds + 1, nanos - 1e9] : [seconds, nanos];
}

interface Shared {
  resource: Resource;
  scope: InstrumentationScope;
  processor: SpanProcessor;
}

/** A span: the API's Span while it runs, the SDK's ReadableSpan once it ended (what processors read). */
class LeanSpan implements Span, ReadableSpan, IdBytes {
  name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  readonly attributes: Attributes;
  links: Link[];
  events: TimedEvent[] = NO_EVENTS;
  status: SpanStatus = UNSET;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  // IdBytes: undefined where an id came from elsewhere (a remote parent's), as hex only.
  traceIdBytes: Uint8Array | undefined = undefined;
  traceIdAt = 0;
  spanIdBytes: Uint8Array | undefined = undefined;
  spanIdAt = 0;
  parentIdBytes: Uint8Array | undefined = undefined;
  parentIdAt = 0;
  readonly startMs: number;
  endMs = 0;
  private readonly context: SpanContext;
  private readonly shared: Shared;
  private done = false;

  constructor(
    shared: Shared,
    context: SpanContext,
    name: string,
    kind: SpanKind,
    parent: SpanContext | undefined,
    attributes: Attributes,
    links: Link[],
    startMs: number,
  ) {
    this.shared = shared;
    this.context = context;
    this.name = name;
    this.kind = kind;
    this.parentSpanContext = parent;
    this.attributes = attributes;
    this.links = links;
    this.startMs = startMs;
  }

  get startTime(): HrTime {
    return hrTime(this.startMs);
  }
  get endTime(): HrTime {
    return hrTime(this.endMs);
  }
  get duration(): HrTime {
    return hrTime(this.endMs - this.startMs);
  }
  get ended(): boolean {
    return this.done;
  }
  get resource(): Resource {
    return this.shared.resource;
  }
  get instrumentationScope(): InstrumentationScope {
    return this.shared.scope;
  }

  spanContext(): SpanContext {
    return this.context;
  }
  isRecording(): boolean {
    return !this.done;
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (!this.done && value !== undefined && value !== null) this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    for (const key in attributes) {
      const value = attributes[key];
      if (value !== undefined && value !== null) this.setAttribute(key, value);
    }
    return this;
  }
  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.done) return this;
    const timed = typeof attributesOrTime === 'number' || attributesOrTime instanceof Date || Array.isArray(attributesOrTime);
    const attributes = timed ? {} : ((attributesOrTime as Attributes | undefined) ?? {});
    const at = timed ? (attributesOrTime as TimeInput) : time;
    if (this.events === NO_EVENTS) this.events = [];
    this.events.push({ name, attributes, time: hrTime(at === undefined ? nowMs() : msOf(at)), droppedAttributesCount: 0 });
    return this;
  }
  addLink(link: Link): this {
    if (this.done) return this;
    if (this.links === NO_LINKS) this.links = [];
    this.links.push(link);
    return this;
  }
  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }
  setStatus(status: SpanStatus): this {
    if (!this.done) this.status = status;
    return this;
  }
  updateName(name: string): this {
    if (!this.done) this.name = name;
    return this;
  }
  /** The exception's kind only: its message may quote a value (see markFailed in tracing.ts). */
  recordException(exception: Exception, time?: TimeInput): void {
    const type = typeof exception === 'string' ? 'Error' : (exception.name ?? 'Error');
    this.addEvent('exception', { 'exception.type': type }, time);
  }
  end(endTime?: TimeInput): void {
    if (this.done) return;
    this.done = true;
    this.endMs = endTime === undefined ? nowMs() : Math.max(this.startMs, msOf(endTime));
    this.shared.processor.onEnd(this);
  }
}

export interface LeanTracerOptions {
  resource: Resource;
  scope: InstrumentationScope;
  processor: SpanProcessor;
  /** Decides for spans without a valid parent, and for every span unless parentBased. */
  sampler: Sampler;
  /** A span with a valid parent follows the parent's decision (OTEL_TRACES_SAMPLER=parentbased_*). */
  parentBased?: boolean;
}

export class LeanTracer implements Tracer {
  private readonly shared: Shared;
  private readonly root: Sampler;
  private readonly parentBased: boolean;
  private readonly alwaysOn: boolean;
  private readonly ratio: RatioSampler | undefined;

  constructor(options: LeanTracerOptions) {
    this.shared = { resource: options.resource, scope: options.scope, processor: options.processor };
    this.root = options.sampler;
    this.parentBased = options.parentBased ?? false;
    this.alwaysOn = options.sampler instanceof AlwaysOnSampler;
    this.ratio = options.sampler instanceof RatioSampler ? options.sampler : undefined;
  }

  startSpan(name: string, options: SpanOptions = {}, context: Context = contexts.active()): Span {
    const attributes: Attributes = {};
    if (options.attributes) {
      for (const key in options.attributes) {
        const value = options.attributes[key];
        if (value !== undefined && value !== null) attributes[key] = value;
      }
    }
    const links = options.links && options.links.length > 0 ? [...options.links] : NO_LINKS;
    const start = options.startTime === undefined ? undefined : msOf(options.startTime);
    const parentContext = options.root ? trace.deleteSpan(context) : context;
    return this.start(name, options.kind ?? SpanKind.INTERNAL, attributes, links, parentContext, start);
  }

  /**
   * startSpan for the service's own spans (a request's, a statement's, a delivery
   * attempt's): `attributes` becomes the span's own, uncopied (the caller makes it for this
   * span, without undefined values), and no options object is made. A request's GET
   * makes two spans: each copy was an object and a loop more.
   */
  startOwned(
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    context: Context = contexts.active(),
    links: Link[] = NO_LINKS,
  ): Span {
    return this.start(name, kind, attributes, links.length > 0 ? links : NO_LINKS, context, undefined);
  }

  private start(
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
    parentContext: Context,
    startMs: number | undefined,
  ): Span {
    const parentSpan = trace.getSpan(parentContext);
    const parent = parentSpan?.spanContext();
    const leanParent = parentSpan instanceof LeanSpan ? parentSpan : undefined;
    // Ours are valid by construction; anything else (a remote context) is checked.
    const valid = parent !== undefined && (leanParent !== undefined || trace.isSpanContextValid(parent));
    const traceId = valid ? parent.traceId : randomHex(32);
    const traceIdBytes = valid ? leanParent?.traceIdBytes : lastPool;
    const traceIdAt = valid ? (leanParent?.traceIdAt ?? 0) : lastAt;
    let sampled: boolean;
    let extra: Attributes | undefined;
    let traceState = valid ? parent.traceState : undefined;
    if (valid && this.parentBased) {
      // parentbased_*: the parent's decision, local or remote (the SDK's ParentBasedSampler with its defaults).
      sampled = (parent.traceFlags & TraceFlags.SAMPLED) !== 0;
    } else if (this.alwaysOn) {
      // always_on, the default root sampler: its answer without asking (an object fewer per trace).
      sampled = true;
    } else if (this.ratio && traceIdBytes) {
      // traceidratio, on an id whose bytes are here: the same decision without reading its hex.
      sampled = this.ratio.sampledBytes(traceIdBytes, traceIdAt);
    } else {
      // A sampler reads the attributes and links, never keeps them.
      const sampling = this.root.shouldSample(parentContext, traceId, name, kind, attributes, links);
      sampled = sampling.decision === SamplingDecision.RECORD_AND_SAMPLED;
      extra = sampling.attributes;
      traceState = sampling.traceState ?? traceState;
      // RECORD (recorded but not exported) is a decision none of OTEL_TRACES_SAMPLER's makes:
      // it is taken as "not sampled".
    }
    const spanId = randomHex(16);
    const spanIdBytes = lastPool;
    const spanIdAt = lastAt;
    const spanContext: SpanContext = {
      traceId,
      spanId,
      traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    };
    if (traceState) spanContext.traceState = traceState;
    // Not sampled: the context still travels, so that children follow the decision.
    if (!sampled) return trace.wrapSpanContext(spanContext);
    if (extra) Object.assign(attributes, extra);
    const span = new LeanSpan(
      this.shared,
      spanContext,
      name,
      kind,
      valid ? parent : undefined,
      attributes,
      links,
      startMs ?? nowMs(),
    );
    span.traceIdBytes = traceIdBytes;
    span.traceIdAt = traceIdAt;
    span.spanIdBytes = spanIdBytes;
    span.spanIdAt = spanIdAt;
    if (leanParent) {
      span.parentIdBytes = leanParent.spanIdBytes;
      span.parentIdAt = leanParent.spanIdAt;
    }
    this.shared.processor.onStart(span, parentContext);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, context: Context, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, a: F | SpanOptions, b?: F | Context, c?: F): ReturnType<F> {
    const fn = (c ?? (typeof b === 'function' ? b : a)) as F;
    const options = typeof a === 'function' ? {} : a;
    const parent = (c ? b : undefined) as Context | undefined;
    const context = parent ?? contexts.active();
    const span = this.startSpan(name, options, context);
    return contexts.run(trace.setSpan(context, span), () => fn(span) as ReturnType<F>);
  }
}

/** The process-wide provider, for whatever asks the API for a tracer. */
export function leanProvider(tracer: LeanTracer): TracerProvider {
  return { getTracer: () => tracer };
}
