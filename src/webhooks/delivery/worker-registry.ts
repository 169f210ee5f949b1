// The delivery workers alive, so that each knows its share of a channel's cap of
// attempts at once (worker.ts). Every worker writes a heartbeat row every couple of
// seconds and counts the rows seen recently. A worker that dies is counted a few
// seconds longer (the others send less meanwhile, never more); one that starts is
// seen by the others at their next heartbeat.
import { sql } from 'kysely';
import type { DB } from '../../db/database.ts';
import { uuidv7 } from '../../crypto/random.ts';
import type { StageDeps } from './types.ts';
import type { PoolSnapshot } from './attempt-pool.ts';

/** A worker not seen for this long is no longer counted. */
const ALIVE_SECONDS = 6;
// How often a worker says it is alive and counts the others.
const HEARTBEAT_MS = 2000;

/**
 * Joins the workers alive: counts them now (before the first claim) and every
 * HEARTBEAT_MS, telling `counted`. Each worker keeps at least one attempt per channel:
 * with more workers than the cap, a channel can get up to one request per worker at once
 * (docs/delivery-engine.md "Per-channel cap"), which is logged once.
 */
export async function joinWorkers(
  deps: Pick<StageDeps, 'db' | 'clock' | 'log' | 'config'>,
  counted: (alive: number) => void,
  pool: () => PoolSnapshot,
): Promise<{ stop(): void; leave(): Promise<void> }> {
  const workerId = uuidv7(Date.now());
  const cap = deps.config.worker.maxInFlightPerChannel;
  let warnedCap = false;
  const beat = async () => {
    try {
      const alive = await heartbeat(deps.db, workerId, deps.clock.now(), pool());
      counted(alive);
      if (alive > cap && !warnedCap) {
        warnedCap = true;
        deps.log.warn(
          { workers: alive, cap },
          'more delivery workers than CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: a channel may get one request at once per worker',
        );
      }
    } catch (error) {
      deps.log.warn({ err: { message: (error as Error).message } }, 'worker heartbeat failed');
    }
  };
  await beat();
  const timer = setInterval(() => void beat(), HEARTBEAT_MS);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    // A stopping worker leaves at once, so the others take up its share.
    leave: () => leave(deps.db, workerId).catch(() => {}),
  };
}

/** Records this worker as alive, with its slots for `consigna status`, and returns how many workers are (itself included). */
export async function heartbeat(db: DB, workerId: string, now: Date, pool: PoolSnapshot): Promise<number> {
  const { rows } = await sql<{ others: number }>`
    with beat as (
      insert into delivery_workers (id, seen_at, slots_busy, slots_slow, requests_slow, slow_oldest_seconds, channels_slow)
      values (${workerId}, ${now}, ${pool.busy}, ${pool.slowBusy}, ${pool.slowHeld}, ${Math.round(pool.oldestSlowMs / 1000)},
              ${pool.slowChannels})
      on conflict (id) do update set seen_at = excluded.seen_at, slots_busy = excluded.slots_busy,
        slots_slow = excluded.slots_slow, requests_slow = excluded.requests_slow,
        slow_oldest_seconds = excluded.slow_oldest_seconds, channels_slow = excluded.channels_slow
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
