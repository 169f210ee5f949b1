import { Type } from 'typebox';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { ErrorBody, bearerErrors, withHeaders } from '../http/schemas.ts';
import { simulateRetries } from './retry-simulation.service.ts';

const SimulateRetriesBody = Type.Object(
  {
    intervaloSegundos: Type.Union([Type.Integer({ minimum: 1, maximum: 60 }), Type.Null()], {
      description:
        'Segundos antes de cada nova tentativa, de 1 a 60, no lugar do agendamento padrão. `null` volta ao agendamento padrão.',
    }),
  },
  { additionalProperties: false, examples: [{ intervaloSegundos: 5 }, { intervaloSegundos: null }] },
);

const SimulateRetriesResponse = Type.Object(
  {
    intervalosSegundos: Type.Array(Type.Integer({ minimum: 1 }), {
      description: 'Espera antes de cada nova tentativa (2ª a 7ª), em segundos, agora em vigor para o canal.',
    }),
  },
  { additionalProperties: false, examples: [{ intervalosSegundos: [5, 5, 5, 5, 5, 5] }] },
);

export const simulateRetriesSchema = {
  tags: ['Sandbox'],
  summary: 'Simular retentativas rápidas do webhook (somente sandbox)',
  operationId: 'simularRetentativas',
  description:
    'Faz as novas tentativas de entrega do webhook deste canal esperarem `intervaloSegundos` cada uma, em vez do ' +
    'agendamento padrão (60 s, 5 min, 30 min, 2 h, 6 h e 24 h): as sete tentativas e o status FALHOU acontecem em ' +
    'cerca de um minuto (com 5 s, 30 s), para testar o tratamento de uma entrega que falhou e a recuperação em lote ' +
    '(`POST /v1/webhooks/entregas/reenviar`). Vale para as próximas tentativas de todas as entregas do canal, inclusive ' +
    'as já pendentes (depois da espera já agendada) e o reenvio manual. `{"intervaloSegundos": null}` volta ao ' +
    'agendamento padrão. Fica guardado com o webhook: removê-lo (`DELETE /v1/webhooks`) também volta ao padrão. ' +
    'Responde com as esperas em vigor. Em REAL: 404.',
  security: [{ bearerAuth: [] }],
  body: SimulateRetriesBody,
  response: {
    200: withHeaders(SimulateRetriesResponse, {}, 'As esperas entre tentativas agora em vigor para o canal.'),
    400: ErrorBody(['requisicao_invalida'], '`intervaloSegundos` ausente, não inteiro, fora de 1 a 60, ou corpo inválido.'),
    404: ErrorBody(['nao_encontrado'], 'Nenhum webhook registrado para o canal, ou ambiente REAL.'),
    ...bearerErrors(),
  },
};

export function registerRetrySimulationRoutes(app: App, ctx: Context): void {
  app.post('/v1/webhooks/retentativas/simular', { config: { auth: 'bearer' }, schema: simulateRetriesSchema }, async (request) =>
    simulateRetries(ctx, request.channel!.id, request.body.intervaloSegundos),
  );
}
