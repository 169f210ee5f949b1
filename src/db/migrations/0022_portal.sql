-- The channel portal (src/portal, docs/rules.md §10): the
-- channel's staff enter by a single-use link and stay in by a session cookie. Both
-- tokens are stored only as keyed hashes, like access tokens.

-- Single-use entry links (POST /v1/portal/sessoes, `consigna channels portal`): valid
-- 10 minutes, used once (used_at), deleted when the channel revokes its sessions.
create table portal_links (
  token_hash  bytea primary key,
  channel_id  uuid not null references channels (id),
  permissoes  text[] not null,
  created_at  timestamptz not null,
  expires_at  timestamptz not null,
  used_at     timestamptz
);
create index portal_links_channel on portal_links (channel_id) where used_at is null;
create index portal_links_expiry on portal_links (expires_at);

-- Sessions: the cookie's token hash; ended by "Sair", by the channel (DELETE
-- /v1/portal/sessoes) or by deactivating the channel (ended_at), or by time.
create table portal_sessions (
  id          uuid primary key,
  token_hash  bytea not null unique,
  channel_id  uuid not null references channels (id),
  permissoes  text[] not null,
  created_at  timestamptz not null,
  expires_at  timestamptz not null,
  ended_at    timestamptz
);
create index portal_sessions_channel on portal_sessions (channel_id) where ended_at is null;
create index portal_sessions_expiry on portal_sessions (expires_at);

-- What a session changed, shown on the page of the thing changed ("Alterações
-- recentes"). No personal data: the session's id, a stable action code and the target's
-- kind and id. No foreign key to the session: the record outlives it.
create table portal_changes (
  id          uuid primary key,
  channel_id  uuid not null references channels (id),
  session_id  uuid not null,
  acao        text not null,
  alvo_tipo   text not null,
  alvo_id     text not null,
  criado_em   timestamptz not null
);
create index portal_changes_target on portal_changes (channel_id, alvo_tipo, alvo_id, criado_em desc);
create index portal_changes_age on portal_changes (criado_em);
