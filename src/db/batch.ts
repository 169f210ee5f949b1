import type { DB } from './database.ts';
import { isDbUnavailable } from './unavailable.ts';

/**
 * Coalesces the lookups made during one turn of the event loop into one query.
 *
 * Under load, a single poll phase parses many requests; one query each costs one
 * round trip each: a socket write, a PostgreSQL backend woken up, a read. On the
 * 2-core machine of bench/ those system calls were a third of the CPU profile of
 * GET /v1/links/{id}. The batch is sent on setImmediate, right after the poll phase
 * that queued it, so a lone request waits for nothing but the end of its own turn.
 *
 * `load` answers with one result per key, in the order of the keys.
 *
 * One request's input must never fail another's: when a batch of several fails for
 * any reason but an unavailable database, each key is loaded again on its own, so
 * only the request whose input caused the failure gets the error. `load` must
 * therefore be safe to repeat after a failure: a single statement, which PostgreSQL
 * rolls back as a whole when it fails. (An unavailable database fails every key
 * alike, and a retry could not tell whether a commit had happened.)
 */
export function batched<K, V>(load: (keys: readonly K[]) => Promise<readonly V[]>, maxBatch = 100): (key: K) => Promise<V> {
  let pending: { key: K; resolve: (value: V) => void; reject: (error: unknown) => void }[] = [];

  const flush = (): void => {
    const batch = pending;
    pending = [];
    for (let start = 0; start < batch.length; start += maxBatch) {
      const slice = batch.slice(start, start + maxBatch);
      load(slice.map((entry) => entry.key)).then(
        (values) => {
          for (let i = 0; i < slice.length; i++) slice[i]!.resolve(values[i]!);
        },
        (error: unknown) => {
          if (slice.length === 1 || isDbUnavailable(error)) {
            for (const entry of slice) entry.reject(error);
            return;
          }
          for (const entry of slice) load([entry.key]).then((values) => entry.resolve(values[0]!), entry.reject);
        },
      );
    }
  };

  return (key) =>
    new Promise<V>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ key, resolve, reject });
    });
}

/**
 * batched() for a repository function that takes the database: one batch queue per
 * database (a process has one; tests open several side by side), made on first use.
 */
export function batchedPerDatabase<K, V>(
  load: (db: DB, keys: readonly K[]) => Promise<readonly V[]>,
  maxBatch?: number,
): (db: DB, key: K) => Promise<V> {
  const queues = new WeakMap<DB, (key: K) => Promise<V>>();
  return (db, key) => {
    let queue = queues.get(db);
    if (!queue) {
      queue = batched((keys: readonly K[]) => load(db, keys), maxBatch);
      queues.set(db, queue);
    }
    return queue(key);
  };
}
