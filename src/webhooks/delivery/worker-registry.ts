// The delivery workers alive, so that each knows its share of a channel's cap of
// attempts at once (worker.ts). Every worker writes a heartbeat row every couple of
// seconds and counts the rows seen recently. A worker that dies is counted a few
// seconds longer (the others send less meanwhile, never more); one that starts is
// seen by the others at their next heartbeat.
import { sql } from 'kysely';
import type { DB } from '../../db/database.ts';

/** A worker not seen for this long is no longer counted. */
const ALIVE_SECONDS = 6;

/** Records this worker as alive and returns how many workers are (itself included). */
export async function heartbeat(db: DB, workerId: string, now: Date): Promise<number> {
  const { rows } = await sql<{ others: number }>`
    with beat as (
      insert into delivery_workers (id, seen_at) values (${workerId}, ${now})
      on conflict (id) do update set seen_at = excluded.seen_at
    ),
    gone as (delete from delivery_workers where seen_at < ${now}::timestamptz - interval '1 minute')
    select count(*)::int as others from delivery_workers
    where id <> ${workerId} and seen_at > ${now}::timestamptz - make_interval(secs => ${ALIVE_SECONDS})
  `.execute(db);
  return (rows[0]?.others ?? 0) + 1;
}

/** A stopping worker leaves at once, so the others take up its share. */
export async function leave(db: DB, workerId: string): Promise<void> {
  await sql`delete from delivery_workers where id = ${workerId}`.execute(db);
}
