-- Each delivery worker's attempt pool, written with its heartbeat (worker-registry.ts),
-- so that `consigna status` shows how many slots slow channels hold and for how long.
alter table delivery_workers
  add column slots_busy integer not null default 0,
  add column slots_slow integer not null default 0,
  add column requests_slow integer not null default 0,
  add column slow_oldest_seconds integer not null default 0,
  add column channels_slow integer not null default 0;
