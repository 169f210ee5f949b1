// A server span per HTTP request, when tracing is on (src/observability/tracing.ts),
// named after the route's pattern ("POST /v1/links", "GET /c/:token"): the raw URL is
// never recorded, since a link's or an inbox's URL carries its token. A caller's
// `traceparent` header is continued, as OpenTelemetry's own HTTP instrumentation does.
//
// Not @fastify/otel, Fastify's instrumentation: its span is named "request" and carries
// `url.path` (the raw path, a link's token included), its error status the error's message,
// and it makes a span of every hook. Only OpenTelemetry's API here, called from the server's
// own onRequest and onResponse hooks (fastify.ts).
import type { Socket } from 'node:net';
import type { FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import {
  context,
  propagation,
  trace,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context as OtelContext,
} from '@opentelemetry/api';
import type { ServiceTracer } from '../observability/tracing.ts';

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
  // added with its first request (a keep-alive connection serves many); the server's hooks
  // are fastify.ts's. (With pipelined requests, only the latest one in flight is ended that way.)
  const onClose = function (this: TracedSocket) {
    const request = this[IN_FLIGHT];
    this[IN_FLIGHT] = null;
    if (request) end(request, undefined);
  };

  return {
    enter(request, done) {
      const route = request.routeOptions.url;
      const method = request.method;
      const parent = propagation.extract(ROOT_CONTEXT, request.headers);
      const attributes: Attributes = route
        ? { 'http.request.method': method, 'http.route': route, 'consigna.request.id': request.id }
        : { 'http.request.method': method, 'consigna.request.id': request.id };
      const span = tracer.startSpan(route ? `${method} ${route}` : method, { kind: SpanKind.SERVER, attributes }, parent);
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
      context.with(active, done);
    },
    exit(request, status) {
      const socket = request.raw.socket as TracedSocket | null;
      if (socket && socket[IN_FLIGHT] === request) socket[IN_FLIGHT] = null;
      end(request, status);
    },
  };
}
