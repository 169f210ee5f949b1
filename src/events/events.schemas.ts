// The OpenAPI contract of the events routes (events.routes.ts).
import { Type } from 'typebox';
import { DateTime, ErrorBody, Uuid, bearerErrors, withHeaders } from '../http/schemas.ts';
import { PROPOSAL_EVENT_TYPES } from './event-body.ts';

/** A proposal event's body, as its webhook carries it. */
const Evento = Type.Object(
  {
    id: Uuid('Igual a `X-Service-Event-Id` e `webhook-id` da entrega.'),
    tipo: Type.String({ enum: [...PROPOSAL_EVENT_TYPES] }),
    ocorridoEm: DateTime(),
    ambiente: Type.String({ enum: ['SANDBOX', 'REAL'] }),
    link: Type.Object(
      { id: Uuid(), referenciaExterna: Type.Union([Type.String(), Type.Null()]) },
      { additionalProperties: false },
    ),
    proposta: Type.Object(
      {
        numero: Type.Optional(Type.Integer()),
        status: Type.Optional(Type.String()),
        valor: Type.Number(),
        parcelas: Type.Integer(),
        valorParcela: Type.Number(),
      },
      {
        additionalProperties: false,
        description: 'Em `proposta.falha` ainda não há proposta: só `valor`, `parcelas` e `valorParcela`.',
      },
    ),
    motivo: Type.Optional(Type.String({ description: 'Somente em `proposta.falha`.' })),
  },
  { additionalProperties: false },
);

/** GET /v1/eventos */
export const listEventsSchema = {
  tags: ['Eventos'],
  summary: 'Listar os eventos do canal',
  operationId: 'listarEventos',
  description:
    'Os eventos de proposta do canal, do mais recente ao mais antigo, com os mesmos corpos que os webhooks levam: dá para ' +
    'reconstruir o estado de cada link só com esta lista. Páginas por cursor: passe o `proximoCursor` da resposta para a ' +
    'página seguinte (mais antiga). O cursor é estável enquanto eventos novos chegam: eles aparecem no topo, nunca deslocam ' +
    'nem pulam as páginas seguintes. Um evento entra na lista quando toda transação mais antiga que a dele terminou ' +
    '(normalmente milissegundos). Os filtros valem juntos; com cursor, use os mesmos filtros da primeira página.',
  security: [{ bearerAuth: [] }],
  querystring: Type.Object({
    cursor: Type.Optional(Type.String({ maxLength: 200, description: '`proximoCursor` da página anterior.' })),
    limite: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'De 1 a 100; padrão 20.' })),
    tipo: Type.Optional(Type.String({ enum: [...PROPOSAL_EVENT_TYPES], description: 'Só eventos deste tipo.' })),
    linkId: Type.Optional(Uuid('Só eventos deste link.')),
    desde: Type.Optional(DateTime('Só eventos com `ocorridoEm` a partir deste instante (inclusive).')),
    ate: Type.Optional(DateTime('Só eventos com `ocorridoEm` antes deste instante (exclusive).')),
    entregue: Type.Optional(
      Type.Boolean({ description: '`true`: só eventos já entregues ao webhook; `false`: ainda não entregues (ou sem webhook).' }),
    ),
  }),
  response: {
    200: withHeaders(
      Type.Object(
        {
          eventos: Type.Array(Evento),
          proximoCursor: Type.Optional(Type.String({ description: 'Ausente na última página.' })),
        },
        { additionalProperties: false },
      ),
      {},
      'Uma página de eventos, do mais recente ao mais antigo.',
    ),
    400: ErrorBody(
      [
        'cursor_invalido',
        'limite_invalido',
        'tipo_invalido',
        'link_id_invalido',
        'desde_invalido',
        'ate_invalido',
        'periodo_invalido',
        'entregue_invalido',
      ],
      'Parâmetro inválido (o `code` diz qual) ou `desde` que não é anterior a `ate`.',
    ),
    ...bearerErrors(),
  },
};

/** GET /v1/eventos/:id */
export const getEventSchema = {
  tags: ['Eventos'],
  summary: 'Consultar um evento',
  operationId: 'consultarEvento',
  description: 'O corpo do evento byte a byte como foi assinado (o mesmo das entregas). Evento de outro canal: 404.',
  security: [{ bearerAuth: [] }],
  params: Type.Object({ id: Uuid('Id do evento.') }),
  response: {
    200: withHeaders(Evento, {}, 'O corpo do evento, exatamente os bytes assinados.'),
    404: ErrorBody(['nao_encontrado'], 'Evento inexistente, de outro canal, ou id que não é uuid.'),
    ...bearerErrors(),
  },
};
