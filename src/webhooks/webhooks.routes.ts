import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import {
  deleteWebhook,
  registerWebhook,
  requireWebhook,
  rotateSecret,
  toWebhookResource,
  webhookHealth,
} from './webhooks.service.ts';
import {
  getDelivery,
  listDeliveries,
  recoverDeliveries,
  resendDelivery,
  sendTestEvent,
  type DeliveryQuery,
} from './deliveries.service.ts';
import {
  deleteWebhookSchema,
  getDeliverySchema,
  getWebhookSchema,
  listDeliveriesSchema,
  recoverDeliveriesSchema,
  registerWebhookSchema,
  resendDeliverySchema,
  rotateSecretSchema,
  sendTestEventSchema,
} from './webhooks.schemas.ts';

export function registerWebhookRoutes(app: App, ctx: Context): void {
  const bearer = { auth: 'bearer' as const };

  app.put(
    '/v1/webhooks',
    {
      config: { ...bearer, fieldCodes: { url: 'url_invalida', eventos: 'eventos_invalidos' } },
      schema: registerWebhookSchema,
    },
    async (request, reply) => {
      const { created, webhook } = await registerWebhook(ctx, request.channel!.id, request.body);
      if (created) reply.code(201);
      return webhook;
    },
  );

  app.get('/v1/webhooks', { config: bearer, schema: getWebhookSchema }, async (request) => ({
    ...toWebhookResource(ctx, await requireWebhook(ctx, request.channel!.id)),
    saude: await webhookHealth(ctx, request.channel!.id),
  }));

  app.delete('/v1/webhooks', { config: bearer, schema: deleteWebhookSchema }, async (request, reply) => {
    await deleteWebhook(ctx, request.channel!.id);
    return reply.code(204).send();
  });

  app.post('/v1/webhooks/segredo', { config: bearer, schema: rotateSecretSchema }, async (request) =>
    rotateSecret(ctx, request.channel!.id),
  );

  app.post('/v1/webhooks/teste', { config: bearer, schema: sendTestEventSchema }, async (request) =>
    sendTestEvent(ctx, request.channel!.id),
  );

  app.get(
    '/v1/webhooks/entregas',
    {
      config: {
        ...bearer,
        fieldCodes: {
          status: 'status_invalido',
          limite: 'limite_invalido',
          cursor: 'cursor_invalido',
          tipo: 'tipo_invalido',
          eventoId: 'evento_id_invalido',
          linkId: 'link_id_invalido',
          desde: 'desde_invalido',
          ate: 'ate_invalido',
        },
      },
      schema: listDeliveriesSchema,
    },
    // The schema admits only DELIVERY_STATUSES (a string enum, as the document shows it).
    async (request) => listDeliveries(ctx, request.channel!.id, request.query as DeliveryQuery),
  );

  app.get('/v1/webhooks/entregas/:id', { config: bearer, schema: getDeliverySchema }, async (request) =>
    getDelivery(ctx, request.channel!.id, request.params.id),
  );

  app.post('/v1/webhooks/entregas/:id/reenviar', { config: bearer, schema: resendDeliverySchema }, async (request) =>
    resendDelivery(ctx, request.channel!.id, request.params.id),
  );

  app.post(
    '/v1/webhooks/entregas/reenviar',
    {
      config: { ...bearer, fieldCodes: { status: 'status_invalido', desde: 'desde_invalido', ate: 'ate_invalido' } },
      schema: recoverDeliveriesSchema,
    },
    async (request) => recoverDeliveries(ctx, request.channel!.id, request.body),
  );
}
