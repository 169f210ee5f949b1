// The OpenAPI contract of the test receiver routes (inbox.routes.ts): one schema per
// route, in registration order, and the pieces they share.
import { Type } from 'typebox';
import { DateTime, ErrorBody, NoContent, bearerErrors, withHeaders } from '../http/schemas.ts';
import { ALLOWED_STATUSES } from './inbox.service.ts';

const NO_STORE = { 'Cache-Control': { type: 'string', enum: ['no-store'] } };
const ResponderStatus = Type.Integer({
  enum: [...ALLOWED_STATUSES],
  description: `Status com que o receptor responde: ${ALLOWED_STATUSES.join(', ')}.`,
});

const Inbox = Type.Object(
  {
    url: Type.String({ description: 'Registre esta URL em PUT /v1/webhooks. O token (prefixo `sbx_`) é o último segmento.' }),
    visualizacaoUrl: Type.String({ description: 'Página que lista os eventos recebidos e se atualiza sozinha.' }),
    responderStatus: Type.Integer(),
  },
  { additionalProperties: false },
);

const ReceivedEvent = Type.Object(
  {
    id: Type.Integer(),
    recebidoEm: DateTime(),
    tipo: Type.Optional(Type.String()),
    eventoId: Type.Optional(Type.String()),
    tentativa: Type.Optional(Type.String()),
    assinaturaValida: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'null quando não foi possível verificar (veja `motivo`).',
    }),
    motivo: Type.Optional(Type.String()),
    respondeuStatus: Type.Integer({
      description:
        'Status com que o receptor respondeu (o `responderStatus` dele naquele momento). Numa entrega da Consigna, é o status ' +
        'registrado na tentativa, e é ele que decide se haverá nova tentativa; o `listen` mostra este e o do seu servidor local.',
    }),
    headers: Type.Record(Type.String(), Type.String()),
    corpo: Type.Unknown({
      description:
        'Corpo como recebido: JSON, ou texto quando não é JSON. Um JSON com mais de 64 níveis de aninhamento vem como texto, com `corpoAviso`.',
    }),
    corpoAviso: Type.Optional(
      Type.String({
        description: 'Presente quando um corpo em JSON é mostrado como texto, e por quê (aninhamento acima de 64 níveis).',
      }),
    ),
  },
  { additionalProperties: false },
);

const TokenParams = Type.Object({ token: Type.String({ description: 'Token do receptor (prefixo `sbx_`).' }) });
const notFound = ErrorBody(['nao_encontrado'], 'Receptor não encontrado.');
const limited = ErrorBody(
  ['limite_excedido'],
  'Limite de requisições do token excedido (ou, para tokens inexistentes, do IP de origem).',
  {
    'Retry-After': { type: 'integer' },
  },
);

/** PUT /v1/sandbox/receptor */
export const ensureInboxSchema = {
  tags: ['Sandbox'],
  summary: 'Criar (ou obter) o receptor de testes',
  operationId: 'garantirReceptor',
  description:
    'Cria o receptor do canal ou devolve o existente (sempre a mesma URL). `responderStatus` opcional muda o status de resposta.',
  security: [{ bearerAuth: [] }],
  body: Type.Object(
    { responderStatus: Type.Optional(ResponderStatus) },
    { additionalProperties: false, description: 'Opcional: sem corpo, cria ou devolve o receptor.' },
  ),
  'x-corpo-opcional': true,
  response: {
    200: withHeaders(Inbox, NO_STORE, 'Receptor do canal.'),
    400: ErrorBody(['status_invalido', 'requisicao_invalida'], 'responderStatus fora dos valores aceitos, ou corpo inválido.'),
    ...bearerErrors(),
  },
};

/** DELETE /v1/sandbox/receptor/eventos */
export const clearEventsSchema = {
  tags: ['Sandbox'],
  summary: 'Apagar os eventos recebidos',
  operationId: 'apagarEventosReceptor',
  security: [{ bearerAuth: [] }],
  response: {
    204: NoContent('Eventos apagados.'),
    404: ErrorBody(['nao_encontrado'], 'O canal ainda não criou seu receptor.'),
    ...bearerErrors(),
  },
};

/** PUT /v1/sandbox/receptor/:token/modo */
export const setResponderStatusSchema = {
  tags: ['Sandbox'],
  summary: 'Mudar o status de resposta do receptor',
  operationId: 'definirStatusReceptor',
  security: [],
  description: 'Sem Bearer: protegido apenas pelo token do caminho. Use para provocar falhas e ver as novas tentativas.',
  params: TokenParams,
  body: Type.Object({ responderStatus: ResponderStatus }, { additionalProperties: false }),
  response: {
    200: withHeaders(
      Type.Object({ responderStatus: Type.Integer() }, { additionalProperties: false }),
      {},
      'Status com que o receptor passa a responder.',
    ),
    400: ErrorBody(['status_invalido', 'requisicao_invalida'], 'responderStatus fora dos valores aceitos.'),
    404: notFound,
    429: limited,
  },
};

/** GET /v1/sandbox/receptor/:token/eventos */
export const listEventsSchema = {
  tags: ['Sandbox'],
  summary: 'Listar os eventos recebidos',
  operationId: 'listarEventosReceptor',
  security: [],
  description: 'Sem Bearer. Mais recentes primeiro, no máximo 50.',
  params: TokenParams,
  response: {
    200: withHeaders(
      Type.Object({ responderStatus: Type.Integer(), eventos: Type.Array(ReceivedEvent) }, { additionalProperties: false }),
      {},
      'Status configurado e eventos recebidos (até 50).',
    ),
    404: notFound,
    429: limited,
  },
};

/** DELETE /v1/sandbox/receptor/:token/eventos */
export const clearEventsByTokenSchema = {
  tags: ['Sandbox'],
  summary: 'Apagar os eventos recebidos (pelo token)',
  operationId: 'apagarEventosReceptorPorToken',
  security: [],
  description: 'Sem Bearer: o que a página de visualização usa para limpar a lista.',
  params: TokenParams,
  response: { 204: NoContent('Eventos apagados.'), 404: notFound, 429: limited },
};

/** POST /v1/sandbox/receptor/:token */
export const receiveEventSchema = {
  tags: ['Sandbox'],
  summary: 'Receber um evento (URL do webhook de testes)',
  operationId: 'receberEvento',
  security: [],
  description:
    'Sem Bearer. Guarda o pedido (hora, tipo, id do evento, tentativa, cabeçalhos, corpo), verifica `X-Service-Signature` com os segredos ' +
    'do webhook do canal (atual e anterior durante a rotação) e responde com o status configurado (padrão 200). Corpo até 64 KB (65.536 bytes).',
  params: TokenParams,
  consumes: ['application/json', 'text/plain', '*/*'],
  response: {
    200: Type.Object(
      { recebido: Type.Boolean() },
      { description: 'Ou o status configurado (202, 204, 400, 401, 404, 500, 502, 503).' },
    ),
    404: notFound,
    413: ErrorBody(['corpo_muito_grande'], 'Corpo acima de 64 KB.'),
    429: limited,
  },
};

/** GET /v1/sandbox/receptor/:token/eventos/:id/corpo */
export const eventBodySchema = {
  tags: ['Sandbox'],
  summary: 'Obter o corpo exato de um evento recebido',
  operationId: 'obterCorpoEventoReceptor',
  security: [],
  description:
    'Sem Bearer. Os bytes exatos que chegaram (até 64 KB), como `text/plain; charset=utf-8`, para ler ou copiar o corpo ' +
    'inteiro: a página de visualização mostra só uma prévia de cada corpo.',
  params: Type.Object({
    token: Type.String({ description: 'Token do receptor (prefixo `sbx_`).' }),
    id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Id do registro recebido.' }),
  }),
  response: {
    200: {
      description: 'O corpo como chegou.',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    404: ErrorBody(['nao_encontrado'], 'Receptor ou registro não encontrado (o receptor guarda só os 50 mais recentes).'),
    429: limited,
  },
};
