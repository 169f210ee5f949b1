// Errors are values with a stable `code`. The HTTP layer maps them in one place
// (src/http/error-handler.ts); domain code never builds a response itself.

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Token endpoint errors use the OAuth body (`error`, `error_description`). */
  readonly oauth: boolean;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { headers?: Record<string, string>; oauth?: boolean } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    this.oauth = options.oauth ?? false;
  }
}

export const notFound = (message = 'Recurso não encontrado.'): AppError => new AppError(404, 'nao_encontrado', message);

export const badRequest = (code: string, message: string): AppError => new AppError(400, code, message);

export const conflict = (code: string, message: string): AppError => new AppError(409, code, message);

export const dbUnavailable = (): AppError =>
  new AppError(503, 'db_unavailable', 'Banco de dados indisponível no momento. Tente novamente em instantes.', {
    headers: { 'retry-after': '5' },
  });

export const tooManyRequests = (retryAfterSeconds: number, headers: Record<string, string> = {}): AppError =>
  new AppError(429, 'limite_excedido', 'Limite de requisições excedido. Aguarde e tente novamente.', {
    headers: { 'retry-after': String(retryAfterSeconds), ...headers },
  });

/** The process is past a shared budget (event loop, memory, streams): the caller retries later. */
export const overloaded = (retryAfterSeconds: number): AppError =>
  new AppError(503, 'servico_sobrecarregado', 'Serviço sobrecarregado no momento. Tente novamente em instantes.', {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
