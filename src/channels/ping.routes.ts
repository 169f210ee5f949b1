import { Type } from 'typebox';
import { sql } from 'kysely';
import type { App } from '../http/app.ts';
import type { Context } from '../context.ts';
import { batched } from '../db/batch.ts';
import { DateTime, Uuid, bearerErrors } from '../http/schemas.ts';

const PingResponse = Type.Object(
  {
    canal: Type.Object({ id: Uuid(), nome: Type.String() }, { additionalProperties: false }),
    dbTime: DateTime('Hora lida do banco de dados.'),
  },
  { additionalProperties: false, description: 'Token válido e canal ativo.' },
);

export function registerPingRoutes(app: App, ctx: Context): void {
  // Pings of one event-loop turn share one read of the clock of the database.
  const dbTime = batched(async (keys: readonly null[]) => {
    const { rows } = await sql<{ now: Date }>`select now() as now`.execute(ctx.database.db);
    return keys.map(() => rows[0]!.now);
  });
  app.get(
    '/v1/ping',
    {
      config: { auth: 'bearer' },
      schema: {
        tags: ['Canal'],
        summary: 'Confirmar token e canal',
        description: 'Confirma que o token é válido e o canal está ativo; `dbTime` vem do banco de dados.',
        security: [{ bearerAuth: [] }],
        response: { 200: PingResponse, ...bearerErrors() },
      },
    },
    async (request) => {
      const now = await dbTime(null);
      const channel = request.channel!;
      return { canal: { id: channel.id, nome: channel.name }, dbTime: now.toISOString() };
    },
  );
}
