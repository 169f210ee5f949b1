// Fixed-window rate limits shared by every process through the database, without a
// database write per request: each process counts locally and, every SYNC_MS, adds
// its counts to the shared row and reads the total back. A process decides with
// "total at the last sync + what it counted since", so with N processes a key can
// overshoot by what N-1 others counted in one sync interval: a bounded, documented
// approximation that keeps the API's hot path free of rate-limit round trips.
import type { Context } from '../context.ts';
import type { RateLimit } from '../config/config.ts';
import { addCounts } from '../rate-limits/rate-limit-counters.ts';
import { tooManyRequests } from '../errors.ts';

const SYNC_MS = 250;

interface Counter {
  window: number;
  windowMs: number;
  /** Total of every process at the last sync, this process's flushed counts included. */
  shared: number;
  /** Counted here since the last sync. */
  local: number;
  /** Counted here and being added to the shared row right now: still counted until the total comes back. */
  sending: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private readonly deps: Pick<Context, 'database' | 'clock' | 'log'>;

  constructor(deps: Pick<Context, 'database' | 'clock' | 'log'>) {
    this.deps = deps;
  }

  hit(key: string, limit: RateLimit): Decision {
    if (limit.max === 0) return { allowed: true, limit: 0, remaining: 0, reset: 0 };
    const nowMs = this.deps.clock.now().getTime();
    const windowMs = limit.windowSeconds * 1000;
    const window = Math.floor(nowMs / windowMs);
    let counter = this.counters.get(key);
    if (!counter || counter.window !== window) {
      counter = { window, windowMs, shared: 0, local: 0, sending: 0 };
      this.counters.set(key, counter);
    }
    const reset = Math.max(1, Math.ceil(((window + 1) * windowMs - nowMs) / 1000));
    const used = counter.shared + counter.sending + counter.local;
    if (used >= limit.max) return { allowed: false, limit: limit.max, remaining: 0, reset };
    counter.local += 1;
    this.scheduleSync();
    return { allowed: true, limit: limit.max, remaining: limit.max - used - 1, reset };
  }

  /**
   * The refusal `hit` would give, without counting: for a key already past its limit in
   * this window, so that a flood of refused requests costs no work beyond this check.
   */
  refusal(key: string, limit: RateLimit): Decision | undefined {
    if (limit.max === 0) return undefined;
    const counter = this.counters.get(key);
    const nowMs = this.deps.clock.now().getTime();
    if (!counter || counter.window !== Math.floor(nowMs / counter.windowMs)) return undefined;
    if (counter.shared + counter.sending + counter.local < limit.max) return undefined;
    const reset = Math.max(1, Math.ceil(((counter.window + 1) * counter.windowMs - nowMs) / 1000));
    return { allowed: false, limit: limit.max, remaining: 0, reset };
  }

  private scheduleSync(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sync();
    }, SYNC_MS);
    this.timer.unref();
  }

  /** Adds local counts to the shared rows and reads the totals back. */
  sync(): Promise<void> {
    this.syncing ??= this.doSync().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async doSync(): Promise<void> {
    this.forgetOldWindows();
    const pending = [...this.counters.entries()].filter(([, c]) => c.local > 0);
    if (pending.length === 0) return;
    const keys = pending.map(([key]) => key);
    const windows = pending.map(([, c]) => new Date(c.window * c.windowMs).toISOString());
    const counts = pending.map(([, c]) => c.local);
    for (const [, c] of pending) {
      c.sending += c.local;
      c.local = 0;
    }
    try {
      const rows = await addCounts(this.deps.database.db, { keys, windows, counts });
      for (const row of rows) {
        const counter = this.counters.get(row.key);
        if (counter) counter.shared = row.count;
      }
      pending.forEach(([, c], i) => (c.sending -= counts[i]!));
    } catch (error) {
      // Keep counting locally; the next sync carries these counts.
      pending.forEach(([, c], i) => {
        c.sending -= counts[i]!;
        c.local += counts[i]!;
      });
      this.deps.log.warn({ err: { message: (error as Error).message } }, 'rate-limit sync failed');
    }
  }

  private forgetOldWindows(): void {
    const nowMs = this.deps.clock.now().getTime();
    for (const [key, c] of this.counters) {
      if (c.local === 0 && c.sending === 0 && (c.window + 1) * c.windowMs < nowMs) this.counters.delete(key);
    }
  }

  close(): void {
    clearTimeout(this.timer);
  }
}

/**
 * For pages and endpoints protected only by a token in the path (hosted journey,
 * test inbox): a token that exists is counted under its own key; one that does not
 * is counted under the source address. A guessed token then leaves no row of its
 * own (2,000 guesses once left 2,000 counter rows for a day), and guessing is bounded
 * per source, however many tokens are tried.
 */
export function hitPathToken(
  limiter: RateLimiter,
  tokenKey: string | undefined,
  ip: string,
  limits: { token: RateLimit; unknownToken: RateLimit },
): Decision {
  return tokenKey === undefined ? limiter.hit(`desconhecido:${ip}`, limits.unknownToken) : limiter.hit(tokenKey, limits.token);
}

/** Applies a decision: headers always, 429 limite_excedido when refused. */
export function enforce(reply: { header(name: string, value: string): unknown }, decision: Decision): void {
  if (decision.limit === 0) return;
  const headers = {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.reset),
  };
  if (!decision.allowed) throw tooManyRequests(decision.reset, headers);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
}
