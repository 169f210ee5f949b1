// A server span per HTTP request, when tracing is on (src/observability/tracing.ts),
// named after the route's pattern ("POST /v1/links", "GET /c/:token"): the raw URL is
// never recorded, since a link's or an inbox's URL carries its token. A caller's
// `traceparent` header is continued, as OpenTelemetry's own HTTP instrumentation does.
//
// Not hooks of their own: the server's onRequest and onResponse hooks call `enter` and
// `exit` (fastify.ts). Each hook of Fastify's costs every request a turn of its runner,
// and an onRequestAbort hook a listener on every request, added and removed. Under
// GET /v1/links/{id} at full load, tracing allocated 1.8 KB a request with four hooks of
// its own and 1.1–1.4 KB without (bench/README.md, "Tracing").
import type { Socket } from 'node:net';
import type { FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { trace, SpanKind, SpanStatusCode, type Attributes, type Context as OtelContext } from '@opentelemetry/api';
import { contexts, LEAN_ROOT } from '../observability/lean-context.ts';
import { parseTraceparent, type ServiceTracer } from '../observability/tracing.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's context, its span in it (tracing on), from onRequest to onResponse. */
    traceContext: OtelContext | undefined;
  }
}

// The traced request a connection is serving, for its end when the client goes away first.
const IN_FLIGHT = Symbol('consigna.tracedRequest');
type TracedSocket = Socket & { [IN_FLIGHT]?: FastifyRequest | null };

export interface RequestTracing {
  /** onRequest, first: starts the request's span and runs the rest of the request (`done`) in its context. */
  enter(request: FastifyRequest, done: HookHandlerDoneFunction): void;
  /** onResponse: ends the request's span with the response's status. */
  exit(request: FastifyRequest, status: number): void;
}

/** What the server's hooks call; the server decorates its requests with `traceContext` (undefined) first. */
export function requestTracing(tracer: ServiceTracer): RequestTracing {
  // "GET /v1/links/:id": one string per route and method, made once. The encoder keeps
  // each name's bytes by the string (otlp-encoding.ts, known): a name built anew for every
  // request would be flattened and hashed again each time.
  const names = new Map<string, Map<string, string>>();
  const spanName = (method: string, route: string) => {
    let byMethod = names.get(route);
    if (!byMethod) {
      // Routes are the application's own, a few dozen; the bound is against a surprise.
      if (names.size >= 1024) names.clear();
      names.set(route, (byMethod = new Map()));
    }
    let name = byMethod.get(method);
    if (name === undefined) byMethod.set(method, (name = `${method} ${route}`));
    return name;
  };

  const end = (request: FastifyRequest, status: number | undefined) => {
    const active = request.traceContext;
    const span = active && trace.getSpan(active);
    if (!span) return;
    request.traceContext = undefined;
    if (request.channel) span.setAttribute('consigna.channel.id', request.channel.id);
    if (status === undefined) {
      span.setAttribute('error.type', 'aborted');
      span.setStatus({ code: SpanStatusCode.ERROR });
    } else {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) {
        span.setAttribute('error.type', String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
    span.end();
  };

  // A client that goes away before its response: the request never reaches onResponse,
  // and its span ends "aborted" when the connection closes. One listener per connection,
  // added with its first request (a keep-alive connection serves many), where an
  // onRequestAbort hook adds and removes one per request. (With pipelined requests, only
  // the latest one in flight is ended that way.)
  const onClose = function (this: TracedSocket) {
    const request = this[IN_FLIGHT];
    this[IN_FLIGHT] = null;
    if (request) end(request, undefined);
  };

  return {
    enter(request, done) {
      const route = request.routeOptions.url;
      const method = request.method;
      const header = request.headers.traceparent;
      const remote = parseTraceparent(typeof header === 'string' ? header : undefined);
      const parent = remote ? trace.setSpanContext(LEAN_ROOT, remote) : LEAN_ROOT;
      const attributes: Attributes = route
        ? { 'http.request.method': method, 'http.route': route, 'consigna.request.id': request.id }
        : { 'http.request.method': method, 'consigna.request.id': request.id };
      const span = tracer.startOwned(route ? spanName(method, route) : method, SpanKind.SERVER, attributes, parent);
      const active = trace.setSpan(parent, span);
      request.traceContext = active;
      const socket = request.raw.socket as TracedSocket | null;
      if (socket) {
        if (socket[IN_FLIGHT] === undefined) socket.once('close', onClose);
        socket[IN_FLIGHT] = request;
      }
      // The body, when there is one, arrives in later events of the socket: Fastify runs
      // its parser's callback in the context this call was made in (an AsyncResource of
      // its own), so validation, the handler and error handling see the span too
      // (tracing.test sends a body 100 ms after its headers).
      contexts.run(active, done);
    },
    exit(request, status) {
      const socket = request.raw.socket as TracedSocket | null;
      if (socket && socket[IN_FLIGHT] === request) socket[IN_FLIGHT] = null;
      end(request, status);
    },
  };
}
