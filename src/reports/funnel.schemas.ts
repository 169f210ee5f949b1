// The OpenAPI contract of GET /v1/relatorios/funil (funnel.routes.ts).
import { Type } from 'typebox';
import { DateTime, ErrorBody, bearerErrors, withHeaders } from '../http/schemas.ts';
import { PROPOSAL_STATUSES } from '../db/tables.ts';
import { MAX_DAYS, TIME_ZONE } from './days.ts';
import { GROUPINGS, REFERENCE_GROUPS } from './funnel.service.ts';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

const counts = {
  criados: Count('Links criados.'),
  abertos: Count('Desses, os que o cliente abriu pelo menos uma vez (têm `abertoEm`), qualquer que seja o status agora.'),
  emAndamento: Count(
    'Desses, os que estão `EM_ANDAMENTO` agora: celular confirmado, proposta ainda não enviada, link não expirado.',
  ),
  concluidos: Count('Desses, os `CONCLUIDO`: a proposta foi criada no banco.'),
  cancelados: Count('Desses, os `CANCELADO`: a jornada terminou sem proposta possível.'),
  expirados: Count('Desses, os `EXPIRADO` (como a consulta do link os mostra).'),
  propostas: Type.Object(Object.fromEntries(PROPOSAL_STATUSES.map((status) => [status, Type.Integer({ minimum: 0 })])), {
    additionalProperties: false,
    description: 'As propostas desses links pelo status de agora; somam `concluidos`.',
  }),
};

const Grupo = Type.Object(
  {
    dia: Type.Optional(Type.String({ format: 'date', description: 'Com `agruparPor=dia`: o dia de São Paulo.' })),
    referenciaExterna: Type.Optional(Type.String({ description: 'Com `agruparPor=referenciaExterna`: a referência.' })),
    ...counts,
  },
  { additionalProperties: false },
);

const EXAMPLE_COUNTS = {
  criados: 120,
  abertos: 95,
  emAndamento: 4,
  concluidos: 41,
  cancelados: 12,
  expirados: 28,
  propostas: { CRIADA: 1, AGUARDANDO_FORMALIZACAO: 6, FORMALIZADA: 7, APROVADA: 25, RECUSADA: 1, CANCELADA: 1 },
};

/** GET /v1/relatorios/funil */
export const funnelSchema = {
  tags: ['Relatórios'],
  summary: 'Funil dos links do canal',
  operationId: 'consultarFunil',
  description:
    'Até onde chegaram os links criados no período: criados, abertos, em andamento, concluídos (com proposta), cancelados, ' +
    `expirados e as propostas por status, agrupados por dia de criação ou por \`referenciaExterna\`. Os dias são de ${TIME_ZONE} ` +
    '(um link criado às 02:30 UTC conta no dia anterior). Cada link conta no dia em que foi criado, pelo ponto a que chegou até ' +
    `agora. Período de no máximo ${MAX_DAYS} dias, \`de\` e \`ate\` inclusive.`,
  security: [{ bearerAuth: [] }],
  querystring: Type.Object({
    de: Type.String({ format: 'date', description: 'Primeiro dia do período (AAAA-MM-DD, em São Paulo), inclusive.' }),
    ate: Type.String({
      format: 'date',
      description: `Último dia do período (AAAA-MM-DD), inclusive; no máximo ${MAX_DAYS} dias.`,
    }),
    agruparPor: Type.Optional(
      Type.String({
        enum: [...GROUPINGS],
        default: 'dia',
        description:
          '`dia` (padrão): um grupo por dia do período, dias sem links inclusive. `referenciaExterna`: um grupo por referência, ' +
          'as de mais links criados primeiro (empate: ordem da referência), até `limite`; as demais somadas em `outros`, e os ' +
          'links sem referência em `semReferencia`.',
      }),
    ),
    limite: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: REFERENCE_GROUPS.max,
        default: REFERENCE_GROUPS.default,
        description: `Com \`agruparPor=referenciaExterna\`: quantas referências mostrar, de 1 a ${REFERENCE_GROUPS.max} (padrão ${REFERENCE_GROUPS.default}).`,
      }),
    ),
  }),
  response: {
    200: withHeaders(
      Type.Object(
        {
          de: Type.String({ format: 'date' }),
          ate: Type.String({ format: 'date' }),
          fusoHorario: Type.String({ enum: [TIME_ZONE], description: 'O fuso dos dias.' }),
          agruparPor: Type.String({ enum: [...GROUPINGS] }),
          geradoEm: DateTime('O instante das contagens.'),
          total: Type.Object(counts, { additionalProperties: false, description: 'O período inteiro.' }),
          grupos: Type.Array(Grupo),
          semReferencia: Type.Optional(
            Type.Object(counts, {
              additionalProperties: false,
              description: 'Com `agruparPor=referenciaExterna`: os links sem referência (quando há).',
            }),
          ),
          outros: Type.Optional(
            Type.Object(
              { referencias: Type.Integer({ minimum: 1, description: 'Quantas referências estão somadas aqui.' }), ...counts },
              {
                additionalProperties: false,
                description: 'Com `agruparPor=referenciaExterna`: as referências além de `limite`, somadas (quando há).',
              },
            ),
          ),
        },
        {
          additionalProperties: false,
          examples: [
            {
              de: '2026-11-01',
              ate: '2026-11-02',
              fusoHorario: TIME_ZONE,
              agruparPor: 'dia',
              geradoEm: '2026-11-03T12:00:00.000Z',
              total: EXAMPLE_COUNTS,
              grupos: [
                { dia: '2026-11-01', ...EXAMPLE_COUNTS },
                {
                  dia: '2026-11-02',
                  criados: 0,
                  abertos: 0,
                  emAndamento: 0,
                  concluidos: 0,
                  cancelados: 0,
                  expirados: 0,
                  propostas: { CRIADA: 0, AGUARDANDO_FORMALIZACAO: 0, FORMALIZADA: 0, APROVADA: 0, RECUSADA: 0, CANCELADA: 0 },
                },
              ],
            },
          ],
        },
      ),
      {},
      'O funil do período, com o total e os grupos.',
    ),
    400: ErrorBody(
      ['de_invalido', 'ate_invalido', 'periodo_invalido', 'agrupar_por_invalido', 'limite_invalido'],
      `Parâmetro inválido (o \`code\` diz qual), \`de\` depois de \`ate\`, ou período de mais de ${MAX_DAYS} dias.`,
    ),
    ...bearerErrors(),
  },
};
