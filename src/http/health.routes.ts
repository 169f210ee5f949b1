import { Type } from 'typebox';
import type { App } from './fastify.ts';
import type { Context } from '../context.ts';
import { AppError, dbUnavailable } from '../errors.ts';
import { metricsAuthorized } from '../metrics/metrics-access.ts';
import { ErrorBody, withHeaders } from './schemas.ts';
import { metricsFor } from '../metrics/metrics.ts';

const Status = Type.Object({ status: Type.String() }, { additionalProperties: false });

export function registerHealthRoutes(app: App, ctx: Context): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['Operação'],
        summary: 'Processo vivo',
        operationId: 'verificarVida',
        security: [],
        response: { 200: Status },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Operação'],
        summary: 'Pronto para tráfego (banco de dados respondendo)',
        operationId: 'verificarProntidao',
        security: [],
        response: {
          200: withHeaders(Status, {}, 'Pronto: o banco de dados responde.'),
          503: ErrorBody(['db_unavailable'], 'Banco de dados indisponível.'),
        },
      },
    },
    async () => {
      if (!(await ctx.database.ping())) throw dbUnavailable();
      return { status: 'ok' };
    },
  );
  // With CONSIGNA_METRICS_LISTEN the metrics have an address of their own (metrics-server.ts).
  if (ctx.config.metrics.listen) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!metricsAuthorized(ctx.config, request.headers.authorization)) {
      throw new AppError(401, 'unauthorized', 'Informe o token de métricas: Authorization: Bearer <CONSIGNA_METRICS_TOKEN>.', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    const { registry } = metricsFor(ctx);
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
}
