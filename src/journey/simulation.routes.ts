import { Type } from 'typebox';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { ErrorBody, Uuid, bearerErrors, withHeaders } from '../http/schemas.ts';
import { Link } from '../links/links.schemas.ts';
import { simulateJourney } from './simulation.service.ts';

export const simulateJourneySchema = {
  tags: ['Sandbox'],
  summary: 'Simular a jornada do cliente até a proposta (somente sandbox)',
  operationId: 'simularJornada',
  description:
    'Percorre, sem navegador, as etapas que o cliente faria na página hospedada (código por SMS, autorização da consulta, ' +
    'a primeira oferta, dados fictícios e o envio da proposta), pelos mesmos serviços da página, a partir da etapa em que o ' +
    'link estiver. Os CPFs de cenário se comportam como no navegador: inelegível, SMS recusado e sem oferta terminam o link ' +
    'em CANCELADO; `…515` gera `proposta.falha` e o link continua aberto (chame de novo para tentar outra vez); `…604` gera ' +
    'só `proposta.criada`. Responde com o link como ficou, com `proposta` quando criada. Sem corpo (ou `{}`). ' +
    'Repetir a chamada nunca cria uma segunda proposta: com a proposta criada, a resposta é 409 `jornada_concluida`. Em REAL: 404.',
  security: [{ bearerAuth: [] }],
  params: Type.Object({ id: Uuid('Id do link.') }),
  response: {
    200: withHeaders(Link, {}, 'O link depois da jornada simulada, com `proposta` quando ela foi criada.'),
    404: ErrorBody(['nao_encontrado'], 'Link inexistente, de outro canal, id que não é uuid, ou ambiente REAL.'),
    409: ErrorBody(
      ['link_expirado', 'link_finalizado', 'jornada_concluida'],
      '`link_expirado`: o link expirou. `link_finalizado`: a jornada já terminou sem proposta (CANCELADO). ' +
        '`jornada_concluida`: a proposta já foi criada; use `proposta/simular` para mudar o status dela.',
    ),
    ...bearerErrors(),
  },
};

export function registerJourneySimulationRoutes(app: App, ctx: Context): void {
  app.post('/v1/links/:id/jornada/simular', { config: { auth: 'bearer' }, schema: simulateJourneySchema }, async (request) =>
    simulateJourney(ctx, request.channel!.id, request.params.id),
  );
}
