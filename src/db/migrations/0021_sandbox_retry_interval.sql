-- Sandbox only (POST /v1/webhooks/retentativas/simular): when set, every retry of the
-- channel's deliveries waits this many seconds instead of the standard schedule, so a
-- channel can see a delivery reach FALHOU within a minute. Null: the standard schedule.
alter table webhooks
  add column intervalo_retentativa_segundos integer
    check (intervalo_retentativa_segundos between 1 and 60);
