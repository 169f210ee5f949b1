-- Retention (docs/operations.md "Retention"; the sweeper runs it: src/sweeper/sweeper.ts).

-- The delivery history is removed event by event, with each event's delivery in the
-- same statement (src/events/events.retention.ts). This foreign key made each removed
-- event look for deliveries that still point at it, by event_id, which no index serves
-- (0007 dropped it from the engine's hot path): a full scan of deliveries per event.
-- The outbox writes an event and its delivery in one transaction, and retention removes
-- them together, which is what the key guarded.
alter table deliveries drop constraint if exists deliveries_event_id_fkey;

-- LGPD minimisation (src/links/personal-data.ts): a set time after a link is final its
-- personal data is erased, and the erasure stamped.
alter table links alter column cpf_sealed drop not null;
alter table links alter column cpf_hash drop not null;
alter table links add column personal_data_erased_at timestamptz;
-- Final links not yet erased, by their last change: what the sweeper looks for.
create index links_personal_data_due on links (updated_at)
  where personal_data_erased_at is null and status in ('CONCLUIDO', 'CANCELADO', 'EXPIRADO');

-- Brute-force counters are forgotten once their window has passed (src/auth/brute-force.ts).
create index auth_failures_age on auth_failures (window_start);
