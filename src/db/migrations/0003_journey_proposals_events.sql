-- The hosted journey's state, one row per link: any api process can serve the next
-- step, and a customer who closes the page comes back to the same step.
create table journeys (
  link_id          uuid primary key references links (id),
  step             text not null,
  celular_sealed   bytea,
  code_attempts    integer not null default 0,
  code_sent_at     timestamptz,
  offers           jsonb,
  chosen_offer_id  text,
  -- name, birth date, e-mail and Pix key, sealed as one JSON document
  customer_sealed  bytea,
  end_reason       text,
  last_failure     text,
  signing_url      text,
  updated_at       timestamptz not null
);

-- Proposal numbers are ours: positive, unique in the service, and not guessable
-- from a link id.
create sequence proposal_numero_seq as integer start with 100001;

create table proposals (
  numero                integer primary key default nextval('proposal_numero_seq'),
  link_id               uuid not null unique references links (id),
  channel_id            uuid not null references channels (id),
  status                text not null,
  valor_centavos        integer not null,
  parcelas              integer not null,
  valor_parcela_centavos integer not null,
  criada_em             timestamptz not null,
  updated_at            timestamptz not null
);

-- The outbox: every proposal change writes its event here in the same transaction.
-- `payload` is the exact JSON text that is signed and sent (jsonb would reorder it).
create table events (
  id           uuid primary key,
  channel_id   uuid not null references channels (id),
  link_id      uuid references links (id),
  tipo         text not null,
  payload      text not null,
  ocorrido_em  timestamptz not null
);
create index events_channel on events (channel_id, ocorrido_em desc);
create index events_link on events (link_id);
