// The OpenAPI contract of the link routes (links.routes.ts): one schema per route,
// in registration order, and the pieces they share.
import { Type } from 'typebox';
import { DateTime, ErrorBody, RETRY_AFTER_HEADER, Uuid, bearerErrors, withHeaders } from '../http/schemas.ts';
import { PROPOSAL_STATUSES } from '../db/tables.ts';
import { LINK_STATUSES } from './link-states.ts';

const LINK_STATUS = [...LINK_STATUSES];
const PROPOSTA_STATUS = [...PROPOSAL_STATUSES];

const linkProperties = {
  id: Uuid(),
  status: Type.String({
    enum: LINK_STATUS,
    description:
      'CRIADO → ABERTO (cliente abriu a URL) → EM_ANDAMENTO (celular confirmado) → CONCLUIDO (proposta criada no banco). ' +
      'CANCELADO quando a jornada termina sem proposta possível; EXPIRADO assim que `expiraEm` passa. Finais: CONCLUIDO, CANCELADO, EXPIRADO.',
  }),
  ambiente: Type.String({ enum: ['SANDBOX', 'REAL'] }),
  cpfMascarado: Type.String({ description: 'Somente os seis dígitos do meio.', examples: ['***.456.789-**'] }),
  referenciaExterna: Type.Optional(Type.String({ description: 'Referência do canal (até 100 caracteres).' })),
  urlRetorno: Type.Optional(
    Type.String({ description: 'Para onde as páginas finais levam o cliente ("Voltar para <canal>"), quando o canal informou.' }),
  ),
  expiraEm: DateTime('criadoEm + 7 dias.'),
  criadoEm: DateTime(),
};

const Proposta = Type.Object(
  {
    numero: Type.Integer({ minimum: 1 }),
    status: Type.String({ enum: PROPOSTA_STATUS }),
    criadaEm: DateTime(),
  },
  { additionalProperties: false, description: 'Presente quando o cliente já enviou a proposta.' },
);

const CreatedLink = Type.Object(
  {
    id: linkProperties.id,
    url: Type.String({
      format: 'uri',
      description:
        'URL de uso único do cliente: envie somente a ele e nunca a registre em logs. Só aparece na criação e na repetição idempotente.',
    }),
    ...Object.fromEntries(Object.entries(linkProperties).filter(([k]) => k !== 'id')),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: '01936b9e-4c7a-7d1e-9a3f-5b2c8d7e6f10',
        url: 'https://sandbox.consigna.dev/c/Qm9sYSBkZSBuZXZlIGUgdW1hIHVybCBzZWNyZXRh',
        status: 'CRIADO',
        ambiente: 'SANDBOX',
        cpfMascarado: '***.456.789-**',
        referenciaExterna: 'promotor-42',
        expiraEm: '2026-11-29T14:03:23.123Z',
        criadoEm: '2026-11-22T14:03:23.123Z',
      },
    ],
  },
);

export const Link = Type.Object(
  {
    ...linkProperties,
    abertoEm: Type.Optional(DateTime('Primeira abertura da URL pelo cliente.')),
    proposta: Type.Optional(Proposta),
    consentimento: Type.Optional(
      Type.Object(
        {
          versao: Type.String({ description: 'A versão do termo de autorização que o cliente aceitou.' }),
          concedidoEm: DateTime('Quando o cliente autorizou a consulta ao banco (antes da consulta).'),
        },
        {
          additionalProperties: false,
          description:
            'Presente quando o cliente autorizou a consulta dos dados de vínculo e margem. O IP e o navegador ficam guardados ' +
            'como evidência, selados, e nunca aparecem aqui: a operação os exporta quando necessário.',
        },
      ),
    ),
    dadosPessoaisRemovidosEm: Type.Optional(
      DateTime(
        'Quando os dados pessoais do cliente (CPF completo, celular, nome, nascimento, e-mail, chave Pix, link de assinatura) ' +
          'e o que deriva do CPF (as ofertas exibidas, o registro da Idempotency-Key) foram apagados, um prazo depois de o link terminar (LGPD). ' +
          'Ficam o CPF mascarado, os status e a proposta.',
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: '01936b9e-4c7a-7d1e-9a3f-5b2c8d7e6f10',
        status: 'CONCLUIDO',
        ambiente: 'SANDBOX',
        cpfMascarado: '***.456.789-**',
        referenciaExterna: 'promotor-42',
        expiraEm: '2026-11-29T14:03:23.123Z',
        criadoEm: '2026-11-22T14:03:23.123Z',
        abertoEm: '2026-11-22T14:10:02.481Z',
        proposta: { numero: 100042, status: 'AGUARDANDO_FORMALIZACAO', criadaEm: '2026-11-22T14:16:40.007Z' },
      },
    ],
  },
);

const CreateLinkBody = Type.Object(
  {
    cpf: Type.String({
      description: '11 dígitos, somente números, com dígitos verificadores válidos.',
      examples: ['12345678909'],
    }),
    celular: Type.Optional(
      Type.String({ description: 'DDD válido + 9 + 8 dígitos; sugerido ao cliente para o SMS.', examples: ['11987654321'] }),
    ),
    referenciaExterna: Type.Optional(
      Type.String({
        description:
          'Referência do canal (ex.: id do promotor); até 100 caracteres, sem espaços nas pontas. Recusados (400 `requisicao_invalida`): ' +
          'caracteres de controle (U+0000–U+001F, U+007F–U+009F), U+2028, U+2029, controles de direção de texto ' +
          '(U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) e UTF-16 malformado (substituto isolado).',
        examples: ['promotor-42'],
      }),
    ),
    urlRetorno: Type.Optional(
      Type.String({
        description:
          'Opcional. Para onde levar o cliente no fim: toda página final (proposta criada, inelegível, sem oferta, link expirado ' +
          'ou encerrado) mostra "Voltar para <canal>" com este endereço. https, sem usuário e senha, até 2.048 caracteres, sem ' +
          'espaços nem caracteres de controle (400 `url_retorno_invalida`). Faz parte da Idempotency-Key: outra `urlRetorno` com ' +
          'a mesma chave é 409 `idempotency_key_conflito`.',
        examples: ['https://app.fintech.example/consignado/concluido'],
      }),
    ),
  },
  { additionalProperties: false },
);

const IDEMPOTENCY_DESCRIPTION =
  'Opcional. 8 a 100 caracteres: letras, dígitos e `_ . : -`. Guardada por 24 h por canal: a mesma chave com os mesmos ' +
  '`cpf`, `referenciaExterna` e `urlRetorno` devolve 200 com o mesmo corpo (inclusive `url`); com outros dados, 409 `idempotency_key_conflito`. ' +
  'Sem o cabeçalho, o serviço gera uma chave UUID e cada chamada cria um link. Falhas (400, 503) não guardam nada: repita com a mesma chave.';

const NO_STORE = { 'Cache-Control': { type: 'string', enum: ['no-store'] } };

/** POST /v1/links */
export const createLinkSchema = {
  tags: ['Links'],
  summary: 'Criar link de contratação',
  operationId: 'criarLink',
  description:
    'Cria um link de contratação para o CPF do cliente. Envie a `url` somente ao cliente. ' +
    'No sandbox, o CPF escolhe o cenário (veja a documentação). CPF `00000000434`: banco indisponível (503).',
  security: [{ bearerAuth: [] }],
  headers: Type.Object({
    'idempotency-key': Type.Optional(
      Type.String({
        description: IDEMPOTENCY_DESCRIPTION,
        minLength: 8,
        maxLength: 100,
        pattern: '^[A-Za-z0-9_.:-]{8,100}$',
        examples: ['pedido-2026-000123'],
      }),
    ),
  }),
  body: CreateLinkBody,
  response: {
    201: withHeaders(
      CreatedLink,
      { ...NO_STORE, Location: { type: 'string', description: '/v1/links/{id}' } },
      'Link criado (com `url`).',
    ),
    200: withHeaders(CreatedLink, NO_STORE, 'Repetição idempotente: o mesmo corpo da criação, `url` incluída.'),
    400: ErrorBody(
      ['cpf_invalido', 'celular_invalido', 'idempotency_key_invalida', 'requisicao_invalida'],
      'Campo inválido: cada campo tem seu código. Campo desconhecido, tipo errado ou corpo que não é JSON: `requisicao_invalida`.',
    ),
    409: ErrorBody(
      ['idempotency_key_conflito', 'idempotency_key_em_uso'],
      '`idempotency_key_conflito`: a chave já foi usada com outro `cpf` ou `referenciaExterna`. `idempotency_key_em_uso`: a primeira chamada com a chave ainda não terminou; repita.',
    ),
    ...bearerErrors(),
    503: ErrorBody(
      ['banco_indisponivel', 'db_unavailable'],
      'Banco parceiro (ou banco de dados) indisponível: nada foi criado; repita com a mesma Idempotency-Key após `Retry-After` segundos.',
      RETRY_AFTER_HEADER,
    ),
  },
};

/** GET /v1/links/:id */
export const getLinkSchema = {
  tags: ['Links'],
  summary: 'Consultar link e proposta',
  operationId: 'consultarLink',
  description:
    'Estado do link e da proposta, a qualquer momento. Nunca traz `url`. Link de outro canal, id inexistente ou que não é uuid: 404.',
  security: [{ bearerAuth: [] }],
  params: Type.Object({ id: Uuid('Id do link.') }),
  response: {
    200: withHeaders(Link, {}, 'O link, sem `url`, com `abertoEm` e `proposta` quando existirem.'),
    404: ErrorBody(['nao_encontrado'], 'Link inexistente, de outro canal, ou id que não é uuid.'),
    ...bearerErrors(),
  },
};

/** GET /v1/links */
export const listLinksSchema = {
  tags: ['Links'],
  summary: 'Listar os links do canal',
  operationId: 'listarLinks',
  description:
    'Os links do canal, do mais recente ao mais antigo (`criadoEm`), cada um como em `GET /v1/links/{id}`: nunca traz `url`, ' +
    'o CPF vem mascarado. Páginas por cursor, como em `GET /v1/eventos`: passe o `proximoCursor` da resposta em `cursor` para a ' +
    'página seguinte (mais antiga); sem `proximoCursor`, acabou. Links criados enquanto você pagina aparecem no topo de uma nova ' +
    'listagem e nunca deslocam, repetem ou pulam as páginas seguintes. O cursor vale só para o canal que o recebeu. Os filtros ' +
    'valem juntos; com cursor, use os mesmos filtros da primeira página.',
  security: [{ bearerAuth: [] }],
  querystring: Type.Object({
    cursor: Type.Optional(Type.String({ maxLength: 200, description: '`proximoCursor` da página anterior.' })),
    limite: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'De 1 a 100; padrão 20.' })),
    status: Type.Optional(
      Type.String({
        enum: LINK_STATUS,
        description: 'Só links neste status, como a consulta o mostra (um link vivo cujo `expiraEm` passou é `EXPIRADO`).',
      }),
    ),
    propostaStatus: Type.Optional(
      Type.String({ enum: PROPOSTA_STATUS, description: 'Só links cuja proposta está neste status.' }),
    ),
    referenciaExterna: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Só links com esta referência, exatamente como foi gravada (sem espaços nas pontas).',
        examples: ['promotor-42'],
      }),
    ),
    desde: Type.Optional(DateTime('Só links com `criadoEm` a partir deste instante (inclusive).')),
    ate: Type.Optional(DateTime('Só links com `criadoEm` antes deste instante (exclusive).')),
  }),
  response: {
    200: withHeaders(
      Type.Object(
        {
          links: Type.Array(Link),
          proximoCursor: Type.Optional(Type.String({ description: 'Ausente na última página.' })),
        },
        { additionalProperties: false },
      ),
      {},
      'Uma página de links, do mais recente ao mais antigo.',
    ),
    400: ErrorBody(
      [
        'cursor_invalido',
        'limite_invalido',
        'status_invalido',
        'proposta_status_invalido',
        'referencia_externa_invalida',
        'desde_invalido',
        'ate_invalido',
        'periodo_invalido',
      ],
      'Parâmetro inválido (o `code` diz qual), `desde` que não é anterior a `ate`, ou cursor que não veio de uma página deste canal.',
    ),
    ...bearerErrors(),
  },
};
