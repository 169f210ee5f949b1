// How many of a channel's rows are under a live lease: the claim counts them for a
// contained channel's one probe, the metrics for the channels at their cap.
import { sql, type RawBuilder } from 'kysely';
import { addSeconds } from '../../../clock.ts';

/**
 * A claim sets a row's next_attempt_at to the end of its lease, so leased rows are among
 * the channel's PENDENTE rows due within the next lease by this clock (two leases:
 * another worker's clock may run ahead): a range of the queue index, whatever the
 * backlog (due now or earlier) and the retries scheduled later.
 */
export const liveLeases = (channel: RawBuilder<unknown>, now: Date, leaseSeconds: number) => sql`(
  select count(*) from deliveries l
  where l.channel_id = ${channel} and l.status = 'PENDENTE' and l.lease_id is not null
    and l.next_attempt_at > ${now} and l.next_attempt_at <= ${addSeconds(now, 2 * leaseSeconds)}
)`;
