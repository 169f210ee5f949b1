import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { getEventSchema, listEventsSchema } from './events.schemas.ts';
import { getEventPayload, listEvents } from './events.service.ts';

const FIELD_CODES = {
  cursor: 'cursor_invalido',
  limite: 'limite_invalido',
  tipo: 'tipo_invalido',
  linkId: 'link_id_invalido',
  desde: 'desde_invalido',
  ate: 'ate_invalido',
  entregue: 'entregue_invalido',
};

export function registerEventRoutes(app: App, ctx: Context): void {
  // Both answers are JSON text made of the stored bodies (Fastify sends a string
  // unserialized): the bytes that were signed, not a re-serialization of them.
  app.get(
    '/v1/eventos',
    { config: { auth: 'bearer', fieldCodes: FIELD_CODES }, schema: listEventsSchema },
    async (request, reply) => {
      const page = await listEvents(ctx, request.channel!.id, request.query);
      return reply.type('application/json; charset=utf-8').send(page as never);
    },
  );

  app.get('/v1/eventos/:id', { config: { auth: 'bearer' }, schema: getEventSchema }, async (request, reply) => {
    const signed = await getEventPayload(ctx, request.channel!.id, request.params.id);
    return reply.type('application/json; charset=utf-8').send(signed as never);
  });
}
