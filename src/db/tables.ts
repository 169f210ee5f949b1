// Row types of every table, as Kysely sees them. bytea comes back as Buffer from pg
// and as Uint8Array from PGlite, hence Uint8Array here.
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date, Date>;

// The values a status column may hold. The rules that move them live with their
// domain: src/links/link-states.ts, src/proposals/states.ts, and the delivery engine
// (src/webhooks/delivery/retry-policy.ts and its sql/).
export type LinkStatus = 'CRIADO' | 'ABERTO' | 'EM_ANDAMENTO' | 'CONCLUIDO' | 'CANCELADO' | 'EXPIRADO';
export const PROPOSAL_STATUSES = [
  'CRIADA',
  'AGUARDANDO_FORMALIZACAO',
  'FORMALIZADA',
  'APROVADA',
  'RECUSADA',
  'CANCELADA',
] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
export type DeliveryStatus = 'PENDENTE' | 'ENTREGUE' | 'FALHOU';

export interface ChannelsTable {
  id: string;
  name: string;
  client_id: string;
  secret_hash: Uint8Array;
  active: boolean;
  allowed_cidrs: string[];
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccessTokensTable {
  token_hash: Uint8Array;
  channel_id: string;
  expires_at: Timestamp;
}

export interface AuthFailuresTable {
  scope: 'client' | 'ip';
  key: string;
  window_start: Timestamp;
  failures: number;
  blocked_until: Timestamp | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface LinksTable {
  id: string;
  channel_id: string;
  ambiente: string;
  token_hash: Uint8Array;
  /** null once the personal data was erased (personal_data_erased_at). */
  cpf_sealed: Uint8Array | null;
  cpf_hash: Uint8Array | null;
  cpf_masked: string;
  celular_sealed: Uint8Array | null;
  referencia_externa: string | null;
  status: LinkStatus;
  expira_em: Timestamp;
  criado_em: Timestamp;
  aberto_em: Timestamp | null;
  updated_at: Timestamp;
  personal_data_erased_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  return_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** The traceparent of the span that created it (tracing on), continued by its journey. */
  trace_context: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface IdempotencyKeysTable {
  channel_id: string;
  key: string;
  fingerprint: Uint8Array;
  link_id: string;
  response_sealed: Uint8Array;
  created_at: Timestamp;
}

export interface JourneysTable {
  link_id: string;
  step: string;
  celular_sealed: Uint8Array | null;
  code_attempts: number;
  code_sent_at: Timestamp | null;
  offers: ColumnType<unknown, string | null, string | null> | null;
  chosen_offer_id: string | null;
  customer_sealed: Uint8Array | null;
  end_reason: string | null;
  last_failure: string | null;
  /** Written by earlier versions only (number-only links); see signing_url_sealed. */
  signing_url: string | null;
  /** The signing link shown on the result page, sealed to the link (it carries a token). */
  signing_url_sealed: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  updated_at: Timestamp;
  consent_version: ColumnType<string | null, string | null | undefined, string | null>;
  consent_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** {ip, userAgent} of the consent, sealed; null once erased. */
  consent_sealed: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
}

export interface ProposalsTable {
  numero: Generated<number>;
  link_id: string;
  channel_id: string;
  status: ProposalStatus;
  valor_centavos: number;
  parcelas: number;
  valor_parcela_centavos: number;
  criada_em: Timestamp;
  updated_at: Timestamp;
  /** Its link's criado_em, copied by the database on insert (the list's order: migration 0020). */
  link_criado_em: ColumnType<Date, never, never>;
}

/** The sandbox bank's signing pages: the keyed hash of each signing link's token, and its proposal. */
export interface SandboxSigningPagesTable {
  token_hash: Uint8Array;
  numero: number;
  criado_em: ColumnType<Date, Date | undefined, never>;
}

export interface EventsTable {
  id: string;
  channel_id: string;
  link_id: string | null;
  tipo: string;
  payload: string;
  ocorrido_em: Timestamp;
  /** The traceparent of the span that recorded it (tracing on), continued by its deliveries. */
  trace_context: ColumnType<string | null, string | null | undefined, string | null>;
  /** Set by the database (the writing transaction's id); read as text. */
  xid: ColumnType<string, never, never>;
}

export interface WebhooksTable {
  channel_id: string;
  url: string;
  eventos: string[];
  secret_sealed: Uint8Array;
  previous_secret_sealed: Uint8Array | null;
  previous_valid_until: Timestamp | null;
  criado_em: Timestamp;
  atualizado_em: Timestamp;
  /** Sandbox: every retry waits this many seconds instead of the standard schedule (null: the schedule). */
  intervalo_retentativa_segundos: number | null;
}

export interface ChannelBrandsTable {
  channel_id: string;
  nome: string;
  cor: string | null;
  logo: Uint8Array | null;
  logo_type: string | null;
  logo_hash: string | null;
  logo_width: number | null;
  logo_height: number | null;
  updated_at: Timestamp;
}

/** The channel portal (src/portal): entry links, sessions, and what sessions changed. */
export interface PortalLinksTable {
  token_hash: Uint8Array;
  channel_id: string;
  permissoes: string[];
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface PortalSessionsTable {
  id: string;
  token_hash: Uint8Array;
  channel_id: string;
  permissoes: string[];
  created_at: Timestamp;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
}

export interface PortalChangesTable {
  id: string;
  channel_id: string;
  session_id: string;
  acao: string;
  alvo_tipo: string;
  alvo_id: string;
  criado_em: Timestamp;
}

export interface DeliveriesTable {
  id: string;
  event_id: string;
  channel_id: string;
  tipo: string;
  status: DeliveryStatus;
  tentativas: number;
  /** The attempts of the series before the current one (0024_attempts_across_resends.sql). */
  earlier_attempts: Generated<number>;
  /** Resends and recoveries so far: the current series' number. */
  resends: Generated<number>;
  next_attempt_at: Timestamp | null;
  lease_id: string | null;
  last_http_status: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  last_attempt_at: Timestamp | null;
  entregue_em: Timestamp | null;
  criado_em: Timestamp;
}

export interface DeliveryAttemptsTable {
  delivery_id: string;
  id: Generated<string>;
  channel_id: string;
  attempt: number;
  /** The delivery's earlier_attempts and resends when the attempt was recorded. */
  earlier_attempts: Generated<number>;
  resend: Generated<number>;
  attempted_at: Timestamp;
  http_status: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string | null;
  response_truncated: boolean;
}

export interface DeliveryChannelsTable {
  channel_id: string;
  slow_failures: number;
  failures: number;
  contained_since: Timestamp | null;
  released_at: Timestamp | null;
  last_success_at: Timestamp | null;
  last_failure_at: Timestamp | null;
  last_failure_reason: string | null;
  updated_at: Timestamp;
}

export interface DeliveryWorkersTable {
  id: string;
  seen_at: Timestamp;
  /** The worker's attempt pool at its last heartbeat (attempt-pool.ts). */
  slots_busy: Generated<number>;
  slots_slow: Generated<number>;
  requests_slow: Generated<number>;
  slow_oldest_seconds: Generated<number>;
  channels_slow: Generated<number>;
}

export interface InboxesTable {
  id: string;
  channel_id: string;
  token_hash: Uint8Array;
  token_sealed: Uint8Array;
  responder_status: number;
  criado_em: Timestamp;
  atualizado_em: Timestamp;
}

export interface InboxEventsTable {
  id: Generated<number>;
  inbox_id: string;
  recebido_em: Timestamp;
  tipo: string | null;
  evento_id: string | null;
  tentativa: string | null;
  assinatura_valida: boolean | null;
  motivo: string | null;
  respondeu_status: number;
  headers: ColumnType<Record<string, string>, string, string>;
  corpo: string;
  corpo_bruto: Uint8Array | null;
}

export interface RateLimitCountersTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Generated<Date>;
}

/**
 * The funnel's counts (src/reports/), kept by the database's triggers (migrations 0020, 0023):
 * a channel's links by the São Paulo day they were created on, and their proposals.
 */
export interface LinkFunnelCounts {
  channel_id: string;
  dia: ColumnType<Date, never, never>;
  criados: number;
  abertos: number;
  criado: number;
  aberto: number;
  em_andamento: number;
  concluido: number;
  cancelado: number;
  expirado: number;
}
export interface ProposalFunnelCounts {
  channel_id: string;
  dia: ColumnType<Date, never, never>;
  criada: number;
  aguardando_formalizacao: number;
  formalizada: number;
  aprovada: number;
  recusada: number;
  cancelada: number;
}
type ByReference<T> = T & { referencia_externa: string };
/** Links created per month and reference (migration 0023): element d counts days 1 to d. */
export interface LinkFunnelReferenceMonths {
  channel_id: string;
  mes: ColumnType<Date, never, never>;
  referencia_externa: string;
  criados_ate_dia: number[];
}

export interface Tables {
  channels: ChannelsTable;
  access_tokens: AccessTokensTable;
  auth_failures: AuthFailuresTable;
  settings: SettingsTable;
  links: LinksTable;
  idempotency_keys: IdempotencyKeysTable;
  journeys: JourneysTable;
  proposals: ProposalsTable;
  sandbox_signing_pages: SandboxSigningPagesTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  deliveries: DeliveriesTable;
  channel_brands: ChannelBrandsTable;
  delivery_attempts: DeliveryAttemptsTable;
  delivery_channels: DeliveryChannelsTable;
  delivery_workers: DeliveryWorkersTable;
  inboxes: InboxesTable;
  inbox_events: InboxEventsTable;
  rate_limit_counters: RateLimitCountersTable;
  schema_migrations: SchemaMigrationsTable;
  link_funnel_days: LinkFunnelCounts;
  link_funnel_references: ByReference<LinkFunnelCounts>;
  link_funnel_reference_months: LinkFunnelReferenceMonths;
  proposal_funnel_days: ProposalFunnelCounts;
  proposal_funnel_references: ByReference<ProposalFunnelCounts>;
  portal_links: PortalLinksTable;
  portal_sessions: PortalSessionsTable;
  portal_changes: PortalChangesTable;
}
