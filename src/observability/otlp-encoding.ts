// OTLP/protobuf encoding of finished spans, one span at a time, into a growing buffer
// (see span-batches.ts for why). The bytes are those of OpenTelemetry's own serializer
// (@opentelemetry/otlp-transformer), field for field and in the same order:
// test/observability/otlp-encoding.test.ts compares the two byte for byte.
//
//   ExportTraceServiceRequest  1 resource_spans
//   ResourceSpans              1 resource, 2 scope_spans
//   ScopeSpans                 1 scope, 2 spans
//   Span                       1 trace_id, 2 span_id, 3 trace_state, 4 parent_span_id,
//                              5 name, 6 kind, 7 start, 8 end, 9 attributes,
//                              10 dropped_attributes_count, 11 events, 12 dropped_events_count,
//                              13 links, 14 dropped_links_count, 15 status, 16 flags
import type { Attributes, AttributeValue, HrTime, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';

const LENGTH_DELIMITED = 2;
const VARINT = 0;
const FIXED64 = 1;
const FIXED32 = 5;
// Span flags: bit 8 says whether bit 9 (the parent is remote) is known.
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;
const TWO_32 = 2 ** 32;
const KNOWN = new Map<string, Uint8Array>();
// Each hex digit's value by character code (255: not a hex digit).
const HEX = new Uint8Array(128).fill(255);
for (let i = 0; i < 16; i++) HEX['0123456789abcdef'.charCodeAt(i)] = HEX['0123456789ABCDEF'.charCodeAt(i)] = i;

/** A protobuf writer over one growing buffer; a message's length is fixed up when it ends. */
export class ProtoWriter {
  buffer: Buffer;
  pos = 0;

  constructor(size = 64 * 1024) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.pos + bytes) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.pos);
    this.buffer = grown;
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  /** A non-negative integer up to 2^53, or a negative one as a 64-bit two's complement (10 bytes). */
  varint(value: number): void {
    this.ensure(10);
    const b = this.buffer;
    if (value >= 0 && value < 128) {
      b[this.pos++] = value;
      return;
    }
    if (value < 0) {
      let low = (value % TWO_32) >>> 0;
      let high = Math.floor(value / TWO_32) >>> 0;
      for (let i = 0; i < 9; i++) {
        b[this.pos++] = (low & 0x7f) | 0x80;
        low = ((low >>> 7) | (high << 25)) >>> 0;
        high >>>= 7;
      }
      b[this.pos++] = low & 0x01;
      return;
    }
    while (value >= 128) {
      b[this.pos++] = (value % 128) | 0x80;
      value = Math.floor(value / 128);
    }
    b[this.pos++] = value;
  }

  string(value: string): void {
    // Most strings here are short and ASCII (attribute keys, ids, names): copied one unit
    // at a time, which costs less than Buffer#write's own dispatch (measured with
    // bench/lib/span-cost.ts). The first other character hands the string to Buffer#write.
    const n = value.length;
    if (n < 128) {
      this.ensure(n + 1);
      const b = this.buffer;
      const at = this.pos + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) break;
        b[at + i] = c;
      }
      if (i === n) {
        b[this.pos] = n;
        this.pos = at + n;
        return;
      }
    }
    // At most 3 bytes per UTF-16 unit; a short string's length fits in one byte.
    const most = n * 3;
    if (most < 128) {
      this.ensure(most + 1);
      const written = this.buffer.write(value, this.pos + 1, 'utf8');
      this.buffer[this.pos] = written;
      this.pos += 1 + written;
      return;
    }
    const length = Buffer.byteLength(value, 'utf8');
    this.varint(length);
    this.ensure(length);
    this.pos += this.buffer.write(value, this.pos, 'utf8');
  }

  /**
   * A string that comes back span after span (an attribute's key, a span's name): its
   * encoding (length first) is kept and copied, instead of encoded each time.
   */
  known(value: string): void {
    let bytes = KNOWN.get(value);
    if (bytes === undefined) {
      const once = new ProtoWriter(value.length * 3 + 10);
      once.string(value);
      bytes = once.buffer.subarray(0, once.pos);
      // Keys and names come from our code, a few dozen; the bound is against a surprise.
      if (KNOWN.size >= 1024) KNOWN.clear();
      KNOWN.set(value, bytes);
    }
    this.bytesRaw(bytes);
  }

  /** A trace or span id, hex in the API, bytes on the wire. */
  hexBytes(hex: string): void {
    const length = hex.length >>> 1;
    this.varint(length);
    this.ensure(length);
    const b = this.buffer;
    for (let i = 0; i < length; i++) {
      const high = HEX[hex.charCodeAt(2 * i)] ?? 255;
      const low = HEX[hex.charCodeAt(2 * i + 1)] ?? 255;
      // Not hex (an id the API would call invalid): Buffer#write decides, as before.
      if (high === 255 || low === 255) {
        this.pos += b.write(hex, this.pos, 'hex');
        return;
      }
      b[this.pos + i] = (high << 4) | low;
    }
    this.pos += length;
  }

  bytes(value: Uint8Array): void {
    this.varint(value.length);
    this.ensure(value.length);
    this.buffer.set(value, this.pos);
    this.pos += value.length;
  }

  /** An id's `length` bytes at `at` in `from`. */
  id(from: Uint8Array, at: number, length: number): void {
    this.ensure(length + 1);
    const b = this.buffer;
    let pos = this.pos;
    b[pos++] = length;
    for (let i = 0; i < length; i++) b[pos + i] = from[at + i]!;
    this.pos = pos + length;
  }

  /** Bytes already encoded, appended as they are. */
  bytesRaw(value: Uint8Array): void {
    const n = value.length;
    this.ensure(n);
    // Short ones (an attribute's key, a span's name) one by one: set()'s own call costs more.
    if (n <= 64) {
      const b = this.buffer;
      const pos = this.pos;
      for (let i = 0; i < n; i++) b[pos + i] = value[i]!;
    } else {
      this.buffer.set(value, this.pos);
    }
    this.pos += n;
  }

  fixed32(value: number): void {
    this.ensure(4);
    this.buffer.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  double(value: number): void {
    this.ensure(8);
    this.buffer.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /**
   * Epoch milliseconds (to the microsecond, as performance.now() gives them) as the
   * nanoseconds HrTime would carry: the same rounding as the SDK's own conversion.
   */
  timeMs(ms: number): void {
    const seconds = Math.floor(ms / 1000);
    const nanos = Math.round((ms - seconds * 1000) * 1e6);
    if (nanos >= 1e9) this.timeParts(seconds + 1, nanos - 1e9);
    else this.timeParts(seconds, nanos);
  }

  /** [seconds, nanoseconds] as nanoseconds since the epoch, a fixed64, without a BigInt. */
  time([seconds, nanos]: HrTime): void {
    this.timeParts(seconds, nanos);
  }

  private timeParts(seconds: number, nanos: number): void {
    // seconds × 10⁹ + nanos needs 61 bits: split the seconds at 16 bits so every
    // product stays exact in a double. Up to 2106 (seconds below 2^32) with integer
    // operations: ToUint32 and ToInt32 are exact modulo 2^32, and cheaper than % on a
    // double (a call to fmod).
    let low: number;
    let high: number;
    if (seconds >= 0 && seconds < TWO_32) {
      const a = (seconds & 0xffff) * 1e9 + nanos;
      const b = (seconds >>> 16) * 1e9; // × 65536
      const aLow = a >>> 0;
      const bLow = b & 0xffff;
      low = aLow + bLow * 65536;
      high = (a - aLow) / TWO_32 + (b - bLow) / 65536 + (low >= TWO_32 ? 1 : 0);
    } else {
      const a = (seconds % 65536) * 1e9 + nanos;
      const b = Math.floor(seconds / 65536) * 1e9; // × 65536
      low = (a % TWO_32) + (b % 65536) * 65536;
      high = Math.floor(a / TWO_32) + Math.floor(b / 65536) + Math.floor(low / TWO_32);
    }
    this.ensure(8);
    const out = this.buffer;
    const at = this.pos;
    const lo = low >>> 0;
    const hi = high >>> 0;
    out[at] = lo & 0xff;
    out[at + 1] = (lo >>> 8) & 0xff;
    out[at + 2] = (lo >>> 16) & 0xff;
    out[at + 3] = lo >>> 24;
    out[at + 4] = hi & 0xff;
    out[at + 5] = (hi >>> 8) & 0xff;
    out[at + 6] = (hi >>> 16) & 0xff;
    out[at + 7] = hi >>> 24;
    this.pos += 8;
  }

  /** Starts a length-delimited message (its tag already written): one byte kept for its length. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Writes the length of the message begun at `start`, moving its bytes when the length needs more than one. */
  end(start: number): void {
    const length = this.pos - start - 1;
    if (length < 128) {
      this.buffer[start] = length;
      return;
    }
    let size = 2;
    while (length >= 128 ** size) size += 1;
    this.ensure(size - 1);
    const b = this.buffer;
    b.copyWithin(start + size, start + 1, this.pos);
    this.pos += size - 1;
    let rest = length;
    for (let i = 0; i < size - 1; i++) {
      b[start + i] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    b[start + size - 1] = rest;
  }
}

function anyValue(w: ProtoWriter, value: AttributeValue | Record<string, unknown>): void {
  if (typeof value === 'string') {
    w.tag(1, LENGTH_DELIMITED);
    w.string(value);
  } else if (typeof value === 'boolean') {
    w.tag(2, VARINT);
    w.varint(value ? 1 : 0);
  } else if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63) {
      w.tag(3, VARINT);
      w.varint(value);
    } else {
      w.tag(4, FIXED64);
      w.double(value);
    }
  } else if (value instanceof Uint8Array) {
    w.tag(7, LENGTH_DELIMITED);
    w.bytes(value);
  } else if (Array.isArray(value)) {
    w.tag(5, LENGTH_DELIMITED);
    const list = w.begin();
    for (const item of value) {
      w.tag(1, LENGTH_DELIMITED);
      const one = w.begin();
      if (item !== null && item !== undefined) anyValue(w, item);
      w.end(one);
    }
    w.end(list);
  } else if (typeof value === 'object' && value !== null) {
    w.tag(6, LENGTH_DELIMITED);
    const list = w.begin();
    attributes(w, value as Attributes, 1);
    w.end(list);
  }
}

// A KeyValue's bytes (its key and value, length first) by key, then by value, for the
// keys whose values come back span after span: a method, a route, a statement's summary,
// an event's type, a status code. One copy instead of some ten small writes (with the
// tracer's other changes of 2026-11-27, bench/lib/span-cost.ts: a GET's spans 1.56 → 1.4 µs
// each). The first PAIRS_PER_KEY values of a key are kept; a key that reaches it (a
// request's id, an event's id) is written field by field from then on. Strings longer than
// PAIR_VALUE_LENGTH are never kept: the kept bytes stay under a few hundred kilobytes.
const PAIRS_PER_KEY = 64;
const PAIR_VALUE_LENGTH = 64;
const PAIRS = new Map<string, Map<string | number | boolean, Uint8Array> | null>();

function attributes(w: ProtoWriter, values: Attributes, field: number): void {
  for (const key in values) {
    if (!Object.prototype.hasOwnProperty.call(values, key)) continue;
    const v = values[key];
    w.tag(field, LENGTH_DELIMITED);
    const kept = keptPair(key, v);
    if (kept) w.bytesRaw(kept);
    else keyValue(w, key, v);
  }
}

/** The pair's kept bytes (encoded and kept the first time), or undefined where it is not kept. */
function keptPair(key: string, v: AttributeValue | undefined): Uint8Array | undefined {
  const keepable = typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v.length <= PAIR_VALUE_LENGTH);
  if (!keepable) return undefined;
  let byValue = PAIRS.get(key);
  if (byValue === undefined) {
    // Keys come from our code, a few dozen; the bound is against a surprise.
    if (PAIRS.size >= 1024) PAIRS.clear();
    PAIRS.set(key, (byValue = new Map()));
  }
  if (byValue === null) return undefined;
  let bytes = byValue.get(v);
  if (bytes === undefined) {
    if (byValue.size >= PAIRS_PER_KEY) {
      PAIRS.set(key, null);
      return undefined;
    }
    const once = new ProtoWriter(256);
    keyValue(once, key, v);
    bytes = Uint8Array.prototype.slice.call(once.buffer, 0, once.pos);
    byValue.set(v, bytes);
  }
  return bytes;
}

/** A KeyValue message's length and fields (its tag already written). */
function keyValue(w: ProtoWriter, key: string, v: AttributeValue | undefined): void {
  const pair = w.begin();
  w.tag(1, LENGTH_DELIMITED);
  w.known(key);
  w.tag(2, LENGTH_DELIMITED);
  const value = w.begin();
  if (v !== undefined && v !== null) anyValue(w, v);
  w.end(value);
  w.end(pair);
}

/**
 * What the service's own spans (lean-tracer.ts) carry besides a ReadableSpan: their ids'
 * bytes (an id is hex in the API; `undefined` where only the hex is known, a remote
 * parent's for one) and their times as epoch milliseconds (HrTime pairs in the API), so
 * that the encoder copies them instead of converting. Converting the hex of a request's
 * five ids took 0.16 µs each (a CPU profile of bench/lib/span-cost.ts's spans).
 */
export interface IdBytes {
  readonly traceIdBytes: Uint8Array | undefined;
  readonly traceIdAt: number;
  readonly spanIdBytes: Uint8Array | undefined;
  readonly spanIdAt: number;
  readonly parentIdBytes: Uint8Array | undefined;
  readonly parentIdAt: number;
  readonly startMs: number;
  readonly endMs: number;
}

const flagsOf = (context: SpanContext, isRemote: boolean | undefined) =>
  (context.traceFlags & 0xff) | HAS_IS_REMOTE | (isRemote ? IS_REMOTE : 0);

/** One span, as an entry of ScopeSpans.spans (field 2). */
export function writeSpan(w: ProtoWriter, span: ReadableSpan & Partial<IdBytes>): void {
  w.tag(2, LENGTH_DELIMITED);
  const start = w.begin();
  const context = span.spanContext();
  w.tag(1, LENGTH_DELIMITED);
  if (span.traceIdBytes) w.id(span.traceIdBytes, span.traceIdAt!, 16);
  else w.hexBytes(context.traceId);
  w.tag(2, LENGTH_DELIMITED);
  if (span.spanIdBytes) w.id(span.spanIdBytes, span.spanIdAt!, 8);
  else w.hexBytes(context.spanId);
  const traceState = context.traceState?.serialize();
  if (traceState) {
    w.tag(3, LENGTH_DELIMITED);
    w.string(traceState);
  }
  if (span.parentSpanContext?.spanId) {
    w.tag(4, LENGTH_DELIMITED);
    if (span.parentIdBytes) w.id(span.parentIdBytes, span.parentIdAt!, 8);
    else w.hexBytes(span.parentSpanContext.spanId);
  }
  w.tag(5, LENGTH_DELIMITED);
  w.known(span.name);
  // The API's SpanKind counts from INTERNAL = 0; OTLP's from UNSPECIFIED = 0.
  if (span.kind !== undefined && span.kind !== null) {
    w.tag(6, VARINT);
    w.varint(span.kind + 1);
  }
  w.tag(7, FIXED64);
  if (span.startMs !== undefined) w.timeMs(span.startMs);
  else w.time(span.startTime);
  w.tag(8, FIXED64);
  if (span.endMs !== undefined) w.timeMs(span.endMs);
  else w.time(span.endTime);
  attributes(w, span.attributes, 9);
  w.tag(10, VARINT);
  w.varint(span.droppedAttributesCount);
  for (const event of span.events) {
    w.tag(11, LENGTH_DELIMITED);
    const e = w.begin();
    w.tag(1, FIXED64);
    w.time(event.time);
    w.tag(2, LENGTH_DELIMITED);
    w.string(event.name);
    if (event.attributes) attributes(w, event.attributes, 3);
    w.tag(4, VARINT);
    w.varint(event.droppedAttributesCount ?? 0);
    w.end(e);
  }
  w.tag(12, VARINT);
  w.varint(span.droppedEventsCount);
  for (const link of span.links) {
    w.tag(13, LENGTH_DELIMITED);
    const l = w.begin();
    w.tag(1, LENGTH_DELIMITED);
    w.hexBytes(link.context.traceId);
    w.tag(2, LENGTH_DELIMITED);
    w.hexBytes(link.context.spanId);
    const linkState = link.context.traceState?.serialize();
    if (linkState) {
      w.tag(3, LENGTH_DELIMITED);
      w.string(linkState);
    }
    if (link.attributes) attributes(w, link.attributes, 4);
    w.tag(5, VARINT);
    w.varint(link.droppedAttributesCount ?? 0);
    w.tag(6, FIXED32);
    w.fixed32(flagsOf(link.context, link.context.isRemote));
    w.end(l);
  }
  w.tag(14, VARINT);
  w.varint(span.droppedLinksCount);
  w.tag(15, LENGTH_DELIMITED);
  const status = w.begin();
  if (span.status.message) {
    w.tag(2, LENGTH_DELIMITED);
    w.string(span.status.message);
  }
  w.tag(3, VARINT);
  w.varint(span.status.code);
  w.end(status);
  w.tag(16, FIXED32);
  w.fixed32(flagsOf(context, span.parentSpanContext?.isRemote));
  w.end(start);
}

export interface Scope {
  name: string;
  version?: string;
  schemaUrl?: string;
}

/**
 * An ExportTraceServiceRequest of one resource: `groups` are each a scope and its spans,
 * already encoded by writeSpan.
 */
export function exportRequest(
  resource: { attributes: Attributes; schemaUrl?: string | undefined },
  groups: Array<{ scope: Scope; spans: Uint8Array }>,
): Buffer {
  const w = new ProtoWriter(groups.reduce((n, g) => n + g.spans.length, 0) + 1024);
  w.tag(1, LENGTH_DELIMITED);
  const resourceSpans = w.begin();
  w.tag(1, LENGTH_DELIMITED);
  const r = w.begin();
  attributes(w, resource.attributes, 1);
  w.tag(2, VARINT);
  w.varint(0);
  w.end(r);
  for (const { scope, spans } of groups) {
    w.tag(2, LENGTH_DELIMITED);
    const scopeSpans = w.begin();
    w.tag(1, LENGTH_DELIMITED);
    const s = w.begin();
    w.tag(1, LENGTH_DELIMITED);
    w.string(scope.name);
    if (scope.version) {
      w.tag(2, LENGTH_DELIMITED);
      w.string(scope.version);
    }
    w.end(s);
    w.bytesRaw(spans);
    if (scope.schemaUrl) {
      w.tag(3, LENGTH_DELIMITED);
      w.string(scope.schemaUrl);
    }
    w.end(scopeSpans);
  }
  if (resource.schemaUrl) {
    w.tag(3, LENGTH_DELIMITED);
    w.string(resource.schemaUrl);
  }
  w.end(resourceSpans);
  // The writer was made for this request alone: its bytes need no copy.
  return w.buffer.subarray(0, w.pos);
}
