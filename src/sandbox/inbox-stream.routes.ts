// GET /v1/sandbox/receptor/{token}/eventos/fluxo: the inbox's events as Server-Sent
// Events (inbox-stream.ts), for `listen` and the viewer.
import type { ServerResponse } from 'node:http';
import { Type } from 'typebox';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { ErrorBody } from '../http/schemas.ts';
import { badRequest, tooManyRequests } from '../errors.ts';
import { inboxOfRequest } from './inbox-guard.ts';
import { lastInboxEventId } from './inbox.repository.ts';
import { InboxStreams, type StreamedEvent } from './inbox-stream.ts';

/** Streams one inbox may have open at once on one process: enough for a viewer and a few `listen`s. */
export const MAX_STREAMS_PER_INBOX = 10;
/** A comment this often keeps proxies from closing an idle stream, and finds dead clients. */
const HEARTBEAT_MS = 15_000;
/** What EventSource (and `listen`) waits before reconnecting. */
const RETRY_MS = 2_000;

const EVENT_ID = /^\d{1,12}$/;

export const streamEventsSchema = {
  tags: ['Sandbox'],
  summary: 'Receber os eventos do receptor à medida que chegam (Server-Sent Events)',
  operationId: 'acompanharEventosReceptor',
  security: [],
  description:
    'Sem Bearer. `text/event-stream`: primeiro um evento `pronto` (`data: {"ultimoId": N}`, `id: N`), depois um evento ' +
    '`evento` por registro recebido (`id` = id do registro; `data` = o registro como em `GET …/eventos`, mais `corpoBase64`: ' +
    'os bytes exatos que chegaram), e um comentário `: ping` a cada 15 s. Sem `Last-Event-ID` nem `desde`, só o que chegar ' +
    'depois da conexão; com eles, antes tudo o que o receptor ainda guarda (os 50 mais recentes) depois desse id. ' +
    'O EventSource do navegador reconecta sozinho com `Last-Event-ID`; o comando `listen` do SDK usa este fluxo. ' +
    `No máximo ${MAX_STREAMS_PER_INBOX} fluxos abertos por receptor.`,
  params: Type.Object({ token: Type.String({ description: 'Token do receptor (prefixo `sbx_`).' }) }),
  querystring: Type.Object({
    desde: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Id do último registro já visto (o cabeçalho `Last-Event-ID` prevalece).' }),
    ),
  }),
  headers: Type.Object({
    'last-event-id': Type.Optional(Type.String({ description: 'Id do último registro já visto (reconexão).' })),
  }),
  response: {
    200: {
      description: 'Fluxo de eventos (não termina enquanto o cliente estiver conectado).',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    400: ErrorBody(['requisicao_invalida'], '`desde` ou `Last-Event-ID` que não é um id de registro.'),
    404: ErrorBody(['nao_encontrado'], 'Receptor não encontrado.'),
    429: ErrorBody(['limite_excedido'], 'Conexões demais com este token, ou fluxos abertos demais para este receptor.'),
  },
};

export function registerInboxStreamRoutes(app: App, ctx: Context, limiter: RateLimiter): void {
  const streams = new InboxStreams(ctx);
  const open = new Set<ServerResponse>();
  // Streams never end by themselves: end them so that closing the server does not wait.
  app.addHook('preClose', (done) => {
    for (const response of open) response.end();
    done();
  });
  app.addHook('onClose', async () => streams.close());

  app.get('/v1/sandbox/receptor/:token/eventos/fluxo', { schema: streamEventsSchema }, async (request, reply) => {
    const inbox = await inboxOfRequest(ctx, limiter, request, reply);
    const header = request.headers['last-event-id'];
    if (header !== undefined && !EVENT_ID.test(header)) {
      throw badRequest('requisicao_invalida', 'Last-Event-ID deve ser o id numérico de um registro do receptor.');
    }
    if (streams.count(inbox.id) >= MAX_STREAMS_PER_INBOX) throw tooManyRequests(RETRY_MS / 1000);
    const after =
      header !== undefined ? Number(header) : (request.query.desde ?? (await lastInboxEventId(ctx.database.db, inbox.id)));

    reply.hijack();
    const response = reply.raw;
    // Hijacked: the headers the hooks set on the reply (request id, nosniff…) go out by hand.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) response.setHeader(name, typeof value === 'number' ? String(value) : value);
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    // HEAD (which Fastify routes here too) gets the headers and no stream: a stream it could
    // never read would hold the connection open with nothing sent.
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    response.write(`retry: ${RETRY_MS}\nid: ${after}\nevent: pronto\ndata: {"ultimoId":${after}}\n\n`);
    open.add(response);
    const heartbeat = setInterval(() => response.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const send = (event: StreamedEvent): boolean => {
      if (response.destroyed || response.writableEnded) return false;
      response.write(`id: ${event.id}\nevent: evento\ndata: ${JSON.stringify(event)}\n\n`);
      return true;
    };
    let close = (): void => {};
    response.once('close', () => {
      clearInterval(heartbeat);
      open.delete(response);
      close();
    });
    close = await streams.open(inbox.id, after, { send });
    if (response.destroyed) close();
  });
}
