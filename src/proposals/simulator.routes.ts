import { Type } from 'typebox';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { ErrorBody, Uuid, bearerErrors, withHeaders } from '../http/schemas.ts';
import { SIMULATABLE, type SimulatableStatus } from './states.ts';
import { simulateProposalStatus } from './simulator.service.ts';

const SimulateBody = Type.Object(
  {
    status: Type.String({
      enum: [...SIMULATABLE],
      description:
        'FORMALIZADA (de CRIADA ou AGUARDANDO_FORMALIZACAO), APROVADA (somente de FORMALIZADA), RECUSADA ou CANCELADA (de qualquer estado ativo).',
    }),
  },
  { additionalProperties: false, examples: [{ status: 'FORMALIZADA' }] },
);

const SimulateResponse = Type.Object(
  {
    status: Type.String({ description: 'Status da proposta após a operação.' }),
    alterado: Type.Boolean({ description: 'false quando a proposta já estava nesse status (nenhum evento é gerado).' }),
  },
  { additionalProperties: false, examples: [{ status: 'FORMALIZADA', alterado: true }] },
);

export function registerSimulatorRoutes(app: App, ctx: Context): void {
  app.post(
    '/v1/links/:id/proposta/simular',
    {
      config: { auth: 'bearer', fieldCodes: { status: 'status_invalido' } },
      schema: {
        tags: ['Sandbox'],
        summary: 'Simular status da proposta (somente sandbox)',
        operationId: 'simularProposta',
        description:
          'Aplica um status à proposta de um link do sandbox como se o banco o tivesse informado, e gera o evento correspondente ' +
          '(`proposta.formalizada`, `proposta.aprovada`, `proposta.recusada`, `proposta.cancelada`). O status nunca volta; ' +
          'RECUSADA e CANCELADA são finais. Mesmo status: 200 com `alterado` false, sem evento. Em REAL: 404.',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ id: Uuid('Id do link.') }),
        body: SimulateBody,
        response: {
          200: withHeaders(
            SimulateResponse,
            {},
            'Status da proposta depois da simulação; `alterado` é false quando ela já estava nesse status.',
          ),
          400: ErrorBody(
            ['status_invalido', 'requisicao_invalida'],
            'Status ausente ou fora de FORMALIZADA, APROVADA, RECUSADA, CANCELADA.',
          ),
          404: ErrorBody(['nao_encontrado'], 'Link inexistente, de outro canal, id que não é uuid, ou ambiente REAL.'),
          409: ErrorBody(
            ['sem_proposta', 'transicao_invalida'],
            '`sem_proposta`: o cliente ainda não enviou a proposta. `transicao_invalida`: o status voltaria ou sairia de um estado final.',
          ),
          ...bearerErrors(),
        },
      },
    },
    async (request) =>
      simulateProposalStatus(ctx, request.channel!.id, request.params.id, request.body.status as SimulatableStatus),
  );
}
