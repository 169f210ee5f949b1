// How each channel's endpoint has been answering, shared by every worker through the
// delivery_channels table: the state that contains a failing endpoint.
//
// The rule, a circuit breaker: after `containAfter` failed attempts in a row (a
// timeout, a refused connection, an error status), a channel is *contained*: the
// claim gives it room for one attempt at a time, a probe, until an attempt succeeds
// (2xx). Then its backlog drains at full speed again. A hanging endpoint would
// otherwise hold its share of every worker's slots for a timeout per attempt, and
// one answering 503 at once would take as much of the machine as a healthy one
// (docs/delivery-engine.md); contained, either costs one attempt at a time, and its
// own server is not hammered while it recovers.
//
// Workers fold their attempts into a summary per channel and write the summaries
// every HEALTH_FLUSH_MS in one statement (not in the claim: the state is advisory,
// and a process that dies loses at most that much of it).
import { sql } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { DB } from '../../db/database.ts';
import type { Logger } from '../../observability/logger.ts';
import type { AttemptResult } from './types.ts';

// Channel health is written at most this often per worker.
const HEALTH_FLUSH_MS = 100;

/** What a batch of one channel's attempts, in the order they ended, does to its state. */
export interface HealthSummary {
  channelId: string;
  /** Some attempt succeeded: the run of failures restarts from `trailingFailures`. */
  succeeded: boolean;
  /** Failures after the last success (all of them when none succeeded). */
  trailingFailures: number;
  /** Some attempt got an HTTP answer: the run of slow failures restarts from `trailingSlow`. */
  answered: boolean;
  /** Timeouts and connection failures after the last HTTP answer. */
  trailingSlow: number;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastFailureReason: string | null;
}

export interface HealthChange {
  channelId: string;
  change: 'contido' | 'liberado';
}

/** Accumulates attempts per channel until the next write. */
export class HealthLedger {
  private readonly pending = new Map<string, AttemptResult[]>();

  get size(): number {
    return this.pending.size;
  }

  add(result: AttemptResult): void {
    const list = this.pending.get(result.channelId);
    if (list) list.push(result);
    else this.pending.set(result.channelId, [result]);
  }

  /** The summaries of everything added since the last call. */
  take(): HealthSummary[] {
    const summaries = [...this.pending.values()].map((results) => summarize(results));
    this.pending.clear();
    return summaries;
  }
}

export function summarize(results: readonly AttemptResult[]): HealthSummary {
  let succeeded = false;
  let answered = false;
  let trailingFailures = 0;
  let trailingSlow = 0;
  let lastSuccessAt: Date | null = null;
  let lastFailureAt: Date | null = null;
  let lastFailureReason: string | null = null;
  for (const result of results) {
    if (result.httpStatus !== null) {
      answered = true;
      trailingSlow = 0;
    } else trailingSlow += 1;
    if (result.status === 'ENTREGUE') {
      succeeded = true;
      trailingFailures = 0;
      lastSuccessAt = result.at;
    } else {
      trailingFailures += 1;
      lastFailureAt = result.at;
      lastFailureReason = result.httpStatus !== null ? `HTTP ${result.httpStatus}` : (result.error ?? 'falha').slice(0, 200);
    }
  }
  return {
    channelId: results[0]!.channelId,
    succeeded,
    trailingFailures,
    answered,
    trailingSlow,
    lastSuccessAt,
    lastFailureAt,
    lastFailureReason,
  };
}

/**
 * Applies summaries to the stored state and returns the channels whose containment
 * began or ended in this write. Two statements: rows for channels seen for the first
 * time, then the update.
 */
export async function writeHealth(
  db: DB,
  summaries: readonly HealthSummary[],
  now: Date,
  containAfter: number,
): Promise<HealthChange[]> {
  if (summaries.length === 0) return [];
  const column = <T>(pick: (s: HealthSummary) => T) => summaries.map(pick);
  const channels = column((s) => s.channelId);
  await sql`
    insert into delivery_channels (channel_id, updated_at)
    select c, ${now}::timestamptz from unnest(${channels}::uuid[]) as c
    where exists (select 1 from channels where id = c)
    on conflict (channel_id) do nothing
  `.execute(db);
  const { rows } = await sql<{ channel_id: string; contained_now: boolean; released_now: boolean }>`
    with s as (
      select * from unnest(
        ${channels}::uuid[], ${column((s) => s.succeeded)}::bool[], ${column((s) => s.trailingFailures)}::int[],
        ${column((s) => s.answered)}::bool[], ${column((s) => s.trailingSlow)}::int[],
        ${column((s) => s.lastSuccessAt?.toISOString() ?? null)}::timestamptz[],
        ${column((s) => s.lastFailureAt?.toISOString() ?? null)}::timestamptz[], ${column((s) => s.lastFailureReason)}::text[]
      ) as s(channel_id, succeeded, trailing_failures, answered, trailing_slow, last_success_at, last_failure_at, last_failure_reason)
    ),
    next as (
      select h.channel_id, h.contained_since as was,
        case when s.succeeded then s.trailing_failures else h.failures + s.trailing_failures end as failures
      from delivery_channels h join s on s.channel_id = h.channel_id
    )
    update delivery_channels h
    set failures = next.failures,
        slow_failures = case when s.answered then s.trailing_slow else h.slow_failures + s.trailing_slow end,
        contained_since = case
          when next.failures < ${containAfter}::int then null
          when next.was is not null and not s.succeeded then next.was
          else ${now}::timestamptz end,
        released_at = case when next.was is not null and next.failures < ${containAfter}::int then ${now}::timestamptz
                           else h.released_at end,
        last_success_at = greatest(h.last_success_at, s.last_success_at),
        last_failure_at = greatest(h.last_failure_at, s.last_failure_at),
        last_failure_reason = case when s.last_failure_at is not null and s.last_failure_at >= coalesce(h.last_failure_at, '-infinity')
                                   then s.last_failure_reason else h.last_failure_reason end,
        updated_at = ${now}::timestamptz
    from s, next
    where h.channel_id = s.channel_id and next.channel_id = s.channel_id
    returning h.channel_id,
      next.was is null and next.failures >= ${containAfter}::int as contained_now,
      next.was is not null and next.failures < ${containAfter}::int as released_now
  `.execute(db);
  return rows.flatMap((r): HealthChange[] =>
    r.contained_now
      ? [{ channelId: r.channel_id, change: 'contido' }]
      : r.released_now
        ? [{ channelId: r.channel_id, change: 'liberado' }]
        : [],
  );
}

/** A worker's side: folds its attempts in and writes them every HEALTH_FLUSH_MS, logging changes. */
export class HealthWriter {
  private readonly ledger = new HealthLedger();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private stopped = false;
  private again = false;
  private readonly deps: { db: DB; clock: Clock; log: Logger; containAfter: number };

  constructor(deps: { db: DB; clock: Clock; log: Logger; containAfter: number }) {
    this.deps = deps;
  }

  add(result: AttemptResult): void {
    this.ledger.add(result);
    this.schedule();
  }

  /** Writes what was added (at once: a worker that just contained a channel tells the others). */
  flush(): Promise<void> {
    if (this.writing) {
      // Asked for during a write: once it ends.
      this.again = true;
      return this.writing;
    }
    this.writing = this.write().finally(() => {
      this.writing = undefined;
      if (this.again) {
        this.again = false;
        void this.flush();
      }
      // Attempts that ended meanwhile wait for the next round, HEALTH_FLUSH_MS later: written
      // back to back, a drain made more health statements than claims.
      else if (this.ledger.size > 0) this.schedule();
    });
    return this.writing;
  }

  /** Writes what is left; nothing is scheduled afterwards. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing || this.ledger.size > 0) await this.flush();
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, HEALTH_FLUSH_MS);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    const { db, clock, log, containAfter } = this.deps;
    if (this.ledger.size === 0) return;
    try {
      for (const { channelId, change } of await writeHealth(db, this.ledger.take(), clock.now(), containAfter)) {
        if (change === 'contido')
          log.warn(
            { channelId, containAfter },
            'webhook endpoint of the channel keeps failing: one probing attempt at a time until one succeeds',
          );
        else log.info({ channelId }, 'webhook endpoint of the channel answers again: deliveries at full speed');
      }
    } catch (error) {
      // Advisory state: the next attempts write it again.
      log.warn({ err: { message: (error as Error).message } }, 'writing channel health failed');
    }
  }
}
