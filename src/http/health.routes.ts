import { Type } from 'typebox';
import type { App } from './app.ts';
import type { Context } from '../context.ts';
import { dbUnavailable } from '../errors.ts';
import { ErrorBody } from './schemas.ts';

const Status = Type.Object({ status: Type.String() }, { additionalProperties: false });

export function registerHealthRoutes(app: App, ctx: Context): void {
  app.get(
    '/healthz',
    { schema: { tags: ['Operação'], summary: 'Processo vivo', response: { 200: Status } } },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Operação'],
        summary: 'Pronto para tráfego (banco de dados respondendo)',
        response: { 200: Status, 503: ErrorBody(['db_unavailable'], 'Banco de dados indisponível.') },
      },
    },
    async () => {
      if (!(await ctx.database.ping())) throw dbUnavailable();
      return { status: 'ok' };
    },
  );
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs/referencia/'));
}
