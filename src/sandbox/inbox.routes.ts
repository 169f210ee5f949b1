import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { App } from '../http/app.ts';
import type { Context } from '../context.ts';
import { DateTime, ErrorBody, NoContent, bearerErrors, withHeaders } from '../http/schemas.ts';
import type { FastifyRequest } from 'fastify';
import type { RateLimiter } from '../http/rate-limit.ts';
import { inboxOfRequest } from './inbox-guard.ts';
import {
  ALLOWED_STATUSES,
  MAX_BODY_BYTES,
  clearReceived,
  ensureInbox,
  listReceived,
  receive,
  setResponderStatus,
} from './inbox.service.ts';

const NO_STORE = { 'Cache-Control': { type: 'string', enum: ['no-store'] } };
const ResponderStatus = Type.Integer({
  enum: [...ALLOWED_STATUSES],
  description: `Status com que o receptor responde: ${ALLOWED_STATUSES.join(', ')}.`,
});

const Inbox = Type.Object(
  {
    url: Type.String({ description: 'Registre esta URL em PUT /v1/webhooks. O token (prefixo `sbx_`) é o último segmento.' }),
    visualizacaoUrl: Type.String({ description: 'Página que lista os eventos recebidos e se atualiza sozinha.' }),
    responderStatus: Type.Integer(),
  },
  { additionalProperties: false },
);

const ReceivedEvent = Type.Object(
  {
    id: Type.Integer(),
    recebidoEm: DateTime(),
    tipo: Type.Optional(Type.String()),
    eventoId: Type.Optional(Type.String()),
    tentativa: Type.Optional(Type.String()),
    assinaturaValida: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'null quando não foi possível verificar (veja `motivo`).',
    }),
    motivo: Type.Optional(Type.String()),
    respondeuStatus: Type.Integer(),
    headers: Type.Record(Type.String(), Type.String()),
    corpo: Type.Unknown({
      description:
        'Corpo como recebido: JSON, ou texto quando não é JSON. Um JSON com mais de 64 níveis de aninhamento vem como texto, com `corpoAviso`.',
    }),
    corpoAviso: Type.Optional(
      Type.String({
        description: 'Presente quando um corpo em JSON é mostrado como texto, e por quê (aninhamento acima de 64 níveis).',
      }),
    ),
  },
  { additionalProperties: false },
);

const TokenParams = Type.Object({ token: Type.String({ description: 'Token do receptor (prefixo `sbx_`).' }) });
const notFound = ErrorBody(['nao_encontrado'], 'Receptor não encontrado.');
const limited = ErrorBody(
  ['limite_excedido'],
  'Limite de requisições do token excedido (ou, para tokens inexistentes, do IP de origem).',
  {
    'Retry-After': { type: 'integer' },
  },
);
const HEADERS_NOT_STORED = new Set(['authorization', 'cookie', 'proxy-authorization']);

export function registerInboxRoutes(app: App, ctx: Context, limiter: RateLimiter): void {
  const inboxOf = (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) =>
    inboxOfRequest(ctx, limiter, request, reply);

  app.put(
    '/v1/sandbox/receptor',
    {
      config: { auth: 'bearer', fieldCodes: { responderStatus: 'status_invalido' } },
      // The body is optional: no body at all is the same as {}.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        tags: ['Sandbox'],
        summary: 'Criar (ou obter) o receptor de testes',
        description:
          'Cria o receptor do canal ou devolve o existente (sempre a mesma URL). `responderStatus` opcional muda o status de resposta.',
        security: [{ bearerAuth: [] }],
        body: Type.Object(
          { responderStatus: Type.Optional(ResponderStatus) },
          { additionalProperties: false, description: 'Opcional: sem corpo, cria ou devolve o receptor.' },
        ),
        response: {
          200: withHeaders(Inbox, NO_STORE, 'Receptor do canal.'),
          400: ErrorBody(
            ['status_invalido', 'requisicao_invalida'],
            'responderStatus fora dos valores aceitos, ou corpo inválido.',
          ),
          ...bearerErrors(),
        },
      },
    },
    async (request) => ensureInbox(ctx, request.channel!.id, request.body.responderStatus),
  );

  app.delete(
    '/v1/sandbox/receptor/eventos',
    {
      config: { auth: 'bearer' },
      schema: {
        tags: ['Sandbox'],
        summary: 'Apagar os eventos recebidos',
        security: [{ bearerAuth: [] }],
        response: {
          204: NoContent('Eventos apagados.'),
          404: ErrorBody(['nao_encontrado'], 'O canal ainda não criou seu receptor.'),
          ...bearerErrors(),
        },
      },
    },
    async (request, reply) => {
      await clearReceived(ctx, { channelId: request.channel!.id });
      return reply.code(204).send();
    },
  );

  app.put(
    '/v1/sandbox/receptor/:token/modo',
    {
      config: { fieldCodes: { responderStatus: 'status_invalido' } },
      schema: {
        tags: ['Sandbox'],
        summary: 'Mudar o status de resposta do receptor',
        description: 'Sem Bearer: protegido apenas pelo token do caminho. Use para provocar falhas e ver as novas tentativas.',
        params: TokenParams,
        body: Type.Object({ responderStatus: ResponderStatus }, { additionalProperties: false }),
        response: {
          200: withHeaders(
            Type.Object({ responderStatus: Type.Integer() }, { additionalProperties: false }),
            {},
            'Status com que o receptor passa a responder.',
          ),
          400: ErrorBody(['status_invalido', 'requisicao_invalida'], 'responderStatus fora dos valores aceitos.'),
          404: notFound,
          429: limited,
        },
      },
    },
    async (request, reply) => {
      const inbox = await inboxOf(request, reply);
      return { responderStatus: await setResponderStatus(ctx, inbox, request.body.responderStatus) };
    },
  );

  app.get(
    '/v1/sandbox/receptor/:token/eventos',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'Listar os eventos recebidos',
        description: 'Sem Bearer. Mais recentes primeiro, no máximo 50.',
        params: TokenParams,
        response: {
          200: withHeaders(
            Type.Object({ responderStatus: Type.Integer(), eventos: Type.Array(ReceivedEvent) }, { additionalProperties: false }),
            {},
            'Status configurado e eventos recebidos (até 50).',
          ),
          404: notFound,
          429: limited,
        },
      },
    },
    async (request, reply) => listReceived(ctx, await inboxOf(request, reply)),
  );

  app.delete(
    '/v1/sandbox/receptor/:token/eventos',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'Apagar os eventos recebidos (pelo token)',
        description: 'Sem Bearer: o que a página de visualização usa para limpar a lista.',
        params: TokenParams,
        response: { 204: NoContent('Eventos apagados.'), 404: notFound, 429: limited },
      },
    },
    async (request, reply) => {
      await clearReceived(ctx, await inboxOf(request, reply));
      return reply.code(204).send();
    },
  );

  // The URL registered as the webhook. It must take any body as it arrives, so it
  // gets its own raw parser, capped at 64 KB before anything is buffered.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));
    scope.post(
      '/v1/sandbox/receptor/:token',
      {
        bodyLimit: MAX_BODY_BYTES,
        schema: {
          tags: ['Sandbox'],
          summary: 'Receber um evento (URL do webhook de testes)',
          description:
            'Sem Bearer. Guarda o pedido (hora, tipo, id do evento, tentativa, cabeçalhos, corpo), verifica `X-Service-Signature` com os segredos ' +
            'do webhook do canal (atual e anterior durante a rotação) e responde com o status configurado (padrão 200). Corpo até 64 KB (65.536 bytes).',
          params: TokenParams,
          consumes: ['application/json', 'text/plain', '*/*'],
          response: {
            200: Type.Object(
              { recebido: Type.Boolean() },
              { description: 'Ou o status configurado (202, 204, 400, 401, 404, 500, 502, 503).' },
            ),
            404: notFound,
            413: ErrorBody(['corpo_muito_grande'], 'Corpo acima de 64 KB.'),
            429: limited,
          },
        },
      },
      async (request, reply) => {
        const inbox = await inboxOf(request as FastifyRequest<{ Params: { token: string } }>, reply);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) {
          if (value !== undefined && !HEADERS_NOT_STORED.has(name))
            headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        const status = await receive(ctx, inbox, headers, typeof request.body === 'string' ? request.body : '');
        // The configured status may be one the schema documents as an error (400,
        // 404…): send pre-serialized text so the error schema does not apply.
        reply.code(status as 200);
        return status === 204 ? reply.send() : reply.type('application/json; charset=utf-8').send('{"recebido":true}');
      },
    );
  });
}
