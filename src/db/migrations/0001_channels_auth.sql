-- Channels, their credentials and the access tokens they obtain.
create table channels (
  id             uuid primary key,
  name           text not null,
  client_id      text not null unique,
  -- keyed SHA-256 of the client secret; the secret itself is shown once and never stored
  secret_hash    bytea not null,
  active         boolean not null default true,
  allowed_cidrs  text[] not null default '{}',
  created_at     timestamptz not null,
  updated_at     timestamptz not null
);

create table access_tokens (
  token_hash  bytea primary key,
  channel_id  uuid not null references channels (id) on delete cascade,
  expires_at  timestamptz not null
);
create index access_tokens_channel on access_tokens (channel_id);
create index access_tokens_expiry on access_tokens (expires_at);

-- Brute-force guard of the token endpoint, shared by every api process.
-- scope is 'client' (a client_id as sent) or 'ip'.
create table auth_failures (
  scope          text not null,
  key            text not null,
  window_start   timestamptz not null,
  failures       integer not null,
  blocked_until  timestamptz,
  primary key (scope, key)
);

-- Small facts about this installation (for example: the demo channel was created).
create table settings (
  key    text primary key,
  value  text not null
);
