import { Type } from 'typebox';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { databaseTime } from './channels.repository.ts';
import { DateTime, Uuid, bearerErrors } from '../http/schemas.ts';

const PingResponse = Type.Object(
  {
    canal: Type.Object({ id: Uuid(), nome: Type.String() }, { additionalProperties: false }),
    dbTime: DateTime('Hora lida do banco de dados.'),
  },
  { additionalProperties: false, description: 'Token válido e canal ativo.' },
);

export function registerPingRoutes(app: App, ctx: Context): void {
  app.get(
    '/v1/ping',
    {
      config: { auth: 'bearer' },
      schema: {
        tags: ['Canal'],
        summary: 'Confirmar token e canal',
        operationId: 'confirmarToken',
        description: 'Confirma que o token é válido e o canal está ativo; `dbTime` vem do banco de dados.',
        security: [{ bearerAuth: [] }],
        response: { 200: PingResponse, ...bearerErrors() },
      },
    },
    async (request) => {
      const now = await databaseTime(ctx.database.db, null);
      const channel = request.channel!;
      return { canal: { id: channel.id, nome: channel.name }, dbTime: now.toISOString() };
    },
  );
}
