import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { funnelSchema } from './funnel.schemas.ts';
import { funnel } from './funnel.service.ts';
import { ATE_DAY_MESSAGE } from './days.ts';

const FIELD_CODES = {
  de: 'de_invalido',
  ate: 'ate_invalido',
  agruparPor: 'agrupar_por_invalido',
  limite: 'limite_invalido',
};

export function registerReportRoutes(app: App, ctx: Context): void {
  app.get(
    '/v1/relatorios/funil',
    // `ate` is a day here, not the instant of the lists: its message says so.
    { config: { auth: 'bearer', fieldCodes: FIELD_CODES, fieldMessages: { ate: ATE_DAY_MESSAGE } }, schema: funnelSchema },
    async (request) => funnel(ctx, request.channel!.id, request.query),
  );
}
