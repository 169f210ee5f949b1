// A server span per HTTP request, when tracing is on (src/observability/tracing.ts),
// named after the route's pattern ("POST /v1/links", "GET /c/:token"): the raw URL is
// never recorded, since a link's or an inbox's URL carries its token. A caller's
// `traceparent` header is continued, as OpenTelemetry's own HTTP instrumentation does.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { trace, SpanKind, SpanStatusCode, type Attributes, type Context as OtelContext } from '@opentelemetry/api';
import { contexts, LEAN_ROOT } from '../observability/lean-context.ts';
import { parseTraceparent, type ServiceTracer } from '../observability/tracing.ts';

type Done = HookHandlerDoneFunction;

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's context, its span in it (tracing on), from onRequest to onResponse. */
    traceContext: OtelContext | undefined;
  }
}

/**
 * The hooks to add to the server, the onRequest one before any other; the server
 * decorates its requests with `traceContext` (undefined) first.
 */
export function requestTracingHooks(tracer: ServiceTracer): {
  onRequest: (request: FastifyRequest, reply: FastifyReply, done: Done) => void;
  preValidation: (request: FastifyRequest, reply: FastifyReply, done: Done) => void;
  onResponse: (request: FastifyRequest, reply: FastifyReply, done: Done) => void;
  onRequestAbort: (request: FastifyRequest, done: Done) => void;
} {
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

  const onRequest = (request: FastifyRequest, _reply: FastifyReply, done: Done) => {
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
    contexts.run(active, done);
  };
  // The body arrives in later events of the socket. Where those run outside the context
  // onRequest set (AsyncLocalStorage without Node 24's AsyncContextFrame), the first hook
  // after it (preValidation) brings it back for the rest: validation, the route's hooks,
  // the handler, an error's handling. On Node 24 it is still there (tracing.test sends a
  // body in two parts) and this is one comparison.
  const preValidation = (request: FastifyRequest, _reply: FastifyReply, done: Done) => {
    const active = request.traceContext;
    if (active && contexts.active() !== active) contexts.run(active, done);
    else done();
  };

  const end = (request: FastifyRequest, status: number | undefined, aborted: boolean) => {
    const active = request.traceContext;
    const span = active && trace.getSpan(active);
    if (!span) return;
    request.traceContext = undefined;
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (request.channel) span.setAttribute('consigna.channel.id', request.channel.id);
    if (aborted) span.setAttribute('error.type', 'aborted');
    if (aborted || (status !== undefined && status >= 500)) {
      if (!aborted) span.setAttribute('error.type', String(status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };
  return {
    onRequest,
    preValidation,
    onResponse(request, reply, done) {
      end(request, reply.statusCode, false);
      done();
    },
    onRequestAbort(request, done) {
      end(request, undefined, true);
      done();
    },
  };
}
