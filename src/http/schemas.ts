// Shared pieces of the contract: the error body, common headers and the helpers
// that declare every documented error response of a route.
import { Type, type TSchema } from 'typebox';
import { messageFor } from '../text/messages.ts';

export const DateTime = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}), examples: ['2026-11-22T14:03:23.123Z'] });

export const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

const REQUEST_ID_HEADER = {
  'X-Request-Id': { type: 'string', description: 'Identificador da requisição; repetido como `requestId` nos erros.' },
};

const RETRY_AFTER_HEADER = {
  'Retry-After': { type: 'integer', description: 'Segundos até uma nova tentativa ser aceita.' },
};

const WWW_AUTHENTICATE_HEADER = {
  'WWW-Authenticate': {
    type: 'string',
    description: 'Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`.',
  },
};

const ERROR_MESSAGES: Record<string, string> = {
  unauthorized: 'Token de acesso ausente, inválido ou expirado.',
  forbidden: 'Canal inativo ou endereço IP não autorizado.',
  db_unavailable: 'Banco de dados indisponível no momento. Tente novamente em instantes.',
  nao_encontrado: 'Recurso não encontrado.',
  limite_excedido: 'Limite de requisições excedido. Aguarde e tente novamente.',
  erro_interno: 'Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.',
  corpo_muito_grande: 'Corpo da requisição acima do limite permitido.',
  servico_sobrecarregado: 'Serviço sobrecarregado no momento. Tente novamente em instantes.',
};

/** The standard error body, with the codes this response may carry. */
export function ErrorBody(codes: string[], description: string, extraHeaders: Record<string, unknown> = {}) {
  const example = codes[0]!;
  return Type.Object(
    {
      code: Type.String({ enum: codes, description: 'Código estável para tratamento programático.' }),
      message: Type.String({ description: 'Mensagem em pt-BR.' }),
      requestId: Type.Optional(Type.String({ description: 'Igual ao cabeçalho X-Request-Id.' })),
    },
    {
      description,
      headers: { ...REQUEST_ID_HEADER, ...extraHeaders },
      examples: [
        {
          code: example,
          message: ERROR_MESSAGES[example] ?? messageFor(example),
          requestId: '0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11',
        },
      ],
    },
  );
}

export function OAuthErrorBody(codes: string[], description: string, extraHeaders: Record<string, unknown> = {}) {
  return Type.Object(
    {
      error: Type.String({ enum: codes, description: 'Código de erro OAuth 2.0 (RFC 6749 §5.2).' }),
      error_description: Type.String({ description: 'Descrição em pt-BR.' }),
      requestId: Type.String(),
    },
    { description, headers: { ...REQUEST_ID_HEADER, 'Cache-Control': { type: 'string', enum: ['no-store'] }, ...extraHeaders } },
  );
}

/** Attaches documented headers to a success body schema. */
export function withHeaders<T extends TSchema>(schema: T, headers: Record<string, unknown>, description: string): T {
  return { ...schema, description, headers: { ...REQUEST_ID_HEADER, ...headers } } as T;
}

export const NoContent = (description: string) =>
  ({ type: 'null', description, headers: REQUEST_ID_HEADER }) as unknown as TSchema;

/** Errors every Bearer endpoint can answer. */
export function bearerErrors() {
  return {
    401: ErrorBody(['unauthorized'], 'Token ausente, inválido ou expirado.', WWW_AUTHENTICATE_HEADER),
    403: ErrorBody(['forbidden'], 'Canal inativo ou IP fora da lista de IPs permitidos do canal.'),
    429: ErrorBody(['limite_excedido'], 'Limite de requisições do canal excedido.', {
      ...RETRY_AFTER_HEADER,
      'RateLimit-Limit': { type: 'integer' },
      'RateLimit-Remaining': { type: 'integer' },
      'RateLimit-Reset': { type: 'integer' },
    }),
    500: ErrorBody(['erro_interno'], 'Erro inesperado; a resposta nunca traz detalhes internos.'),
    503: ErrorBody(['db_unavailable'], 'Banco de dados indisponível; repita em instantes.', RETRY_AFTER_HEADER),
  };
}

/**
 * For an operation that takes no body ("No body" in the contract): absent, empty or `{}`
 * (for clients that send a JSON body with every POST) is accepted, and any field is
 * refused with 400 `requisicao_invalida`, as an unknown field is everywhere else. The
 * OpenAPI document shows no request body for it (openapi.ts reads `x-sem-corpo`).
 */
export const NO_BODY = { body: Type.Object({}, { additionalProperties: false }), 'x-sem-corpo': true } as const;

export { RETRY_AFTER_HEADER };
