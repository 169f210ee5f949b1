// The one place where errors become HTTP answers. 5xx answers never carry internals.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, dbUnavailable } from '../errors.ts';
import { isDbUnavailable } from '../db/unavailable.ts';
import { messageFor } from '../text/messages.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Maps a body/query field to the error code of its 400 (docs/rules.md §8). */
    fieldCodes?: Record<string, string>;
    /** The message of a field's 400 when its code's usual one does not fit this route. */
    fieldMessages?: Record<string, string>;
    /** Errors of this route use the OAuth body (token endpoint). */
    oauth?: boolean;
  }
}

// The token endpoint takes a form (RFC 6749), not JSON: its body errors say so.
const OAUTH_FORM =
  'Envie o corpo como application/x-www-form-urlencoded com grant_type=client_credentials (e client_id e client_secret, se não usar Basic).';

type AjvError = { instancePath: string; keyword: string; params: Record<string, unknown> };

export function toAppError(error: FastifyError | AppError | Error, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  const config = request.routeOptions.config;
  const fastifyError = error as FastifyError & { validation?: AjvError[]; validationContext?: string };

  if (fastifyError.validation) {
    if (fastifyError.validationContext === 'params') return new AppError(404, 'nao_encontrado', 'Recurso não encontrado.');
    const first = fastifyError.validation[0];
    const field = first ? fieldOf(first) : undefined;
    const code = (field && config.fieldCodes?.[field]) ?? 'requisicao_invalida';
    const message =
      code !== 'requisicao_invalida'
        ? ((field && config.fieldMessages?.[field]) ?? messageFor(code))
        : config.oauth && fastifyError.validationContext === 'body'
          ? OAUTH_FORM
          : describe(first, fastifyError.validationContext);
    return new AppError(400, code, message);
  }
  // Before the database check: a client's dropped connection is also an ECONNRESET.
  if (isClientAbort(error, request)) return new AppError(400, 'requisicao_invalida', 'Requisição interrompida pelo cliente.');
  if (isDbUnavailable(error)) return dbUnavailable();

  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'corpo_muito_grande', 'Corpo da requisição acima do limite permitido.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        400,
        'requisicao_invalida',
        config.oauth ? OAUTH_FORM : 'Tipo de conteúdo não suportado: envie application/json.',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'requisicao_invalida', 'Corpo JSON vazio.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(400, 'requisicao_invalida', 'Corpo não é um JSON válido.');
  }
  if (error instanceof SyntaxError || fastifyError.code?.startsWith('FST_ERR_CTP')) {
    return new AppError(400, 'requisicao_invalida', 'Corpo da requisição inválido.');
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return new AppError(status, 'requisicao_invalida', 'Requisição inválida.');
  }
  return new AppError(500, 'erro_interno', 'Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.');
}

/** The client closed the connection before its body had arrived (nothing of ours failed). */
function isClientAbort(error: Error, request: FastifyRequest): boolean {
  return (error as { code?: string }).code === 'ECONNRESET' && (request.raw.readableAborted || request.raw.destroyed);
}

/** toAppError, with the log line each kind of failure deserves. */
export function reportError(error: Error, request: FastifyRequest): AppError {
  const appError = toAppError(error, request);
  if (appError.status >= 500 && appError.code === 'erro_interno') {
    request.log.error({ err: error, route: request.routeOptions.url }, 'unexpected error');
  } else if (appError.code === 'db_unavailable') {
    request.log.warn({ err: { message: error.message } }, 'database unavailable');
  } else if (isClientAbort(error, request)) {
    request.log.info({ route: request.routeOptions.url }, 'client closed the connection before sending the whole body');
  }
  return appError;
}

function fieldOf(error: AjvError): string | undefined {
  if (error.keyword === 'required') return String(error.params.missingProperty);
  const segment = error.instancePath.split('/')[1];
  // instancePath is a JSON Pointer: ~1 and ~0 escape '/' and '~' (no %-encoding).
  return segment === undefined || segment === '' ? undefined : segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function describe(error: AjvError | undefined, context: string | undefined): string {
  if (!error) return 'Requisição inválida.';
  if (error.keyword === 'additionalProperties') {
    return `Campo não permitido: ${String(error.params.additionalProperty)}.`;
  }
  if (error.instancePath === '' && error.keyword === 'type') {
    return context === 'body' ? 'O corpo deve ser um objeto JSON.' : 'Requisição inválida.';
  }
  const field = fieldOf(error);
  return field ? `Campo inválido: ${field}.` : 'Requisição inválida.';
}

const OAUTH_CODES: Record<string, string> = {
  db_unavailable: 'temporarily_unavailable',
  erro_interno: 'server_error',
};

export function sendError(error: AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.code(error.status).headers(error.headers);
  if (request.routeOptions.config.oauth) {
    const code = error.oauth ? error.code : (OAUTH_CODES[error.code] ?? 'invalid_request');
    return reply.send({ error: code, error_description: error.message, requestId: request.id });
  }
  return reply.send({ code: error.code, message: error.message, requestId: request.id });
}

/** Title and text of an HTML error page (hosted journey, inbox viewer) for an error. */
export function pageTextFor(error: AppError, requestId: string): { title: string; text: string } {
  if (error.code === 'db_unavailable') return { title: 'Serviço indisponível', text: 'Tente novamente em instantes.' };
  if (error.code === 'servico_sobrecarregado') {
    return { title: 'Serviço ocupado', text: 'Muita coisa ao mesmo tempo agora. Tente novamente em alguns segundos.' };
  }
  if (error.status >= 500) {
    return { title: 'Algo deu errado', text: `Tente novamente. Se o problema continuar, informe o código ${requestId}.` };
  }
  if (error.status === 413) return { title: 'Dados grandes demais', text: 'Volte, confira os dados e tente novamente.' };
  if (error.status === 429) return { title: 'Muitas requisições', text: 'Aguarde alguns segundos e tente novamente.' };
  return { title: 'Requisição inválida', text: 'Volte e tente novamente.' };
}
