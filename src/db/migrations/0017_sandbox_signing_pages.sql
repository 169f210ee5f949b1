-- The sandbox's fictitious signing page is reached by an unguessable token, not by the
-- proposal number (numbers are sequential: the page told anyone which channel held which
-- proposal). One row per signing link issued, found by the keyed hash of its token
-- (src/bank/sandbox-signing.ts); erased with the link's personal data.
create table sandbox_signing_pages (
  token_hash  bytea primary key,
  numero      integer not null references proposals (numero),
  criado_em   timestamptz not null default now()
);
create index sandbox_signing_pages_numero on sandbox_signing_pages (numero);

-- The signing link shown again on the customer's result page, sealed now that it carries
-- a token; `signing_url` keeps what earlier versions stored in the clear (number-only
-- links, which the signing page no longer answers).
alter table journeys add column signing_url_sealed bytea;
