-- The customer's hosted journey (issue 18): the channel's brand, a way back, consent on record.

-- A channel's brand on the pages we host for it (src/brand). The logo is served from
-- here by its content hash (/marca/logo/{hash}): cacheable for good, never guessable
-- from the channel.
create table channel_brands (
  channel_id   uuid primary key references channels (id),
  nome         text not null,
  -- '#rrggbb' as the channel sent it; the pages use it darkened when it is not readable
  cor          text,
  logo         bytea,
  logo_type    text,
  logo_hash    text,
  logo_width   integer,
  logo_height  integer,
  updated_at   timestamptz not null
);
create index channel_brands_logo on channel_brands (logo_hash) where logo_hash is not null;

-- Where the final pages send the customer back to (POST /v1/links `urlRetorno`).
alter table links add column return_url text;

-- The customer's authorisation of the bank query (the consent step): the text's
-- version and the time stay; the IP and user agent are sealed personal data, erased
-- with the rest (src/links/personal-data.ts).
alter table journeys add column consent_version text;
alter table journeys add column consent_at timestamptz;
alter table journeys add column consent_sealed bytea;
