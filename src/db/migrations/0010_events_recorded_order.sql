-- The order events were recorded in, for GET /v1/eventos (docs/rules.md §4): the id of
-- the transaction that wrote each one. A reader lists only events whose transaction is
-- older than every transaction still running (pg_snapshot_xmin), so an event that
-- commits late can never land behind a page already read: paging back never skips,
-- and whatever commits later shows up at the head. xid8 never wraps around.
-- Rows written before this column existed read '0' (a constant default: no table
-- rewrite) and sort as the oldest, by id.
alter table events add column xid xid8 not null default '0';
alter table events alter column xid set default pg_current_xact_id();
create index events_recorded on events (channel_id, xid desc, id desc);
