// A reader of OTLP/protobuf trace export requests, written from the protocol's .proto
// files (opentelemetry-proto: collector/trace/v1, trace/v1, common/v1, resource/v1), for
// the tests' collectors. It gives the same shape as OTLP/JSON: ids in hex, 64-bit
// integers as decimal strings, kinds and status codes as numbers.

type Fields = Map<number, Array<number | bigint | Buffer>>;

function readVarint(bytes: Buffer, at: { pos: number }): bigint {
  let value = 0n;
  let shift = 0n;
  for (;;) {
    const byte = bytes[at.pos++];
    if (byte === undefined) throw new Error('protobuf: truncated varint');
    value |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return value;
    shift += 7n;
  }
}

/** A message's fields by number, in order: varints and fixed64 as bigint, fixed32 as number, the rest as bytes. */
export function fields(bytes: Buffer): Fields {
  const out: Fields = new Map();
  const at = { pos: 0 };
  while (at.pos < bytes.length) {
    const key = Number(readVarint(bytes, at));
    const field = key >>> 3;
    const wire = key & 7;
    let value: number | bigint | Buffer;
    if (wire === 0) value = readVarint(bytes, at);
    else if (wire === 1) {
      value = bytes.readBigUInt64LE(at.pos);
      at.pos += 8;
    } else if (wire === 2) {
      const length = Number(readVarint(bytes, at));
      if (at.pos + length > bytes.length) throw new Error('protobuf: truncated field');
      value = bytes.subarray(at.pos, at.pos + length);
      at.pos += length;
    } else if (wire === 5) {
      value = bytes.readUInt32LE(at.pos);
      at.pos += 4;
    } else throw new Error(`protobuf: wire type ${wire}`);
    const list = out.get(field) ?? [];
    list.push(value);
    out.set(field, list);
  }
  return out;
}

const all = (f: Fields, n: number) => (f.get(n) ?? []) as Buffer[];
const one = (f: Fields, n: number) => f.get(n)?.[0];
const text = (f: Fields, n: number) => (one(f, n) as Buffer | undefined)?.toString('utf8');
const hex = (f: Fields, n: number) => (one(f, n) as Buffer | undefined)?.toString('hex');
const int64 = (v: bigint) => BigInt.asIntN(64, v).toString();

export type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: { values: AnyValue[] };
  kvlistValue?: { values: KeyValue[] };
  bytesValue?: string;
};
export type KeyValue = { key: string; value: AnyValue };

function anyValue(bytes: Buffer): AnyValue {
  const f = fields(bytes);
  if (f.has(1)) return { stringValue: text(f, 1)! };
  if (f.has(2)) return { boolValue: one(f, 2) === 1n };
  if (f.has(3)) return { intValue: int64(one(f, 3) as bigint) };
  if (f.has(4)) return { doubleValue: Buffer.from(new BigUint64Array([one(f, 4) as bigint]).buffer).readDoubleLE(0) };
  if (f.has(5)) return { arrayValue: { values: all(fields(one(f, 5) as Buffer), 1).map(anyValue) } };
  if (f.has(6)) return { kvlistValue: { values: all(fields(one(f, 6) as Buffer), 1).map(keyValue) } };
  if (f.has(7)) return { bytesValue: (one(f, 7) as Buffer).toString('base64') };
  return {};
}

function keyValue(bytes: Buffer): KeyValue {
  const f = fields(bytes);
  return { key: text(f, 1)!, value: f.has(2) ? anyValue(one(f, 2) as Buffer) : {} };
}

export interface DecodedSpan {
  traceId: string;
  spanId: string;
  traceState?: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  events: Array<{ timeUnixNano: string; name: string; attributes: KeyValue[] }>;
  links: Array<{ traceId: string; spanId: string; traceState?: string; attributes: KeyValue[]; flags?: number }>;
  status: { code?: number; message?: string };
  flags?: number;
}

function span(bytes: Buffer): DecodedSpan {
  const f = fields(bytes);
  const status = f.has(15) ? fields(one(f, 15) as Buffer) : new Map();
  return {
    traceId: hex(f, 1)!,
    spanId: hex(f, 2)!,
    ...(f.has(3) ? { traceState: text(f, 3)! } : {}),
    ...(f.has(4) ? { parentSpanId: hex(f, 4)! } : {}),
    name: text(f, 5)!,
    kind: Number(one(f, 6) ?? 0n),
    startTimeUnixNano: String(one(f, 7)),
    endTimeUnixNano: String(one(f, 8)),
    attributes: all(f, 9).map(keyValue),
    droppedAttributesCount: Number(one(f, 10) ?? 0n),
    events: all(f, 11).map((b) => {
      const e = fields(b);
      return { timeUnixNano: String(one(e, 1)), name: text(e, 2)!, attributes: all(e, 3).map(keyValue) };
    }),
    links: all(f, 13).map((b) => {
      const l = fields(b);
      return {
        traceId: hex(l, 1)!,
        spanId: hex(l, 2)!,
        ...(l.has(3) ? { traceState: text(l, 3)! } : {}),
        attributes: all(l, 4).map(keyValue),
        ...(l.has(6) ? { flags: one(l, 6) as number } : {}),
      };
    }),
    status: {
      ...(status.has(3) ? { code: Number(status.get(3)![0]) } : {}),
      ...(status.has(2) ? { message: (status.get(2)![0] as Buffer).toString('utf8') } : {}),
    },
    ...(f.has(16) ? { flags: one(f, 16) as number } : {}),
  };
}

export interface DecodedRequest {
  resourceSpans: Array<{
    resource: { attributes: KeyValue[] };
    scopeSpans: Array<{ scope: { name: string; version?: string }; spans: DecodedSpan[] }>;
  }>;
}

/** An ExportTraceServiceRequest, as OTLP/JSON would spell it. */
export function decodeTraceRequest(bytes: Buffer): DecodedRequest {
  return {
    resourceSpans: all(fields(bytes), 1).map((rsBytes) => {
      const rs = fields(rsBytes);
      const resource = rs.has(1) ? fields(one(rs, 1) as Buffer) : new Map();
      return {
        resource: { attributes: all(resource, 1).map(keyValue) },
        scopeSpans: all(rs, 2).map((ssBytes) => {
          const ss = fields(ssBytes);
          const scope = ss.has(1) ? fields(one(ss, 1) as Buffer) : new Map();
          return {
            scope: { name: text(scope, 1) ?? '', ...(scope.has(2) ? { version: text(scope, 2)! } : {}) },
            spans: all(ss, 2).map(span),
          };
        }),
      };
    }),
  };
}
