-- One webhook per channel. Secrets must be readable to sign, so they are sealed
-- (AES-256-GCM with the master key), never hashed.
create table webhooks (
  channel_id              uuid primary key references channels (id),
  url                     text not null,
  eventos                 text[] not null default '{}',
  secret_sealed           bytea not null,
  previous_secret_sealed  bytea,
  previous_valid_until    timestamptz,
  criado_em               timestamptz not null,
  atualizado_em           timestamptz not null
);

-- One row per (event, webhook): the delivery queue and its history at once.
-- A PENDENTE row is due when next_attempt_at has passed. Claiming a row moves
-- next_attempt_at to the end of the lease and stamps lease_id: a worker that dies
-- leaves a row that simply becomes due again, and a late result from a lost lease
-- (lease_id changed) is ignored.
create table deliveries (
  id                uuid primary key,
  event_id          uuid not null references events (id),
  channel_id        uuid not null references channels (id),
  tipo              text not null,
  status            text not null,
  tentativas        integer not null default 0,
  next_attempt_at   timestamptz,
  lease_id          uuid,
  last_http_status  integer,
  last_error        text,
  last_latency_ms   integer,
  last_attempt_at   timestamptz,
  entregue_em       timestamptz,
  criado_em         timestamptz not null
);
-- Only pending rows are in the claim index, so delivered history never slows claims.
create index deliveries_due on deliveries (next_attempt_at) where status = 'PENDENTE';
create index deliveries_channel on deliveries (channel_id, criado_em desc);
create index deliveries_event on deliveries (event_id);
