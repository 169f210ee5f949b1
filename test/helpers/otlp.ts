// OTLP/protobuf trace export requests, decoded by protobufjs for the tests' collectors,
// into the shape OTLP/JSON gives: ids in hex, 64-bit integers as decimal strings, kinds
// and status codes as numbers. The schema is the part of opentelemetry-proto's
// collector/trace/v1, trace/v1, common/v1 and resource/v1 that traces use, field numbers
// as published (no npm package ships the .proto files).
import http from 'node:http';
import protobuf from 'protobufjs';

const SCHEMA = `
syntax = "proto3";
package otlp;

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  fixed32 flags = 16;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`;

const Request = protobuf.parse(SCHEMA, { keepCase: false }).root.lookupType('otlp.ExportTraceServiceRequest');

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

export interface DecodedRequest {
  resourceSpans: Array<{
    resource: { attributes: KeyValue[] };
    scopeSpans: Array<{ scope: { name: string; version?: string }; spans: DecodedSpan[] }>;
  }>;
}

// protobufjs's plain object: bytes as base64 (turned into hex below), 64-bit integers as
// strings, fields left at their default absent, and the oneof's field only.
type Plain = Record<string, unknown>;
const hex = (base64: unknown) =>
  typeof base64 === 'string' && base64 !== '' ? Buffer.from(base64, 'base64').toString('hex') : undefined;
const list = (value: unknown) => (Array.isArray(value) ? (value as Plain[]) : []);

function anyValue(v: Plain | undefined): AnyValue {
  if (!v) return {};
  if (v.stringValue !== undefined) return { stringValue: v.stringValue as string };
  if (v.boolValue !== undefined) return { boolValue: v.boolValue as boolean };
  if (v.intValue !== undefined) return { intValue: String(v.intValue) };
  if (v.doubleValue !== undefined) return { doubleValue: v.doubleValue as number };
  if (v.arrayValue !== undefined) return { arrayValue: { values: list((v.arrayValue as Plain).values).map(anyValue) } };
  if (v.kvlistValue !== undefined) return { kvlistValue: { values: list((v.kvlistValue as Plain).values).map(keyValue) } };
  if (v.bytesValue !== undefined) return { bytesValue: v.bytesValue as string };
  return {};
}

const keyValue = (kv: Plain): KeyValue => ({ key: kv.key as string, value: anyValue(kv.value as Plain | undefined) });
const optional = <K extends string, V>(key: K, value: V | undefined) =>
  value === undefined || value === '' ? {} : { [key]: value };

function span(s: Plain): DecodedSpan {
  const status = (s.status ?? {}) as Plain;
  return {
    traceId: hex(s.traceId)!,
    spanId: hex(s.spanId)!,
    ...optional('traceState', s.traceState as string | undefined),
    ...optional('parentSpanId', hex(s.parentSpanId)),
    name: (s.name as string | undefined) ?? '',
    kind: (s.kind as number | undefined) ?? 0,
    startTimeUnixNano: String(s.startTimeUnixNano ?? '0'),
    endTimeUnixNano: String(s.endTimeUnixNano ?? '0'),
    attributes: list(s.attributes).map(keyValue),
    droppedAttributesCount: (s.droppedAttributesCount as number | undefined) ?? 0,
    events: list(s.events).map((e) => ({
      timeUnixNano: String(e.timeUnixNano ?? '0'),
      name: (e.name as string | undefined) ?? '',
      attributes: list(e.attributes).map(keyValue),
    })),
    links: list(s.links).map((l) => ({
      traceId: hex(l.traceId)!,
      spanId: hex(l.spanId)!,
      ...optional('traceState', l.traceState as string | undefined),
      attributes: list(l.attributes).map(keyValue),
      ...optional('flags', l.flags as number | undefined),
    })),
    status: {
      ...optional('code', status.code as number | undefined),
      ...optional('message', status.message as string | undefined),
    },
    ...optional('flags', s.flags as number | undefined),
  };
}

/** An ExportTraceServiceRequest, as OTLP/JSON would spell it. */
export function decodeTraceRequest(bytes: Buffer): DecodedRequest {
  const plain = Request.toObject(Request.decode(bytes), { longs: String, bytes: String, oneofs: false }) as Plain;
  return {
    resourceSpans: list(plain.resourceSpans).map((rs) => ({
      resource: { attributes: list((rs.resource as Plain | undefined)?.attributes).map(keyValue) },
      scopeSpans: list(rs.scopeSpans).map((ss) => {
        const scope = (ss.scope ?? {}) as Plain;
        return {
          scope: { name: (scope.name as string | undefined) ?? '', ...optional('version', scope.version as string | undefined) },
          spans: list(ss.spans).map(span),
        };
      }),
    })),
  };
}

export interface OtlpCollector {
  /** The base to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Every span received, protobuf or JSON, in arrival order. */
  spans: DecodedSpan[];
  contentTypes: Set<string>;
  close(): Promise<void>;
}

/** A local OTLP/HTTP collector for traces: keeps what it receives and answers 200. */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: DecodedSpan[] = [];
  const contentTypes = new Set<string>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = String(request.headers['content-type']);
      contentTypes.add(contentType);
      const parsed =
        contentType === 'application/x-protobuf'
          ? decodeTraceRequest(body)
          : (JSON.parse(body.toString('utf8')) as DecodedRequest);
      for (const rs of parsed.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
