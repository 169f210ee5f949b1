-- The sandbox test inbox: one per channel, addressed by a token in its URL.
create table inboxes (
  id                uuid primary key,
  channel_id        uuid not null unique references channels (id),
  token_hash        bytea not null unique,
  -- sealed so that PUT /v1/sandbox/receptor can give back the same URL every time
  token_sealed      bytea not null,
  responder_status  integer not null default 200,
  criado_em         timestamptz not null,
  atualizado_em     timestamptz not null
);

-- What the inbox received; only the 50 newest are kept (older ones are deleted in
-- the transaction that stores a new one).
create table inbox_events (
  id                 integer generated always as identity primary key,
  inbox_id           uuid not null references inboxes (id) on delete cascade,
  recebido_em        timestamptz not null,
  tipo               text,
  evento_id          text,
  tentativa          text,
  assinatura_valida  boolean,
  motivo             text,
  respondeu_status   integer not null,
  headers            jsonb not null,
  corpo              text not null
);
create index inbox_events_inbox on inbox_events (inbox_id, id desc);
