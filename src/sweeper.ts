// Periodic upkeep. Every process may run it; a transaction-level advisory lock makes
// one of them do each round, the others skip it.
import { sql } from 'kysely';
import type { Context } from './context.ts';
import { pruneAuthFailures } from './auth/brute-force.ts';
import { expireLinks, pruneIdempotencyKeys } from './links/links.expiry.ts';
import { pruneExpiredTokens } from './auth/token.repository.ts';
import { pruneRateLimitCounters } from './http/rate-limit.ts';

const LOCK_ID = 7_411_021; // "consigna sweeper"
const INTERVAL_MS = 30_000;

export interface SweepResult {
  skipped: boolean;
  expiredLinks: number;
  prunedIdempotencyKeys: number;
  prunedTokens: number;
  prunedAuthFailures: number;
}

export async function sweepOnce(ctx: Context): Promise<SweepResult> {
  return ctx.database.db.transaction().execute(async (tx) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${LOCK_ID}) as locked`.execute(tx);
    if (!rows[0]?.locked) {
      return { skipped: true, expiredLinks: 0, prunedIdempotencyKeys: 0, prunedTokens: 0, prunedAuthFailures: 0 };
    }
    const txCtx = { ...ctx, database: { ...ctx.database, db: tx } };
    const expiredLinks = await expireLinks(txCtx);
    const prunedIdempotencyKeys = await pruneIdempotencyKeys(txCtx);
    const prunedTokens = await pruneExpiredTokens(tx, ctx.clock.now());
    const prunedAuthFailures = await pruneAuthFailures(txCtx);
    await pruneRateLimitCounters(tx, ctx.clock.now());
    return {
      skipped: false,
      expiredLinks,
      prunedIdempotencyKeys,
      prunedTokens,
      prunedAuthFailures,
    };
  });
}

/** Starts the periodic sweep; returns its stop function. */
export function startSweeper(ctx: Context, intervalMs = INTERVAL_MS): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= sweepOnce(ctx)
      .then((result) => {
        if (result.expiredLinks > 0) ctx.log.info({ expiredLinks: result.expiredLinks }, 'links expired');
      })
      .catch((error: Error) => ctx.log.warn({ err: { message: error.message } }, 'sweep failed; retrying next round'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  setImmediate(tick);
  return async () => {
    clearInterval(timer);
    await running;
  };
}
