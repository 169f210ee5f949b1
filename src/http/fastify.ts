// The HTTP server every route runs in: Fastify with our body parsing, request ids,
// logging, metrics, draining on shutdown and error answers. Infrastructure only: the
// application (src/app.ts) adds every domain's routes to it.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { validatorCompiler } from './validation.ts';
import { ErrorBody } from './schemas.ts';
import { reportError, sendError } from './error-handler.ts';
import { RateLimiter } from './rate-limit.ts';
import { metricsFor } from '../metrics/metrics.ts';
import { LazyChildLogger, type Logger } from '../observability/logger.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../text/json.ts';
import { activeTracer } from '../observability/tracing.ts';
import { requestTracing } from './request-tracing.ts';
import { registerLoadShedding } from './load-shedding.ts';

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** The server with its hooks and a rate limiter (closed with the server), and no route yet. */
export function createHttpServer(ctx: Context): { app: App; limiter: RateLimiter } {
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    // The default request log lines carry the url, and urls here can hold a
    // single-customer token; onResponse below logs the route pattern instead.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: () => randomUUID(),
    childLoggerFactory: (logger, bindings, options) =>
      LazyChildLogger.factory(logger as Logger, bindings, options) as unknown as FastifyBaseLogger,
    // A hop count is supported at run time though missing from the types.
    trustProxy: ctx.config.trustProxy as boolean | string[],
    bodyLimit: 64 * 1024,
    // Slow-loris and stuck clients: bounded header and request times.
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    // Router-level failures (an over-long path segment, a malformed %-escape) get the
    // same answers as everything else: a documented code and the request id.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff');
      const appError =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? notFound('Recurso não encontrado.')
          : new AppError(400, 'requisicao_invalida', 'URL inválida.');
      return sendError(appError, request, reply);
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);

  // An empty body sent as application/json is no body (clients often send the header
  // on every request); anything else goes through Fastify's own safe JSON parser,
  // after a depth check: no body of ours nests deeper than 3, and anything that later
  // serializes or walks a parsed value recursively would overflow on a deep one.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    if (nestsDeeperThan(body as string)) {
      return done(
        new AppError(400, 'requisicao_invalida', `JSON com mais de ${MAX_JSON_DEPTH} níveis de aninhamento.`),
        undefined,
      );
    }
    return parseJson(request, body as string, done);
  });

  // A route that takes no body, or an optional one (NO_BODY, `x-corpo-opcional`): none at
  // all is validated as {}, so that its schema still refuses any field.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema?.['x-sem-corpo'] && !schema?.['x-corpo-opcional']) return;
    const own =
      route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation];
    route.preValidation = [absentBodyAsEmpty, ...own];
  });

  // Any /v1 route can meet a malformed or oversized body (even one that takes none):
  // document those answers on every route that does not already describe them.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/') || !route.schema?.response || route.config?.oauth) return;
    // A copy: route schemas are module constants shared by every app in the process.
    const responses = { ...(route.schema.response as Record<string, unknown>) };
    responses[400] ??= ErrorBody(['requisicao_invalida'], 'Corpo malformado (JSON inválido, tipo de conteúdo não suportado).');
    responses[413] ??= ErrorBody(['corpo_muito_grande'], 'Corpo acima do limite (64 KB).');
    route.schema = { ...route.schema, response: responses };
  });

  // First, so that every later hook and the handler run in the request's span (route
  // hooks added later run after these): tracing, when on, runs the rest of the request
  // in its context. Callback-style hooks on every request: an async hook costs a promise
  // each time.
  const tracer = activeTracer();
  const tracing = tracer ? requestTracing(tracer) : undefined;
  if (tracing) app.decorateRequest('traceContext', undefined);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    if (request.url.startsWith('/v1/')) reply.header('cache-control', 'no-store');
    if (tracing) tracing.enter(request, done);
    else done();
  });

  const metrics = metricsFor(ctx);
  registerLoadShedding(app, ctx, metrics);
  app.addHook('onResponse', (request, reply, done) => {
    tracing?.exit(request, reply.statusCode);
    const route = request.routeOptions.url ?? 'not-found';
    const elapsedMs = reply.elapsedTime;
    metrics.observeRequest(request.method, route, reply.statusCode, elapsedMs / 1000);
    const failed = reply.statusCode >= 500;
    if (failed || ctx.log.isLevelEnabled('info')) {
      const log = {
        method: request.method,
        route,
        status: reply.statusCode,
        ms: Math.round(elapsedMs * 10) / 10,
        channelId: request.channel?.id,
      };
      if (failed) request.log.error(log, 'request failed');
      else request.log.info(log, 'request');
    }
    done();
  });

  // Draining on shutdown: an in-flight request's connection is closed after its
  // response, and keep-alive connections that go idle meanwhile are closed too;
  // otherwise close() waits for their keep-alive timeout (measured: 70 s).
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    reaper.unref();
    app.server.once('close', () => clearInterval(reaper));
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });

  app.setErrorHandler((error, request, reply) => sendError(reportError(error as Error, request), request, reply));

  app.setNotFoundHandler((request, reply) => sendError(notFound('Rota não encontrada.'), request, reply));

  const limiter = new RateLimiter(ctx);
  app.addHook('onClose', async () => {
    limiter.close();
    await limiter.sync();
  });

  return { app, limiter };
}

function absentBodyAsEmpty(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.body === undefined || request.body === null) request.body = {};
  done();
}
