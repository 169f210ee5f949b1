// The OpenAPI contract of /v1/portal/sessoes (sessions.routes.ts).
import { Type } from 'typebox';
import { DateTime, ErrorBody, bearerErrors, withHeaders } from '../http/schemas.ts';
import { PERMISSOES, PORTAL_LINK_TTL_SECONDS, PORTAL_SESSION_TTL_SECONDS } from './sessions.service.ts';

const Permissoes = Type.Array(Type.String({ enum: [...PERMISSOES] }), {
  minItems: 1,
  maxItems: PERMISSOES.length,
  uniqueItems: true,
  description:
    '`["leitura"]`: a sessão vê tudo e não altera nada. `["leitura", "escrita"]` (o padrão): também altera ' +
    '(webhook, marca, reenvios). `leitura` sempre; `escrita` sozinha é inválida.',
});

/** POST /v1/portal/sessoes */
export const createPortalSessionSchema = {
  tags: ['Portal'],
  summary: 'Criar um link de acesso ao portal',
  operationId: 'criarSessaoPortal',
  description:
    `Um link de uso único, válido por ${PORTAL_LINK_TTL_SECONDS / 60} minutos, para a equipe do canal entrar no portal ` +
    `(funil, links, webhooks, marca). Aberto no navegador, mostra o botão **Entrar no portal**; ao entrar, começa uma sessão de ` +
    `até ${PORTAL_SESSION_TTL_SECONDS / 3600} horas, encerrada por **Sair**, por \`DELETE /v1/portal/sessoes\` ou ao desativar ` +
    'o canal. A `url` é um segredo: entregue-a só a quem vai usá-la; ela nunca é mostrada de novo.',
  security: [{ bearerAuth: [] }],
  body: Type.Object(
    { permissoes: Type.Optional(Permissoes) },
    { additionalProperties: false, description: 'Opcional: sem corpo, acesso completo (leitura e escrita).' },
  ),
  'x-corpo-opcional': true,
  response: {
    201: withHeaders(
      Type.Object(
        {
          url: Type.String({ format: 'uri', description: 'O link de acesso, de uso único: `{base_url}/portal/entrar/{token}`.' }),
          expiraEm: DateTime('Até quando o link pode ser usado.'),
          permissoes: Permissoes,
        },
        {
          additionalProperties: false,
          examples: [
            {
              url: 'https://sandbox.consigna.example/portal/entrar/8fKq2LmZr4TxW9bNc1VdYh6PsJ0aEuGo3iRkQ7nMtBy',
              expiraEm: '2026-11-22T14:13:23.123Z',
              permissoes: ['leitura', 'escrita'],
            },
          ],
        },
      ),
      {},
      'Link de acesso criado.',
    ),
    400: ErrorBody(['permissoes_invalidas', 'requisicao_invalida'], '`permissoes` inválidas, ou corpo inválido.'),
    ...bearerErrors(),
  },
};

/** DELETE /v1/portal/sessoes */
export const revokePortalSessionsSchema = {
  tags: ['Portal'],
  summary: 'Encerrar todas as sessões do portal',
  operationId: 'encerrarSessoesPortal',
  description:
    'Encerra na hora todas as sessões do portal do canal; os links de acesso ainda não usados deixam de valer. ' +
    'Quem estiver no portal vê "Sessão encerrada" na próxima página.',
  security: [{ bearerAuth: [] }],
  response: {
    200: withHeaders(
      Type.Object(
        { encerradas: Type.Integer({ minimum: 0, description: 'Quantas sessões ativas foram encerradas.' }) },
        { additionalProperties: false, examples: [{ encerradas: 2 }] },
      ),
      {},
      'Sessões encerradas.',
    ),
    ...bearerErrors(),
  },
};
