-- Nothing looks deliveries up by event (events are never deleted, and every read goes
-- by channel or by id), yet each of the two updates a delivery goes through (claim,
-- then result) inserted an entry into this index: measured draining 60,000 queued
-- deliveries, claim and record cost 13 % less PostgreSQL CPU without it.
drop index if exists deliveries_event;
