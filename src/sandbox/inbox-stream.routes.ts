// GET /v1/sandbox/receptor/{token}/eventos/fluxo: the inbox's events as Server-Sent
// Events (inbox-stream.ts), for `listen` and the viewer.
import type { ServerResponse } from 'node:http';
import { Type } from 'typebox';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { ErrorBody, RETRY_AFTER_HEADER } from '../http/schemas.ts';
import { badRequest, overloaded, tooManyRequests } from '../errors.ts';
import { inboxOfRequest } from './inbox-guard.ts';
import { lastInboxEventId, lastIssuedInboxEventId } from './inbox.repository.ts';
import { metricsFor } from '../metrics/metrics.ts';
import { InboxStreams, type SendResult } from './inbox-stream.ts';

/** Streams one inbox may have open at once on one process: enough for a viewer and a few `listen`s. */
export const MAX_STREAMS_PER_INBOX = 10;
/** A comment this often keeps proxies from closing an idle stream, and finds dead clients. */
const HEARTBEAT_MS = 15_000;
/** A client that has not taken what was written for this long, with events waiting, is let go. */
export const STALL_MS = 15_000;
/** What EventSource (and `listen`) waits before reconnecting. */
const RETRY_MS = 2_000;
/** Inbox event ids are PostgreSQL integers. */
const MAX_EVENT_ID = 2_147_483_647;

const EVENT_ID = /^\d{1,10}$/;

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
    `No máximo ${MAX_STREAMS_PER_INBOX} fluxos abertos por receptor em cada processo do serviço. ` +
    'O serviço só escreve enquanto o cliente lê: um cliente que não lê nada por ' +
    `${STALL_MS / 1000} s com eventos esperando é desconectado e retoma com \`Last-Event-ID\`, sem perder eventos.`,
  params: Type.Object({ token: Type.String({ description: 'Token do receptor (prefixo `sbx_`).' }) }),
  querystring: Type.Object({
    desde: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_EVENT_ID,
        description:
          'Id do último registro já visto (o cabeçalho `Last-Event-ID` prevalece). Não pode passar do último id já emitido.',
      }),
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
    400: ErrorBody(
      ['requisicao_invalida'],
      '`desde` ou `Last-Event-ID` que não é um id de registro (não numérico, ou além do último id já emitido).',
    ),
    404: ErrorBody(['nao_encontrado'], 'Receptor não encontrado.'),
    429: ErrorBody(['limite_excedido'], 'Conexões demais com este token, ou fluxos abertos demais para este receptor.'),
    503: ErrorBody(
      ['servico_sobrecarregado', 'db_unavailable'],
      'O processo já mantém o máximo de fluxos abertos, ou está sobrecarregado; repita depois de `Retry-After`.',
      RETRY_AFTER_HEADER,
    ),
  },
};

export function registerInboxStreamRoutes(app: App, ctx: Context, limiter: RateLimiter): void {
  const streams = new InboxStreams(ctx, { perInbox: MAX_STREAMS_PER_INBOX, perProcess: ctx.config.limits.streams });
  const open = new Set<ServerResponse>();
  // Streams never end by themselves: end them so that closing the server does not wait.
  app.addHook('preClose', (done) => {
    for (const response of open) response.end();
    done();
  });
  app.addHook('onClose', async () => streams.close());

  app.get(
    '/v1/sandbox/receptor/:token/eventos/fluxo',
    { config: { expensive: 'stream' }, schema: streamEventsSchema },
    async (request, reply) => {
      const inbox = await inboxOfRequest(ctx, limiter, request, reply);
      const header = request.headers['last-event-id'];
      if (header !== undefined && !(EVENT_ID.test(header) && Number(header) <= MAX_EVENT_ID)) {
        throw badRequest('requisicao_invalida', 'Last-Event-ID deve ser o id numérico de um registro do receptor.');
      }
      // Taken before any await: the caps hold whatever arrives at once.
      const slot = streams.reserve(inbox.id);
      if (slot === 'receptor') throw tooManyRequests(RETRY_MS / 1000);
      if (slot === 'processo') {
        metricsFor(ctx).observeShed(request.routeOptions.url!, 'streams');
        throw overloaded(RETRY_MS / 1000);
      }
      let after: number;
      try {
        const asked = header !== undefined ? Number(header) : request.query.desde;
        if (asked !== undefined && asked > (await lastIssuedInboxEventId(ctx.database.db))) {
          throw badRequest(
            'requisicao_invalida',
            'Posição além do último registro emitido: use o id de um registro já recebido.',
          );
        }
        after = asked ?? (await lastInboxEventId(ctx.database.db, inbox.id));
        await streams.listening();
      } catch (error) {
        slot.release();
        throw error;
      }

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
        slot.release();
        response.end();
        return;
      }
      response.write(`retry: ${RETRY_MS}\nid: ${after}\nevent: pronto\ndata: {"ultimoId":${after}}\n\n`);
      open.add(response);
      let stalled: NodeJS.Timeout | undefined;
      const heartbeat = setInterval(() => {
        // Only to keep an idle connection alive: a client that is not reading needs none.
        if (!response.writableNeedDrain) response.write(': ping\n\n');
      }, HEARTBEAT_MS);
      heartbeat.unref();
      const send = (message: Buffer): SendResult => {
        if (response.destroyed || response.writableEnded) return 'gone';
        if (response.write(message)) return 'sent';
        stalled ??= setTimeout(() => response.destroy(), STALL_MS).unref();
        return 'full';
      };
      const stream = slot.start(after, { send });
      response.on('drain', () => {
        clearTimeout(stalled);
        stalled = undefined;
        stream.resume();
      });
      response.once('close', () => {
        clearInterval(heartbeat);
        clearTimeout(stalled);
        open.delete(response);
        stream.close();
      });
      if (response.destroyed) stream.close();
    },
  );
}
