// Public types of the SDK. Request and response shapes are read from openapi.d.ts,
// which is generated from the service's own OpenAPI document; only the webhook
// event bodies (not part of that document) are written by hand here.
import type { paths } from './openapi.d.ts';

type Method = 'get' | 'put' | 'post' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Responses<P extends keyof paths, M extends Method> = Operation<P, M> extends { responses: infer R } ? R : never;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** JSON body of the response `S` of `M P`. */
export type ResponseBody<P extends keyof paths, M extends Method, S extends number> = S extends keyof Responses<P, M>
  ? JsonOf<Responses<P, M>[S]>
  : never;

/** JSON body of the request of `M P`. */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

type Query<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type TokenResponse = ResponseBody<'/v1/oauth/token', 'post', 200>;
export type Ping = ResponseBody<'/v1/ping', 'get', 200>;

export type CreateLinkInput = RequestBody<'/v1/links', 'post'>;
/** Link as returned on creation (and on the idempotent replay): with `url`. */
export type CreatedLink = ResponseBody<'/v1/links', 'post', 201>;
/** Link as returned by `GET /v1/links/{id}`: never with `url`. */
export type Link = ResponseBody<'/v1/links/{id}', 'get', 200>;
export type LinkStatus = Link['status'];
export type Proposta = NonNullable<Link['proposta']>;
export type PropostaStatus = Proposta['status'];

export type ListLinksQuery = Query<'/v1/links', 'get'>;
/** A page of `GET /v1/links`: links as `GET /v1/links/{id}` shows them (never with `url`). */
export type LinkList = ResponseBody<'/v1/links', 'get', 200>;

export type FunnelQuery = Query<'/v1/relatorios/funil', 'get'>;
/** `GET /v1/relatorios/funil`: the period's counts, by São Paulo day or by reference. */
export type Funnel = ResponseBody<'/v1/relatorios/funil', 'get', 200>;
export type FunnelCounts = Funnel['total'];

export type SimulateProposalInput = RequestBody<'/v1/links/{id}/proposta/simular', 'post'>;
export type SimulatedStatus = SimulateProposalInput['status'];
export type SimulationResult = ResponseBody<'/v1/links/{id}/proposta/simular', 'post', 200>;
/** `intervaloSegundos`: 1 to 60, or null for the standard schedule. */
export type SimulateRetriesInput = RequestBody<'/v1/webhooks/retentativas/simular', 'post'>;
/** The delays before each retry now in force for the channel. */
export type RetrySchedule = ResponseBody<'/v1/webhooks/retentativas/simular', 'post', 200>;

/** `permissoes`: `['leitura']` (read-only) or `['leitura', 'escrita']` (the default). */
export type CreatePortalSessionInput = RequestBody<'/v1/portal/sessoes', 'post'>;
/** A single-use link into the channel's portal: `url` is a secret, valid until `expiraEm`. */
export type PortalSession = ResponseBody<'/v1/portal/sessoes', 'post', 201>;
export type PortalPermission = PortalSession['permissoes'][number];
export type RevokedPortalSessions = ResponseBody<'/v1/portal/sessoes', 'delete', 200>;

export type PutBrandInput = RequestBody<'/v1/marca', 'put'>;
export type Brand = ResponseBody<'/v1/marca', 'get', 200>;

export type ListEventsQuery = Query<'/v1/eventos', 'get'>;
export type EventList = ResponseBody<'/v1/eventos', 'get', 200>;

export type PutWebhookInput = RequestBody<'/v1/webhooks', 'put'>;
/** Webhook on creation or rotation: `segredo` is present only then, and only once. */
export type Webhook = ResponseBody<'/v1/webhooks', 'put', 201> | ResponseBody<'/v1/webhooks', 'put', 200>;
export type WebhookWithSecret = ResponseBody<'/v1/webhooks/segredo', 'post', 200>;
export type WebhookEventType = NonNullable<PutWebhookInput['eventos']>[number];
export type TestEventResult = ResponseBody<'/v1/webhooks/teste', 'post', 200>;

export type ListDeliveriesQuery = Query<'/v1/webhooks/entregas', 'get'>;
export type DeliveryList = ResponseBody<'/v1/webhooks/entregas', 'get', 200>;
export type Delivery = DeliveryList['entregas'][number];
export type DeliveryStatus = Delivery['status'];
/** `GET /v1/webhooks/entregas/{id}`: the delivery and its attempts (`historico`). */
export type DeliveryWithAttempts = ResponseBody<'/v1/webhooks/entregas/{id}', 'get', 200>;
export type DeliveryAttempt = DeliveryWithAttempts['historico'][number];

export type RecoverDeliveriesInput = RequestBody<'/v1/webhooks/entregas/reenviar', 'post'>;
export type RecoveryResult = ResponseBody<'/v1/webhooks/entregas/reenviar', 'post', 200>;

export type EnsureInboxInput = RequestBody<'/v1/sandbox/receptor', 'put'>;
export type Inbox = ResponseBody<'/v1/sandbox/receptor', 'put', 200>;
export type InboxResponderStatus = RequestBody<'/v1/sandbox/receptor/{token}/modo', 'put'>['responderStatus'];
export type InboxEvents = ResponseBody<'/v1/sandbox/receptor/{token}/eventos', 'get', 200>;
export type InboxEvent = InboxEvents['eventos'][number];

// Every error body the contract documents, gathered from all operations.
type AllOperations = { [P in keyof paths]: { [M in Method]: NonNullable<paths[P][M]> }[Method] }[keyof paths];
type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503;
type ErrorBodies<O> = O extends { responses: infer R }
  ? { [S in keyof R & ErrorStatus]: JsonOf<R[S]> }[keyof R & ErrorStatus]
  : never;
type AllErrorBodies = ErrorBodies<AllOperations>;

/** Every `code` of the standard error body (`{ code, message, requestId }`) in the contract. */
export type ConsignaErrorCode = Extract<AllErrorBodies, { code: string }>['code'];
/** Every OAuth `error` of the token endpoint (`{ error, error_description, requestId }`). */
export type OAuthErrorCode = Extract<AllErrorBodies, { error: string }>['error'];

// ---- Webhook events (body of each POST the service sends) ----

export type Ambiente = 'SANDBOX' | 'REAL';

export interface EventLink {
  id: string;
  /** `null` when the link was created without one. */
  referenciaExterna: string | null;
}

export interface EventProposta {
  numero: number;
  status: PropostaStatus;
  /** BRL, two decimals. */
  valor: number;
  parcelas: number;
  valorParcela: number;
}

interface EventBase {
  /** Event id: the same on every attempt; deduplicate by it. */
  id: string;
  /** ISO 8601 UTC; order events by it. */
  ocorridoEm: string;
  ambiente: Ambiente;
}

export interface ProposalEvent extends EventBase {
  tipo: Exclude<WebhookEventType, 'proposta.falha'>;
  link: EventLink;
  proposta: EventProposta;
}

/** The bank refused the creation: there is no proposal yet, and the customer may try again. */
export interface ProposalFailureEvent extends EventBase {
  tipo: 'proposta.falha';
  link: EventLink;
  proposta: Pick<EventProposta, 'valor' | 'parcelas' | 'valorParcela'>;
  /** Short pt-BR text. */
  motivo: string;
}

/** Sent only by `POST /v1/webhooks/teste`. */
export interface TestEvent extends EventBase {
  tipo: 'webhook.teste';
  mensagem: string;
}

export type ConsignaEvent = ProposalEvent | ProposalFailureEvent | TestEvent;
/** What GET /v1/eventos lists: every proposal event (the test event is never recorded). */
export type StoredEvent = ProposalEvent | ProposalFailureEvent;
export type ConsignaEventType = ConsignaEvent['tipo'];
