// The OpenAPI contract of the token route (token.routes.ts) and the pieces it uses.
import { Type } from 'typebox';
import { OAuthErrorBody, RETRY_AFTER_HEADER, withHeaders } from '../http/schemas.ts';

export const FORM = 'application/x-www-form-urlencoded';

const TokenForm = Type.Object(
  {
    grant_type: Type.Optional(
      Type.String({ description: 'Obrigatório; valor `client_credentials`.', examples: ['client_credentials'] }),
    ),
    client_id: Type.Optional(Type.String({ description: 'Somente sem o cabeçalho Basic.' })),
    client_secret: Type.Optional(Type.String({ description: 'Somente sem o cabeçalho Basic.' })),
  },
  { additionalProperties: Type.String() },
);

const TokenResponse = Type.Object(
  {
    access_token: Type.String({
      description: 'Token opaco com prefixo `cat_`.',
      examples: ['cat_3kV9xQ2mR8tL1pW7nZ4bC6dF0hJ5sY2uA9eG3iK8oM1qT7vX'],
    }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Validade em segundos (3600). Reutilize o token até expirar.', examples: [3600] }),
  },
  { additionalProperties: false },
);

const NO_STORE = { 'Cache-Control': { type: 'string', enum: ['no-store'] } };

/** POST /v1/oauth/token */
export const issueTokenSchema = {
  tags: ['Autenticação'],
  summary: 'Obter token de acesso (client credentials)',
  operationId: 'emitirToken',
  description:
    'Troca `client_id`/`client_secret` por um token Bearer válido por 3600 s. Credenciais no cabeçalho ' +
    '`Authorization: Basic base64(client_id:client_secret)` (recomendado) ou no corpo, nunca nos dois. ' +
    'Cliente desconhecido, segredo errado, canal inativo e IP não permitido recebem a mesma resposta 401 ' +
    '`invalid_client`. Após 10 falhas para um `client_id` (ou 30 de um IP) em 15 minutos, o `client_id` ' +
    '(ou IP) fica bloqueado por 15 minutos: 429 `too_many_attempts` com `Retry-After`, mesmo com credenciais corretas.',
  // as const: otherwise the empty requirement `{}` widens to `{ basicAuth?: undefined }`, which FastifySchema refuses.
  security: [{ basicAuth: [] }, {}] as const,
  consumes: [FORM],
  body: TokenForm,
  response: {
    200: withHeaders(TokenResponse, { ...NO_STORE, Pragma: { type: 'string', enum: ['no-cache'] } }, 'Token emitido.'),
    400: OAuthErrorBody(
      ['invalid_request', 'unsupported_grant_type'],
      'Requisição de token inválida (corpo não é form, parâmetro repetido, grant_type ausente ou diferente de client_credentials, credenciais no cabeçalho e no corpo ao mesmo tempo, client_id ou client_secret malformado: caractere de controle ou mais de 256 caracteres). Não conta para o bloqueio.',
    ),
    401: OAuthErrorBody(
      ['invalid_client'],
      'Autenticação do cliente falhou (RFC 6749 §5.2): credenciais ausentes ou incompletas, cabeçalho Authorization de outro esquema ou malformado, cliente desconhecido, segredo errado, canal inativo ou IP não permitido. Traz `WWW-Authenticate: Basic realm="consigna"` quando não houve credenciais ou quando vieram no cabeçalho.',
      {
        'WWW-Authenticate': { type: 'string' },
      },
    ),
    413: OAuthErrorBody(['invalid_request'], 'Corpo acima de 4 KB.'),
    429: OAuthErrorBody(['too_many_attempts'], 'Bloqueio temporário após muitas tentativas inválidas.', RETRY_AFTER_HEADER),
    503: OAuthErrorBody(
      ['temporarily_unavailable'],
      'Dependência indisponível (banco de dados); tente novamente.',
      RETRY_AFTER_HEADER,
    ),
  },
};
