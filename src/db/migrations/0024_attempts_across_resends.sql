-- Attempts numbered across resends (docs/rules.md §5.12, §5.13). A resend or a bulk
-- recovery starts a new series: `tentativas` and the attempt's number (the
-- X-Service-Delivery-Attempt header) restart, as the contract says. Beside them:
--   deliveries.earlier_attempts   the attempts of the earlier series, summed: the API's
--                                 tentativasTotais is earlier_attempts + tentativas;
--   deliveries.resends            how many series came before the current one;
--   delivery_attempts.earlier_attempts, .resend   the delivery's two values when the
--                                 attempt was recorded: ordem = earlier_attempts + attempt.
-- Kept as "earlier" counts, not as totals, so that the claim (the engine's hot path) is
-- unchanged: only a resend, a recovery and the recording of an attempt touch them. With
-- default 0 the new columns cost no rewrite; the backfill updates only what came after
-- a resend.
alter table deliveries
  add column earlier_attempts integer not null default 0,
  add column resends integer not null default 0;
alter table delivery_attempts
  add column earlier_attempts integer not null default 0,
  add column resend integer not null default 0;

-- Backfill from the history kept since 0012. A series ends with the attempt that made the
-- delivery ENTREGUE (the only attempts recorded without an error) or FALHOU (the seventh
-- failure): an attempt after such an end belongs to the next series, and that series
-- follows `attempt` numbers already summed in the ends before it. Every end is in the
-- history: a delivery becomes ENTREGUE or FALHOU only in the statement that records
-- that attempt.
with series as (
  select delivery_id, id,
    count(*) filter (where error is null or attempt >= 7) over earlier as resend,
    coalesce(sum(attempt) filter (where error is null or attempt >= 7) over earlier, 0) as earlier_attempts
  from delivery_attempts
  window earlier as (partition by delivery_id order by id rows between unbounded preceding and 1 preceding)
)
update delivery_attempts a
set resend = s.resend, earlier_attempts = s.earlier_attempts
from series s
where s.resend > 0 and a.delivery_id = s.delivery_id and a.id = s.id;

-- A PENDENTE delivery after ends was resent after each of them; an ENTREGUE or FALHOU
-- one is in the series its last end closed.
with ends as (
  select delivery_id, count(*)::int as n, sum(attempt)::int as total,
    (array_agg(attempt order by id desc))[1] as last_attempt
  from delivery_attempts
  where error is null or attempt >= 7
  group by delivery_id
)
update deliveries d
set resends = case when d.status = 'PENDENTE' then e.n else e.n - 1 end,
    earlier_attempts = case when d.status = 'PENDENTE' then e.total else e.total - e.last_attempt end
from ends e
where e.delivery_id = d.id and (d.status = 'PENDENTE' or e.n > 1);
