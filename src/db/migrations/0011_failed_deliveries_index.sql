-- A channel's FALHOU deliveries in order of occurrence: counted for its endpoint health
-- (GET /v1/webhooks, `consigna channels health`) and walked, oldest first, by the bulk
-- recovery (POST /v1/webhooks/entregas/reenviar). Partial: only a delivery that ends
-- FALHOU (or leaves it) touches it, so the delivery engine's hot updates never do.
create index deliveries_failed on deliveries (channel_id, criado_em, id) where status = 'FALHOU';
