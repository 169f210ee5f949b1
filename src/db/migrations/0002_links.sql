create table links (
  id                  uuid primary key,
  channel_id          uuid not null references channels (id),
  ambiente            text not null,
  -- keyed SHA-256 of the url token; the token itself is never stored in plaintext
  token_hash          bytea not null unique,
  cpf_sealed          bytea not null,
  cpf_hash            bytea not null,
  cpf_masked          text not null,
  celular_sealed      bytea,
  referencia_externa  text,
  status              text not null,
  expira_em           timestamptz not null,
  criado_em           timestamptz not null,
  aberto_em           timestamptz,
  updated_at          timestamptz not null
);
create index links_channel on links (channel_id, criado_em desc);
create index links_cpf on links (cpf_hash);
-- Only live links can expire; the sweeper reads this small partial index.
create index links_expiring on links (expira_em) where status in ('CRIADO', 'ABERTO', 'EM_ANDAMENTO');

-- One row per (channel, Idempotency-Key). The primary key is what makes concurrent
-- creations with one key produce one link, across every api process.
create table idempotency_keys (
  channel_id       uuid not null references channels (id),
  key              text not null,
  fingerprint      bytea not null,
  link_id          uuid not null references links (id),
  -- the creating response, url included, sealed with the master key
  response_sealed  bytea not null,
  created_at       timestamptz not null,
  primary key (channel_id, key)
);
create index idempotency_keys_age on idempotency_keys (created_at);
