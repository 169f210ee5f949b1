// @consigna/sdk: the Consigna API client and webhook verification for Node.js.
export { Consigna, inboxToken } from './client.ts';
export type { CallOptions, ConsignaOptions, CreateLinkOptions, RetryInfo } from './client.ts';
export { ConsignaConnectionError, ConsignaError, ConsignaOAuthError, WebhookSignatureError } from './errors.ts';
export type { ConsignaErrorInit, WebhookSignatureReason } from './errors.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  RawBodyError,
  SIGNATURE_HEADER,
  createWebhookHandler,
  readRawBody,
  verifyWebhook,
} from './webhooks.ts';
export type { DeliveryInfo, ReadRawBodyOptions, VerifyOptions, WebhookHandlerOptions } from './webhooks.ts';
export type * from './types.ts';
export type { paths } from './openapi.d.ts';
export { forward, forwardLine, listen, recordedAnswer, serverSentEvents, signatureWarning } from './listen.ts';
export type { ForwardResult, ListenOptions, Listening, StreamedEvent } from './listen.ts';
