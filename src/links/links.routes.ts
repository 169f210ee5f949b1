import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { createLink, getLink } from './links.service.ts';
import { createLinkSchema, getLinkSchema } from './links.schemas.ts';

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

  app.get('/v1/links/:id', { config: { auth: 'bearer' }, schema: getLinkSchema }, async (request) =>
    getLink(ctx, request.channel!.id, request.params.id),
  );
}
