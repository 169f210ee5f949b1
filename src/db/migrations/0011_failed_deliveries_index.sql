-- A channel's FALHOU deliveries, counted for its endpoint health (GET /v1/webhooks,
-- `consigna channels health`). Partial: only a delivery that ends FALHOU (or is resent
-- from it) touches it, so the delivery engine's hot updates never do.
create index deliveries_failed on deliveries (channel_id) where status = 'FALHOU';
