-- Every attempt of every delivery, for GET /v1/webhooks/entregas/{id} (docs/rules.md §5):
-- written in the same statement that records the attempt on its delivery (see
-- resultsRecorded in src/webhooks/delivery/attempts.ts), so the history and the
-- delivery never disagree. The answer's body is kept up to 4 KiB, marked when cut.
--
-- No foreign key to deliveries: each insert would probe deliveries' primary key on the
-- delivery engine's hot path, and the only writer is that statement, which takes the
-- delivery from the row it has just updated. Retention removes a delivery's attempts
-- with the delivery (src/retention).
-- The primary key leads with the delivery: a delivery's history is one index range,
-- and its removal one more.
create table delivery_attempts (
  delivery_id         uuid not null,
  id                  bigint generated always as identity,
  channel_id          uuid not null,
  attempt             integer not null,
  attempted_at        timestamptz not null,
  http_status         integer,
  latency_ms          integer not null,
  error               text,
  response_body       text,
  response_truncated  boolean not null default false,
  primary key (delivery_id, id)
);
