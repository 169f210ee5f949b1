import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { createLink, getLink } from './links.service.ts';
import { LIST_STATUS_MESSAGE, listLinks } from './links-list.service.ts';
import { createLinkSchema, getLinkSchema, listLinksSchema } from './links.schemas.ts';

const LIST_FIELD_CODES = {
  cursor: 'cursor_invalido',
  limite: 'limite_invalido',
  status: 'status_invalido',
  propostaStatus: 'proposta_status_invalido',
  referenciaExterna: 'referencia_externa_invalida',
  desde: 'desde_invalido',
  ate: 'ate_invalido',
};
const LIST_FIELD_MESSAGES = { status: LIST_STATUS_MESSAGE };

export function registerLinkRoutes(app: App, ctx: Context): void {
  app.post(
    '/v1/links',
    {
      config: {
        auth: 'bearer',
        fieldCodes: {
          cpf: 'cpf_invalido',
          celular: 'celular_invalido',
          urlRetorno: 'url_retorno_invalida',
          'idempotency-key': 'idempotency_key_invalida',
        },
      },
      schema: createLinkSchema,
    },
    async (request, reply) => {
      const body = request.body;
      const result = await createLink(ctx, {
        channelId: request.channel!.id,
        cpf: body.cpf,
        celular: body.celular,
        referenciaExterna: body.referenciaExterna,
        urlRetorno: body.urlRetorno,
        idempotencyKey: request.headers['idempotency-key'],
      });
      if (!result.replayed) reply.code(201).header('location', `/v1/links/${result.link.id}`);
      return result.link;
    },
  );

  app.get(
    '/v1/links',
    { config: { auth: 'bearer', fieldCodes: LIST_FIELD_CODES, fieldMessages: LIST_FIELD_MESSAGES }, schema: listLinksSchema },
    async (request) => listLinks(ctx, request.channel!.id, request.query),
  );

  app.get('/v1/links/:id', { config: { auth: 'bearer' }, schema: getLinkSchema }, async (request) =>
    getLink(ctx, request.channel!.id, request.params.id),
  );
}
