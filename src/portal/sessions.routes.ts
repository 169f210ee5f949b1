// POST /v1/portal/sessoes (an entry link to the portal) and DELETE /v1/portal/sessoes
// (every session and unused link of the channel ends): docs/rules.md §10.1–§10.2.
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { createPortalSessionSchema, revokePortalSessionsSchema } from './sessions.schemas.ts';
import { createPortalLink, parsePermissions, revokePortalSessions } from './sessions.service.ts';

export function registerPortalApiRoutes(app: App, ctx: Context): void {
  app.post(
    '/v1/portal/sessoes',
    // The body is optional (x-corpo-opcional): no body at all is the same as {}.
    { config: { auth: 'bearer', fieldCodes: { permissoes: 'permissoes_invalidas' } }, schema: createPortalSessionSchema },
    async (request, reply) => {
      const permissoes = parsePermissions(request.body.permissoes);
      return reply.code(201).send(await createPortalLink(ctx, request.channel!.id, permissoes));
    },
  );

  app.delete('/v1/portal/sessoes', { config: { auth: 'bearer' }, schema: revokePortalSessionsSchema }, async (request) =>
    revokePortalSessions(ctx, request.channel!.id),
  );
}
