// The OpenAPI contract of the webhook routes (webhooks.routes.ts): one schema per
// route, in registration order, and the pieces they share.
import { Type } from 'typebox';
import { DateTime, ErrorBody, NO_BODY, NoContent, Uuid, bearerErrors, withHeaders } from '../http/schemas.ts';
import { PROPOSAL_EVENT_TYPES } from '../events/event-body.ts';
import { DELIVERY_STATUSES } from './deliveries.service.ts';

const NO_STORE = { 'Cache-Control': { type: 'string', enum: ['no-store'] } };

const webhookExample = {
  ambiente: 'SANDBOX',
  url: 'https://hooks.fintech.example/consigna',
  eventos: [],
  ativo: true,
  criadoEm: '2026-11-22T14:03:23.123Z',
  atualizadoEm: '2026-11-22T14:03:23.123Z',
};

/** GET /v1/webhooks only: the endpoint seen from the delivery engine. */
const Saude = Type.Object(
  {
    falhasSeguidas: Type.Integer({ minimum: 0, description: 'Tentativas seguidas que falharam (zera numa resposta 2xx).' }),
    contido: Type.Boolean({
      description: 'true depois de 3 falhas seguidas: uma tentativa por vez, 1 s entre elas, até uma resposta 2xx.',
    }),
    contidoDesde: Type.Optional(DateTime()),
    ultimoSucessoEm: Type.Optional(DateTime('Última tentativa respondida com 2xx.')),
    ultimaFalhaEm: Type.Optional(DateTime()),
    ultimaFalhaMotivo: Type.Optional(Type.String({ description: 'Tempo esgotado, conexão recusada, HTTP 500…' })),
    pendentes: Type.Integer({ minimum: 0, description: 'Entregas PENDENTE (na fila ou aguardando nova tentativa).' }),
    falhas: Type.Integer({ minimum: 0, description: 'Entregas FALHOU (podem ser reenviadas).' }),
  },
  { additionalProperties: false },
);

const Webhook = (withSecret: boolean) =>
  Type.Object(
    {
      ambiente: Type.String({ enum: ['SANDBOX', 'REAL'] }),
      url: Type.String(),
      eventos: Type.Array(Type.String(), { description: 'Tipos assinados; lista vazia = todos os estados da proposta.' }),
      ativo: Type.Boolean({ description: 'Sempre true: o serviço nunca desativa um webhook sozinho.' }),
      criadoEm: DateTime(),
      atualizadoEm: DateTime(),
      segredo: Type.Optional(
        Type.String({
          description: 'Prefixo `whsec_`. Mostrado somente no registro e na rotação; guarde-o num cofre de segredos.',
        }),
      ),
      segredoAnteriorValidoAte: Type.Optional(DateTime('Durante a rotação: até quando o segredo anterior ainda assina.')),
      saude: Type.Optional(Saude),
    },
    {
      additionalProperties: false,
      examples: [
        withSecret ? { ...webhookExample, segredo: 'whsec_5G1nVb0oYl7m3Q9sJ2xT8aZkR4cW6eH1uD0pF7yN3iM=' } : webhookExample,
      ],
    },
  );

const RegisterBody = Type.Object(
  {
    url: Type.String({
      description:
        'https, nome DNS público (sem IP, sem localhost, sem nome de um rótulo, sem .local/.internal/.localhost), sem usuário/senha, ' +
        'porta 443 ou acima de 1024, até 2.048 caracteres, sem espaços, caracteres de controle, controles de direção de texto ou UTF-16 malformado. ' +
        'A URL do receptor de testes do próprio canal é sempre aceita, escrita como for (consulta, barra final, maiúsculas no nome, `%2F`…): ' +
        'ela é reconhecida pelo token. Uma URL cujo caminho aponte para o receptor de outro canal é recusada (`url_invalida`).',
      examples: ['https://hooks.fintech.example/consigna'],
    }),
    eventos: Type.Optional(
      Type.Array(Type.String({ enum: [...PROPOSAL_EVENT_TYPES] }), {
        description: 'Tipos `proposta.*` a assinar, sem repetição; vazia ou ausente = todos. `webhook.teste` não é aceito.',
      }),
    ),
  },
  { additionalProperties: false },
);

const Delivery = Type.Object(
  {
    id: Uuid(),
    eventoId: Uuid(),
    tipo: Type.String(),
    status: Type.String({ enum: [...DELIVERY_STATUSES] }),
    tentativas: Type.Integer({
      minimum: 0,
      maximum: 7,
      description:
        'As tentativas da série atual (o limite é 7): volta a zero num reenvio manual ou na recuperação em lote. ' +
        'Todas as tentativas desde a criação estão em `tentativasTotais`.',
    }),
    tentativasTotais: Type.Integer({
      minimum: 0,
      description:
        'Todas as tentativas da entrega, somando as séries de antes de cada reenvio (manual ou em lote) e a atual; ' +
        'igual a `tentativas` enquanto a entrega nunca foi reenviada.',
    }),
    proximaTentativaEm: Type.Optional(DateTime('Somente em PENDENTE.')),
    ultimoHttpStatus: Type.Optional(Type.Integer()),
    ultimoErro: Type.Optional(
      Type.String({ description: 'Texto curto: tempo esgotado, conexão recusada, HTTP 500, endereço recusado…' }),
    ),
    ultimaLatenciaMs: Type.Optional(Type.Integer()),
    ultimaTentativaEm: Type.Optional(DateTime()),
    entregueEm: Type.Optional(DateTime()),
    criadoEm: DateTime(),
  },
  { additionalProperties: false },
);

const Attempt = Type.Object(
  {
    numero: Type.Integer({
      minimum: 1,
      maximum: 7,
      description:
        'Igual a `X-Service-Delivery-Attempt` daquela tentativa: o número dela na sua série, que recomeça em 1 a cada reenvio.',
    }),
    ordem: Type.Integer({
      minimum: 1,
      description:
        'O número da tentativa em todo o histórico da entrega, na ordem em que aconteceram, somando as séries: ' +
        'depois de sete falhas, o reenvio é a de `ordem` 8 (e `numero` 1). A mais recente tem `ordem` igual a `tentativasTotais`.',
    }),
    reenvio: Type.Integer({
      minimum: 0,
      description:
        'A série da tentativa: 0 antes de qualquer reenvio, 1 depois do primeiro reenvio (manual ou em lote), e assim por diante.',
    }),
    tentadaEm: DateTime('Quando a tentativa terminou.'),
    httpStatus: Type.Optional(
      Type.Integer({ description: 'Ausente quando não houve resposta (tempo esgotado, conexão recusada…).' }),
    ),
    latenciaMs: Type.Integer({ minimum: 0 }),
    erro: Type.Optional(Type.String({ description: 'Somente nas tentativas que falharam; o mesmo texto de `ultimoErro`.' })),
    corpoResposta: Type.Optional(
      Type.String({
        description:
          'Os primeiros 4 KiB (4.096 bytes) do corpo que o seu endpoint respondeu, como texto UTF-8 (bytes inválidos e NUL viram U+FFFD). ' +
          'Ausente quando a resposta não teve corpo.',
      }),
    ),
    corpoRespostaTruncado: Type.Boolean({
      description: 'true quando o corpo tinha mais de 4 KiB e `corpoResposta` traz só o começo.',
    }),
  },
  { additionalProperties: false },
);

const DeliveryWithAttempts = Type.Object(
  {
    ...Delivery.properties,
    historico: Type.Array(Attempt, {
      description: 'As tentativas, da mais antiga à mais recente (as 100 mais recentes, se houver mais).',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: '019a7c3e-9a1b-7c3d-8e2f-1a2b3c4d5e6f',
        eventoId: '019a7c3e-99f0-7aa1-b2c3-d4e5f6a7b8c9',
        tipo: 'proposta.aprovada',
        status: 'ENTREGUE',
        tentativas: 1,
        tentativasTotais: 3,
        ultimoHttpStatus: 200,
        ultimaLatenciaMs: 38,
        ultimaTentativaEm: '2026-11-22T15:10:02.480Z',
        entregueEm: '2026-11-22T15:10:02.480Z',
        criadoEm: '2026-11-22T14:03:23.123Z',
        historico: [
          {
            numero: 1,
            ordem: 1,
            reenvio: 0,
            tentadaEm: '2026-11-22T14:03:24.200Z',
            httpStatus: 503,
            latenciaMs: 12,
            erro: 'HTTP 503',
            corpoResposta: '{"erro":"manutenção"}',
            corpoRespostaTruncado: false,
          },
          {
            numero: 2,
            ordem: 2,
            reenvio: 0,
            tentadaEm: '2026-11-22T14:04:25.010Z',
            httpStatus: 200,
            latenciaMs: 41,
            corpoRespostaTruncado: false,
          },
          {
            numero: 1,
            ordem: 3,
            reenvio: 1,
            tentadaEm: '2026-11-22T15:10:02.480Z',
            httpStatus: 200,
            latenciaMs: 38,
            corpoRespostaTruncado: false,
          },
        ],
      },
    ],
  },
);

const noWebhook = ErrorBody(['nao_encontrado'], 'Nenhum webhook registrado para o canal.');

/** PUT /v1/webhooks */
export const registerWebhookSchema = {
  tags: ['Webhooks'],
  summary: 'Registrar ou atualizar o webhook',
  operationId: 'registrarWebhook',
  description:
    'Um webhook por canal. Criação: 201 com `segredo` (mostrado uma única vez). Atualização: 200, sem `segredo` (o segredo não muda).',
  security: [{ bearerAuth: [] }],
  body: RegisterBody,
  response: {
    201: withHeaders(Webhook(true), NO_STORE, 'Webhook criado; `segredo` aparece somente aqui.'),
    200: withHeaders(Webhook(false), {}, 'Webhook atualizado (o segredo não é mostrado de novo).'),
    400: ErrorBody(['url_invalida', 'eventos_invalidos', 'requisicao_invalida'], 'URL ou lista de eventos inválida.'),
    ...bearerErrors(),
  },
};

/** GET /v1/webhooks */
export const getWebhookSchema = {
  tags: ['Webhooks'],
  summary: 'Consultar o webhook',
  operationId: 'consultarWebhook',
  description:
    'Nunca traz o segredo. `saude` mostra como o seu endpoint tem respondido às entregas: falhas seguidas, se está contido ' +
    '(uma tentativa por vez), o último sucesso, a última falha com o motivo, e as entregas pendentes e com falha.',
  security: [{ bearerAuth: [] }],
  response: {
    200: withHeaders(Webhook(false), {}, 'O webhook do canal (nunca o segredo), com `saude`.'),
    404: noWebhook,
    ...bearerErrors(),
  },
};

/** DELETE /v1/webhooks */
export const deleteWebhookSchema = {
  tags: ['Webhooks'],
  summary: 'Remover o webhook',
  operationId: 'removerWebhook',
  description: 'Remove o webhook e suas entregas pendentes (o histórico de entregues e falhas permanece). 204 sem corpo.',
  security: [{ bearerAuth: [] }],
  response: { 204: NoContent('Removido.'), 404: noWebhook, ...bearerErrors() },
};

/** POST /v1/webhooks/segredo */
export const rotateSecretSchema = {
  tags: ['Webhooks'],
  summary: 'Rotacionar o segredo',
  operationId: 'rotacionarSegredo',
  description:
    'Gera um novo segredo (mostrado uma única vez). O anterior continua válido por 24 horas: nesse período as assinaturas trazem dois `v1`. ' +
    'Rotacionar de novo dentro da janela mantém apenas o segredo anterior mais recente.',
  security: [{ bearerAuth: [] }],
  ...NO_BODY,
  response: {
    200: withHeaders(Webhook(true), NO_STORE, 'Novo segredo e validade do anterior.'),
    404: noWebhook,
    ...bearerErrors(),
  },
};

/** POST /v1/webhooks/teste */
export const sendTestEventSchema = {
  tags: ['Webhooks'],
  summary: 'Enviar evento de teste',
  operationId: 'enviarEventoTeste',
  description:
    'Envia agora um `webhook.teste` assinado (corpo: `id`, `tipo`, `ocorridoEm`, `ambiente`, `mensagem`), fora da fila e sem novas tentativas. ' +
    '200 mesmo quando o endpoint do canal responde com erro.',
  security: [{ bearerAuth: [] }],
  ...NO_BODY,
  response: {
    200: Type.Object(
      {
        entregue: Type.Boolean(),
        httpStatus: Type.Optional(Type.Integer()),
        latenciaMs: Type.Integer(),
        erro: Type.Optional(Type.String()),
      },
      {
        additionalProperties: false,
        description: 'Resultado da entrega do evento de teste.',
        examples: [{ entregue: true, httpStatus: 200, latenciaMs: 87 }],
      },
    ),
    404: noWebhook,
    ...bearerErrors(),
  },
};

/** GET /v1/webhooks/entregas */
export const listDeliveriesSchema = {
  tags: ['Webhooks'],
  summary: 'Histórico de entregas',
  operationId: 'listarEntregas',
  description:
    'Entregas mais recentes primeiro (na ordem em que os eventos foram registrados), com a última tentativa de cada uma. ' +
    'Páginas por cursor: passe o `proximoCursor` da resposta para a página seguinte (mais antiga); com cursor, use os mesmos ' +
    'filtros da primeira página. Como em `GET /v1/eventos`, o cursor é estável enquanto entregas novas chegam. Os filtros valem juntos.',
  security: [{ bearerAuth: [] }],
  querystring: Type.Object({
    status: Type.Optional(Type.String({ enum: [...DELIVERY_STATUSES], description: 'Filtro: PENDENTE, FALHOU ou ENTREGUE.' })),
    limite: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'De 1 a 100; padrão 20.' })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: '`proximoCursor` da página anterior.' })),
    tipo: Type.Optional(Type.String({ enum: [...PROPOSAL_EVENT_TYPES], description: 'Só entregas de eventos deste tipo.' })),
    eventoId: Type.Optional(Uuid('Só a entrega deste evento.')),
    linkId: Type.Optional(Uuid('Só entregas de eventos deste link.')),
    desde: Type.Optional(DateTime('Só eventos que ocorreram a partir deste instante (inclusive).')),
    ate: Type.Optional(DateTime('Só eventos que ocorreram antes deste instante (exclusive).')),
  }),
  response: {
    200: withHeaders(
      Type.Object(
        {
          entregas: Type.Array(Delivery),
          proximoCursor: Type.Optional(Type.String({ description: 'Ausente na última página.' })),
        },
        { additionalProperties: false },
      ),
      {},
      'Entregas do canal.',
    ),
    400: ErrorBody(
      [
        'status_invalido',
        'limite_invalido',
        'cursor_invalido',
        'tipo_invalido',
        'evento_id_invalido',
        'link_id_invalido',
        'desde_invalido',
        'ate_invalido',
        'periodo_invalido',
      ],
      'Parâmetro inválido (o `code` diz qual) ou `desde` que não é anterior a `ate`.',
    ),
    404: noWebhook,
    ...bearerErrors(),
  },
};

/** GET /v1/webhooks/entregas/:id */
export const getDeliverySchema = {
  tags: ['Webhooks'],
  summary: 'Consultar uma entrega e suas tentativas',
  operationId: 'consultarEntrega',
  description:
    'A entrega com cada tentativa: número na série (`numero`) e em todo o histórico (`ordem`), série (`reenvio`), quando, ' +
    'status HTTP, latência, erro e o começo (até 4 KiB) do corpo que o seu endpoint respondeu. O corpo é guardado cortado e marcado como tal, e nunca vai para os logs. Entrega de outro canal: 404.',
  security: [{ bearerAuth: [] }],
  params: Type.Object({ id: Uuid('Id da entrega.') }),
  response: {
    200: withHeaders(DeliveryWithAttempts, {}, 'A entrega e suas tentativas.'),
    404: ErrorBody(['nao_encontrado'], 'Entrega inexistente, de outro canal, id que não é uuid, ou nenhum webhook registrado.'),
    ...bearerErrors(),
  },
};

/** POST /v1/webhooks/entregas/:id/reenviar */
export const resendDeliverySchema = {
  tags: ['Webhooks'],
  summary: 'Reenviar uma entrega',
  operationId: 'reenviarEntrega',
  description:
    'Para entregas FALHOU ou ENTREGUE: zera as tentativas, envia na hora e responde 200 com a entrega após essa tentativa. ' +
    'É uma nova série: `tentativas` e `X-Service-Delivery-Attempt` recomeçam em 1, e `tentativasTotais` segue somando. ' +
    'Entrega PENDENTE: 409 `entrega_pendente`.',
  security: [{ bearerAuth: [] }],
  ...NO_BODY,
  params: Type.Object({ id: Uuid('Id da entrega.') }),
  response: {
    200: withHeaders(Delivery, {}, 'A entrega como ficou depois da nova tentativa.'),
    404: ErrorBody(['nao_encontrado'], 'Entrega inexistente, de outro canal, id que não é uuid, ou nenhum webhook registrado.'),
    409: ErrorBody(['entrega_pendente'], 'A entrega ainda está pendente.'),
    ...bearerErrors(),
  },
};

/** POST /v1/webhooks/entregas/reenviar */
export const recoverDeliveriesSchema = {
  tags: ['Webhooks'],
  summary: 'Reenfileirar as entregas que falharam',
  operationId: 'reenfileirarEntregas',
  description:
    'Depois de um período fora do ar: todas as entregas `FALHOU` do canal (ou as de `desde`/`ate`, pela data do evento) ' +
    'voltam para a fila com as tentativas zeradas (uma nova série, como no reenvio de uma entrega), na ordem em que os eventos ocorreram, e seguem o agendamento normal ' +
    '(com o limite de requisições simultâneas ao seu endpoint). Responde quantas foram reenfileiradas. Repetir não envia ' +
    'de novo o que já está pendente. Trata centenas de milhares de entregas em lotes curtos, sem travar a API.',
  security: [{ bearerAuth: [] }],
  body: Type.Object(
    {
      status: Type.String({ enum: ['FALHOU'], description: 'Somente FALHOU.' }),
      desde: Type.Optional(DateTime('Só eventos que ocorreram a partir deste instante (inclusive).')),
      ate: Type.Optional(DateTime('Só eventos que ocorreram antes deste instante (exclusive).')),
    },
    { additionalProperties: false, examples: [{ status: 'FALHOU', desde: '2026-11-22T08:00:00Z', ate: '2026-11-22T14:00:00Z' }] },
  ),
  response: {
    200: withHeaders(
      Type.Object(
        { reenfileiradas: Type.Integer({ minimum: 0, description: 'Entregas que voltaram para a fila.' }) },
        { additionalProperties: false, examples: [{ reenfileiradas: 1843 }] },
      ),
      {},
      'Quantas entregas voltaram para a fila.',
    ),
    400: ErrorBody(
      ['status_invalido', 'desde_invalido', 'ate_invalido', 'periodo_invalido', 'requisicao_invalida'],
      '`status` que não é FALHOU, data inválida, ou `desde` que não é anterior a `ate`.',
    ),
    404: noWebhook,
    ...bearerErrors(),
  },
};
