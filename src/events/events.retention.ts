// Retention of the delivery history (docs/operations.md "Retention"): an event goes, with its
// delivery and the delivery's attempts, once it has been final for the retention period:
// its delivery delivered or failed at least that long ago (an event without a delivery:
// occurred that long ago). A PENDENTE delivery is never removed, nor its event.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

/**
 * Up to `batch` events of each channel, oldest first, at most `batch` in all, in one
 * statement: the attempts, then the deliveries, then the events. A delivery that became
 * PENDENTE meanwhile (a resend or a recovery won the row lock) is left, and so is its
 * event. Deliveries are reached through deliveries_channel (created at their event's
 * time); events through events_channel. Returns the events removed.
 */
export async function pruneEvents(db: DB, cutoff: Date, batch: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with due as materialized (
      select e.id, d.id as delivery_id
      from channels c cross join lateral (
        select e.id, e.channel_id, e.ocorrido_em from events e
        where e.channel_id = c.id and e.ocorrido_em < ${cutoff}
          and not exists (
            select 1 from deliveries d
            where d.channel_id = e.channel_id and d.criado_em = e.ocorrido_em and d.event_id = e.id
              and (d.status = 'PENDENTE' or coalesce(d.last_attempt_at, d.criado_em) >= ${cutoff}))
        order by e.ocorrido_em
        limit ${batch}
      ) e
      left join deliveries d on d.channel_id = e.channel_id and d.criado_em = e.ocorrido_em and d.event_id = e.id
      limit ${batch}
    ),
    gone_deliveries as (
      delete from deliveries d
      where d.id = any (array(select delivery_id from due where delivery_id is not null)) and d.status <> 'PENDENTE'
      returning d.id, d.event_id
    ),
    gone_attempts as (
      delete from delivery_attempts a where a.delivery_id = any (array(select id from gone_deliveries))
    ),
    gone_events as (
      delete from events e
      where e.id = any (array(
        select id from due where delivery_id is null
        union all
        select event_id from gone_deliveries))
      returning 1
    )
    select count(*)::int as n from gone_events
  `.execute(db);
  return rows[0]?.n ?? 0;
}
