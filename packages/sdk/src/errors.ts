// Errors the SDK throws. Every HTTP error answer becomes a ConsignaError (the
// token endpoint's OAuth answers a ConsignaOAuthError, which is one too); a request
// that never got an answer becomes a ConsignaConnectionError.
import type { ConsignaErrorCode, OAuthErrorCode } from './types.ts';

export interface ConsignaErrorInit {
  status: number;
  code: string;
  message: string;
  requestId?: string | undefined;
  retryAfter?: number | undefined;
  idempotencyKey?: string | undefined;
  attempts?: number;
  body?: unknown;
}

/** The service answered with an error (`{ code, message, requestId }`). */
export class ConsignaError extends Error {
  override readonly name: string = 'ConsignaError';
  /** HTTP status. */
  readonly status: number;
  /** Stable code for programmatic handling (`cpf_invalido`, `nao_encontrado`…). Codes added later arrive as plain strings. */
  readonly code: ConsignaErrorCode | OAuthErrorCode | (string & {});
  /** Equal to the `X-Request-Id` header: give it to support. */
  readonly requestId: string | undefined;
  /** Seconds from `Retry-After`, when the answer had it (429, 503). */
  readonly retryAfter: number | undefined;
  /** The `Idempotency-Key` sent (link creation): repeat later with the same one. */
  readonly idempotencyKey: string | undefined;
  /** How many requests were made, retries included. */
  readonly attempts: number;
  /** The parsed error body as received. */
  readonly body: unknown;

  constructor(init: ConsignaErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.idempotencyKey = init.idempotencyKey;
    this.attempts = init.attempts ?? 1;
    this.body = init.body;
  }
}

/** The token endpoint refused (`invalid_client`, `too_many_attempts`…). `code` equals `error`. */
export class ConsignaOAuthError extends ConsignaError {
  override readonly name: string = 'ConsignaOAuthError';
  /** OAuth 2.0 error code (RFC 6749 §5.2). */
  readonly error: OAuthErrorCode | (string & {});
  readonly errorDescription: string;

  constructor(init: ConsignaErrorInit & { errorDescription: string }) {
    super(init);
    this.error = init.code;
    this.errorDescription = init.errorDescription;
  }
}

/** No answer: connection refused or dropped, DNS failure, timeout. Retries (when allowed) were exhausted. */
export class ConsignaConnectionError extends Error {
  override readonly name: string = 'ConsignaConnectionError';
  readonly idempotencyKey: string | undefined;
  readonly attempts: number;

  constructor(message: string, options: { cause: unknown; idempotencyKey?: string | undefined; attempts: number }) {
    super(message, { cause: options.cause });
    this.idempotencyKey = options.idempotencyKey;
    this.attempts = options.attempts;
  }
}

export type WebhookSignatureReason =
  'missing_header' | 'malformed_header' | 'timestamp_outside_tolerance' | 'no_matching_signature';

/** A webhook failed verification; `reason` says why. */
export class WebhookSignatureError extends Error {
  override readonly name: string = 'WebhookSignatureError';
  readonly reason: WebhookSignatureReason;
  /** Suggested answer to the sender: 400 for a missing or malformed header, 401 otherwise. */
  readonly status: 400 | 401;

  constructor(reason: WebhookSignatureReason, message: string) {
    super(message);
    this.reason = reason;
    this.status = reason === 'missing_header' || reason === 'malformed_header' ? 400 : 401;
  }
}
