// Brute-force guard of the token endpoint (docs/rules.md §1): failures per client_id and
// per source IP inside a window block that key for a while. Counters live in the
// database so that every api process sees the same numbers.
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { addSeconds } from '../clock.ts';

type Deps = Pick<Context, 'database' | 'clock' | 'config'>;

/** Keys longer than this are not counted per client (they cannot be real client ids). */
const MAX_CLIENT_KEY = 100;

/** The key a client id is counted under ('' for one too long to be real: never blocked). */
export const clientKey = (clientId: string | undefined): string =>
  clientId && clientId.length <= MAX_CLIENT_KEY ? clientId : '';

/** Whole seconds until a block ends, at least 1 (the Retry-After of a 429). */
export const secondsUntil = (until: Date, now: Date): number => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

export async function recordFailure(deps: Deps, clientId: string | undefined, ip: string): Promise<void> {
  const { maxPerClient, maxPerIp, windowSeconds, blockSeconds } = deps.config.authGuard;
  const now = deps.clock.now();
  const windowStart = addSeconds(now, -windowSeconds);
  const blockUntil = addSeconds(now, blockSeconds);
  const keys: Array<[string, string, number]> = [['ip', ip, maxPerIp]];
  if (clientId && clientId.length <= MAX_CLIENT_KEY) keys.push(['client', clientId, maxPerClient]);

  // One statement per key: insert the first failure, or count one more inside the
  // window (restarting the window when it has passed), blocking at the threshold.
  for (const [scope, key, max] of keys) {
    await sql`
      insert into auth_failures as f (scope, key, window_start, failures, blocked_until)
      values (${scope}, ${key}, ${now}, 1, ${max <= 1 ? blockUntil : null})
      on conflict (scope, key) do update set
        window_start = case when f.window_start <= ${windowStart} then ${now} else f.window_start end,
        failures = case when f.window_start <= ${windowStart} then 1 else f.failures + 1 end,
        blocked_until = case
          when (case when f.window_start <= ${windowStart} then 1 else f.failures + 1 end) >= ${max}
            then ${blockUntil}
          else f.blocked_until
        end
    `.execute(deps.database.db);
  }
}

/**
 * Forgets windows that have passed and blocks that have ended: a counter is kept only
 * while it still counts (CONSIGNA_AUTH_WINDOW_SECONDS, CONSIGNA_AUTH_BLOCK_SECONDS). Up to
 * `batch` per statement; the sweeper repeats it.
 */
export async function pruneAuthFailures(deps: Deps, batch: number): Promise<number> {
  const now = deps.clock.now();
  const { rows } = await sql<{ n: number }>`
    with gone as (
      delete from auth_failures f
      using (
        select scope, key from auth_failures
        where window_start <= ${addSeconds(now, -deps.config.authGuard.windowSeconds)}
          and (blocked_until is null or blocked_until <= ${now})
        limit ${batch}
      ) due
      where f.scope = due.scope and f.key = due.key
      returning 1
    )
    select count(*)::int as n from gone
  `.execute(deps.database.db);
  return rows[0]?.n ?? 0;
}
