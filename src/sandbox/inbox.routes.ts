import type { FastifyReply } from 'fastify';
import { notFound } from '../errors.ts';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import type { FastifyRequest } from 'fastify';
import type { RateLimiter } from '../http/rate-limit.ts';
import { inboxOfRequest, inboxRateKey } from './inbox-guard.ts';
import { hashInboxToken, isIssuedInboxToken } from '../webhooks/inbox-address.ts';
import { enforce } from '../http/rate-limit.ts';
import {
  MAX_BODY_BYTES,
  clearReceived,
  ensureInbox,
  listReceived,
  receive,
  receivedBody,
  setResponderStatus,
} from './inbox.service.ts';
import {
  clearEventsByTokenSchema,
  clearEventsSchema,
  ensureInboxSchema,
  eventBodySchema,
  listEventsSchema,
  receiveEventSchema,
  setResponderStatusSchema,
} from './inbox.schemas.ts';

const HEADERS_NOT_STORED = new Set(['authorization', 'cookie', 'proxy-authorization']);

export function registerInboxRoutes(app: App, ctx: Context, limiter: RateLimiter): void {
  const inboxOf = (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) =>
    inboxOfRequest(ctx, limiter, request, reply);

  app.put(
    '/v1/sandbox/receptor',
    {
      // The body is optional (x-corpo-opcional): no body at all is the same as {}.
      config: { auth: 'bearer', fieldCodes: { responderStatus: 'status_invalido' } },
      schema: ensureInboxSchema,
    },
    async (request) => ensureInbox(ctx, request.channel!.id, request.body.responderStatus),
  );

  app.delete(
    '/v1/sandbox/receptor/eventos',
    { config: { auth: 'bearer' }, schema: clearEventsSchema },
    async (request, reply) => {
      await clearReceived(ctx, { channelId: request.channel!.id });
      return reply.code(204).send();
    },
  );

  app.put(
    '/v1/sandbox/receptor/:token/modo',
    { config: { fieldCodes: { responderStatus: 'status_invalido' } }, schema: setResponderStatusSchema },
    async (request, reply) => {
      const inbox = await inboxOf(request, reply);
      return { responderStatus: await setResponderStatus(ctx, inbox, request.body.responderStatus) };
    },
  );

  app.get(
    '/v1/sandbox/receptor/:token/eventos',
    { config: { expensive: 'request' }, schema: listEventsSchema },
    async (request, reply) => listReceived(ctx, await inboxOf(request, reply)),
  );

  app.get(
    '/v1/sandbox/receptor/:token/eventos/:id/corpo',
    { config: { expensive: 'request' }, schema: eventBodySchema },
    async (request, reply) => {
      const body = await receivedBody(ctx, await inboxOf(request, reply), request.params.id);
      if (!body) throw notFound('Registro não encontrado: o receptor guarda só os 50 mais recentes.');
      // Text for reading, never a document: no sniffing, no scripts, nothing loaded.
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', 'inline')
        .send(body);
    },
  );

  app.delete('/v1/sandbox/receptor/:token/eventos', { schema: clearEventsByTokenSchema }, async (request, reply) => {
    await clearReceived(ctx, await inboxOf(request, reply));
    return reply.code(204).send();
  });

  // The URL registered as the webhook. It must take any body as it arrives, so it
  // gets its own raw parser, capped at 64 KB before anything is buffered.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Bytes, not text: listen forwards exactly what arrived.
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));
    scope.post(
      '/v1/sandbox/receptor/:token',
      { bodyLimit: MAX_BODY_BYTES, config: { expensive: 'request' }, schema: receiveEventSchema },
      async (request, reply) => {
        const inbox = await inboxOf(request as FastifyRequest<{ Params: { token: string } }>, reply);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) {
          if (value !== undefined && !HEADERS_NOT_STORED.has(name))
            headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        const status = await receive(ctx, inbox, headers, Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
        // The configured status may be one the schema documents as an error (400,
        // 404…): send pre-serialized text so the error schema does not apply.
        reply.code(status as 200);
        return status === 204 ? reply.send() : reply.type('application/json; charset=utf-8').send('{"recebido":true}');
      },
    );
  });
}

/**
 * A token already past its limit in this window is refused before anything else runs
 * (no lookup, no turn among the expensive routes, no body read): a flood of refused
 * requests then costs a keyed hash each. Only tokens that were counted have a counter,
 * so this tells nothing about tokens that do not exist.
 */
export function refuseExhaustedInboxTokens(app: App, ctx: Context, limiter: RateLimiter): void {
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url ?? '';
    if (!route.startsWith('/v1/sandbox/receptor/:token') && !route.startsWith('/sandbox/receptor/:token')) return done();
    const token = (request.params as { token?: string }).token;
    if (token === undefined || !isIssuedInboxToken(token)) return done();
    const refusal = limiter.refusal(inboxRateKey(hashInboxToken(ctx, token)), ctx.config.rateLimits.inbox);
    if (!refusal) return done();
    try {
      enforce(reply, refusal);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}
