import { Type } from 'typebox';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { ErrorBody, Uuid, bearerErrors, withHeaders } from '../http/schemas.ts';
import { Link } from './links.schemas.ts';
import { simulateExpiry } from './links.expiry.ts';

export const simulateExpirySchema = {
  tags: ['Sandbox'],
  summary: 'Simular a expiração do link (somente sandbox)',
  operationId: 'simularExpiracao',
  description:
    'Expira o link agora, como se `expiraEm` tivesse passado: o status vai a EXPIRADO, `expiraEm` passa a ser agora e ' +
    'a página hospedada passa a dizer que o link expirou. Vale a partir de CRIADO, ABERTO ou EM_ANDAMENTO, como a ' +
    'expiração pelo tempo, e não gera evento (a expiração não gera). Sem corpo. Responde com o link como ficou. Em REAL: 404.',
  security: [{ bearerAuth: [] }],
  params: Type.Object({ id: Uuid('Id do link.') }),
  response: {
    200: withHeaders(Link, {}, 'O link expirado.'),
    404: ErrorBody(['nao_encontrado'], 'Link inexistente, de outro canal, id que não é uuid, ou ambiente REAL.'),
    409: ErrorBody(
      ['link_expirado', 'link_finalizado', 'jornada_concluida'],
      '`link_expirado`: o link já expirou. `link_finalizado`: a jornada já terminou sem proposta (CANCELADO). ' +
        '`jornada_concluida`: a proposta já foi criada (CONCLUIDO). Nos três casos o link não expira mais.',
    ),
    ...bearerErrors(),
  },
};

export function registerExpirySimulationRoutes(app: App, ctx: Context): void {
  app.post('/v1/links/:id/expiracao/simular', { config: { auth: 'bearer' }, schema: simulateExpirySchema }, async (request) =>
    simulateExpiry(ctx, request.channel!.id, request.params.id),
  );
}
