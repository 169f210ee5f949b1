-- Request counters of the rate limits, shared by every process: each process adds
-- its local counts here every few hundred milliseconds and reads the total back.
create table rate_limit_counters (
  key           text primary key,
  window_start  timestamptz not null,
  count         integer not null
);
create index rate_limit_counters_age on rate_limit_counters (window_start);
