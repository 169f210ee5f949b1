-- Fair sharing of the delivery engine between channels (the claim is in
-- src/webhooks/delivery/attempts.ts; the rules are in docs/delivery-engine.md).
--
-- Claims now walk each channel's own due rows, oldest first: the queue index leads
-- with the channel. (The one-column index it replaces served one global "oldest due
-- first" walk, which let one channel's backlog hold every other channel back.)
drop index if exists deliveries_due;
create index deliveries_due on deliveries (channel_id, next_attempt_at) where status = 'PENDENTE';

-- Claimed rows whose lease is still running: a contained channel's one attempt at a
-- time is counted here, across every worker.
create index deliveries_leased on deliveries (channel_id, next_attempt_at) where lease_id is not null;

-- How a channel's endpoint has been answering, kept by the workers: after a run of
-- failed attempts a channel is contained (one probing attempt at a time) until an
-- attempt succeeds (src/webhooks/delivery/channel-health.ts).
create table delivery_channels (
  channel_id           uuid primary key references channels (id),
  -- timeouts and connection failures in a row (reset by any HTTP answer)
  slow_failures        integer not null default 0,
  -- failed attempts in a row, of any kind (reset by a 2xx)
  failures             integer not null default 0,
  contained_since      timestamptz,
  released_at          timestamptz,
  last_success_at      timestamptz,
  last_failure_at      timestamptz,
  last_failure_reason  text,
  updated_at           timestamptz not null
);

-- The delivery workers alive (a heartbeat every 2 s): each sends at most its share
-- of a channel's cap of attempts at once (src/webhooks/delivery/worker-registry.ts).
create table delivery_workers (
  id       uuid primary key,
  seen_at  timestamptz not null
);
