import type { DB } from './database.ts';

/**
 * Coalesces the lookups made during one turn of the event loop into one query.
 *
 * Under load, a single poll phase parses many requests; one query each costs one
 * round trip each: a socket write, a PostgreSQL backend woken up, a read. On the
 * 2-core machine of bench/ those system calls were a third of the CPU profile of
 * GET /v1/links/{id}. The batch is sent on setImmediate, right after the poll phase
 * that queued it, so a lone request waits for nothing but the end of its own turn.
 *
 * `load` answers with one result per key, in the order of the keys. If it fails,
 * every lookup of the batch fails with its error.
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
          for (const entry of slice) entry.reject(error);
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
