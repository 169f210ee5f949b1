// Per-process cache of access-token look-ups. Every authenticated request would
// otherwise pay one database round trip before doing its own work (measured: ping
// went from 2 queries to 1). Correctness does not depend on it: a change to a
// channel (deactivation, secret rotation) is announced with NOTIFY in the same
// transaction and every process drops that channel's entries; a short TTL bounds
// staleness if a notification is ever missed, and a lost LISTEN connection clears
// the cache when it comes back.
import { notify, type Database, type DB } from '../db/database.ts';
import type { Logger } from '../observability/logger.ts';

export const CHANNEL_CHANGES = 'consigna_channel_changes';

export interface CachedToken {
  channelId: string;
  name: string;
  active: boolean;
  allowedCidrs: string[];
  expiresAt: Date;
}

const TTL_MS = 10_000;
const MAX_ENTRIES = 50_000;

export class TokenCache {
  private readonly entries = new Map<string, { token: CachedToken; storedAt: number }>();

  get(key: string): CachedToken | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (performance.now() - entry.storedAt > TTL_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.token;
  }

  set(key: string, token: CachedToken): void {
    // Insertion order makes the first key the oldest: a cheap bound on memory.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { token, storedAt: performance.now() });
  }

  dropChannel(channelId: string): void {
    for (const [key, entry] of this.entries) if (entry.token.channelId === channelId) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

const caches = new WeakMap<Database, TokenCache>();

/** One cache per open database (per process, in production). */
export function tokenCacheFor(database: Database): TokenCache {
  let cache = caches.get(database);
  if (!cache) {
    cache = new TokenCache();
    caches.set(database, cache);
  }
  return cache;
}

export function watchChannelChanges(database: Database, log: Logger): Promise<() => Promise<void>> {
  const cache = tokenCacheFor(database);
  return database.listen(
    CHANNEL_CHANGES,
    (channelId) => cache.dropChannel(channelId),
    () => {
      log.info('channel-change notifications resumed; token cache cleared');
      cache.clear();
    },
  );
}

/** Inside the transaction that changes the channel: other processes hear it on commit. */
export const announceChannelChange = (db: DB, channelId: string): Promise<unknown> => notify(db, CHANNEL_CHANGES, channelId);

/** After the commit, for this process's own cache (no wait for the notification). */
export const forgetChannelLocally = (database: Database, channelId: string): void =>
  tokenCacheFor(database).dropChannel(channelId);
