// One Kysely instance over either PostgreSQL (pg pool) or PGlite (embedded), with
// the same SQL. Also the notification channel (LISTEN/NOTIFY) that wakes workers.
import { Kysely, PGliteDialect, PostgresDialect, sql, type Dialect, type Transaction } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Logger } from 'pino';
import type { ServiceTracer } from '../observability/tracing.ts';
import type { Tables } from './tables.ts';
import { tracedDialect } from './traced-dialect.ts';

export type DB = Kysely<Tables>;
/**
 * Inside `db.transaction()`: what a function takes when its statements must commit
 * together with its caller's (an event with the state change it reports, a row lock
 * with the update it guards). A plain DB there is a compile error.
 */
export type Tx = Transaction<Tables>;

export interface Database {
  readonly db: DB;
  readonly kind: 'postgres' | 'pglite';
  /**
   * Subscribes to a NOTIFY channel. `onReconnect` runs after the listening
   * connection was lost and re-established: notifications may have been missed.
   */
  listen(channel: string, onNotify: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  /** A transaction that can also run multi-statement scripts (migrations). */
  scriptTransaction<T>(fn: (tx: ScriptTx) => Promise<T>): Promise<T>;
  /**
   * Embedded only: the whole data folder as one gzipped tar, taken between statements
   * (PGlite runs one at a time), as consistent as after a crash. PostgreSQL has its own
   * tools (README "Backups").
   */
  dump?(): Promise<Buffer>;
  close(): Promise<void>;
}

export interface ScriptTx {
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
  exec(script: string): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Data folder for PGlite; 'memory' keeps everything in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  log?: Logger;
  /** PostgreSQL schema to use (tests isolate themselves this way). */
  searchPath?: string;
  /** PGlite's shared_buffers in MB (its default, 160, is most of an idle embedded process's memory). */
  sharedBuffersMb?: number;
  /** PGlite in memory: start from this data folder image (`dumpDataDir`) instead of a new cluster (tests share one migrated image). */
  image?: Blob;
  /** When tracing is configured: the tracer of the moment (a span per statement while it answers one). */
  tracer?: () => ServiceTracer | undefined;
  /** PostgreSQL: how long a statement may go unanswered before its connection is given back (default 15 s). */
  queryTimeoutMs?: number;
}

/**
 * A script's statements (migrations) may build indexes and backfill tables of millions of
 * rows, for minutes (bench/README.md "Portal reads"): with a request's bound, such a
 * migration failed at start-up, rolled back, and failed again at the next start.
 */
const SCRIPT_TIMEOUT_MS = 6 * 3_600_000;
// pg reads a query's own query_timeout before the connection's (its types omit it).
const scriptQuery = (text: string, values?: unknown[]): pg.QueryConfig =>
  ({ text, ...(values ? { values } : {}), query_timeout: SCRIPT_TIMEOUT_MS }) as pg.QueryConfig;

const withTracing = (dialect: Dialect, options: OpenOptions): Dialect =>
  options.tracer ? tracedDialect(dialect, options.tracer) : dialect;

// int8 (count(*), sums) as number: every int8 here is a count far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 20,
    // Fail a request fast when the server is down instead of queueing it forever.
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // A query that hangs (network partition) gives its connection back after this.
    query_timeout: options.queryTimeoutMs ?? 15_000,
    application_name: 'consigna',
    // No JIT: every statement here is short, and JIT compiles anew at each execution of a
    // plan whose estimated cost passes jit_above_cost. The claim's did once the queue's
    // statistics grew: 117 functions, ~30 ms per claim, for statements that run in one
    // (measured in the 20,000-event drain: the claims of one round in five went from
    // 1 to 35–40 ms and PostgreSQL's CPU for that round from 0.5 to 3.4 s).
    options: ['-c jit=off', ...(options.searchPath ? [`-c search_path=${options.searchPath}`] : [])].join(' '),
  });
  // An idle client losing its server emits here; without a listener it would crash the process.
  pool.on('error', (error) => options.log?.warn({ err: { message: error.message } }, 'idle database connection lost'));

  const db = new Kysely<Tables>({ dialect: withTracing(new PostgresDialect({ pool: preparingPool(pool) }), options) });
  const listener = new PgListener(url, options);

  return {
    db,
    kind: 'postgres',
    listen: (channel, onNotify, onReconnect) => listener.listen(channel, onNotify, onReconnect),
    ping: () => pingDb(db),
    async scriptTransaction(fn) {
      const { client, release } = await checkOut(pool);
      try {
        await client.query(scriptQuery('begin'));
        const result = await fn({
          query: async (text, params) => (await client.query(scriptQuery(text, params))).rows,
          exec: async (script) => void (await client.query(scriptQuery(script))),
        });
        await client.query(scriptQuery('commit'));
        return result;
      } catch (error) {
        await client.query(scriptQuery('rollback')).catch(() => {});
        throw error;
      } finally {
        release();
      }
    },
    async close() {
      await listener.close();
      await db.destroy();
      // Kysely ends the pool only if a query of its own ever ran: migrations and
      // scriptTransaction use the pool directly.
      if (!pool.ended) await pool.end();
    },
  };
}

/**
 * A checked-out client whose server goes away (restart, failover: "terminating
 * connection due to administrator command") emits 'error' even between queries, and
 * pg-pool listens only on idle clients: an unheard 'error' would crash the process.
 * (Found by the fault test that stops PostgreSQL for 30 s under load.) The error is
 * kept, the next query on that client fails with it, and the client is destroyed on
 * release instead of going back to the pool.
 */
async function checkOut(pool: pg.Pool): Promise<{ client: pg.PoolClient; release: (error?: Error | boolean) => void }> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  return {
    client,
    release(error) {
      client.removeListener('error', onError);
      client.release(error ?? broken);
    },
  };
}

/**
 * Runs every query as a named prepared statement, so PostgreSQL parses and plans
 * each distinct SQL text once per connection instead of on every call. Measured on
 * the GET /v1/links/{id} query (a join): planning took 1.1 ms against 0.15 ms of
 * execution, and named statements served 1.3–1.9× the queries per second. Kysely
 * emits a small fixed set of texts; past a bound, new texts run unnamed, so a
 * runaway set cannot grow without limit. (Behind PgBouncer in transaction mode,
 * enable its max_prepared_statements.)
 */
function preparingPool(pool: pg.Pool): pg.Pool {
  const names = new Map<string, string>();
  const nameFor = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < 500) {
      name = `consigna_${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  return {
    async connect() {
      const { client, release } = await checkOut(pool);
      return {
        query: (text: string, values: unknown[]) => client.query({ text, values, name: nameFor(text) }),
        release,
      };
    },
    end: () => pool.end(),
  } as unknown as pg.Pool;
}

async function openPglite(options: OpenOptions): Promise<Database> {
  const dataDir = options.dataDir && options.dataDir !== 'memory' ? options.dataDir : undefined;
  // Loaded only when used: a PostgreSQL deployment never pays for the WebAssembly build.
  const { PGlite } = await import('@electric-sql/pglite');
  const { OwnerOnlyNodeFS } = await import('./data-dir-permissions.ts');
  // PGlite's own start parameters, plus the buffer cache: it sits in the WebAssembly heap,
  // so its size is resident memory (measured: 384 MiB at rest with 160 MB, 243 MiB with 16).
  // On disk, every file it writes is its owner's only (data-dir-permissions.ts).
  const pglite = await PGlite.create({
    ...(dataDir !== undefined ? { fs: new OwnerOnlyNodeFS(dataDir) } : {}),
    ...(dataDir === undefined && options.image ? { loadDataDir: options.image } : {}),
    ...(options.sharedBuffersMb !== undefined
      ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffersMb}MB`] }
      : {}),
  });
  const db = new Kysely<Tables>({ dialect: withTracing(new PGliteDialect({ pglite: yielding(pglite) }), options) });
  return {
    db,
    kind: 'pglite',
    // PGlite's notifications are in-process: the only listener is this process.
    async listen(channel, onNotify) {
      const unsubscribe = await pglite.listen(channel, onNotify);
      return async () => {
        if (!pglite.closed) await unsubscribe();
      };
    },
    ping: () => pingDb(db),
    async dump() {
      const archive = await pglite.dumpDataDir('gzip');
      return Buffer.from(await archive.arrayBuffer());
    },
    scriptTransaction: (fn) =>
      pglite.transaction((tx) =>
        fn({
          query: async (text, params) => (await tx.query(text, params)).rows as never[],
          exec: async (script) => void (await tx.exec(script)),
        }),
      ),
    async close() {
      await db.destroy();
      // Kysely closes PGlite only if a query of its own ever ran: migrations and
      // scriptTransaction go to PGlite directly.
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * PGlite runs each statement synchronously on this thread, and the code awaiting it
 * resumes as a microtask: a queue of requests issuing statements one after another
 * would run back to back without the event loop ever reaching timers or sockets (one
 * inbox flood held it for over a second). Each statement the service issues first
 * yields to the event loop, so other requests' I/O runs between any two statements.
 */
function yielding(pglite: PGlite): PGlite {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const withYield = <T extends object>(target: T, wrap: Partial<Record<keyof T, unknown>>): T =>
    new Proxy(target, {
      get(object, key) {
        if (key in wrap) return wrap[key as keyof T];
        const value = Reflect.get(object, key, object) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
  type Tx = Parameters<Parameters<PGlite['transaction']>[0]>[0];
  const query = <T extends Pick<PGlite, 'query'>>(target: T) =>
    (async (...args: Parameters<PGlite['query']>) => {
      await turn();
      return target.query(...args);
    }) as PGlite['query'];
  return withYield(pglite, {
    query: query(pglite),
    transaction: ((fn: (tx: Tx) => Promise<unknown>) =>
      pglite.transaction((tx) => fn(withYield(tx, { query: query(tx) })))) as PGlite['transaction'],
  });
}

async function pingDb(db: DB): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

type Subscriber = { onNotify: (payload: string) => void; onReconnect: (() => void) | undefined };

/**
 * A dedicated connection for LISTEN, outside the pool (a pooled client would be
 * recycled and lose its subscriptions). Reconnects with backoff when the server
 * goes away and tells subscribers, who then poll for what they missed.
 */
class PgListener {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly url: string;
  private readonly options: OpenOptions;

  constructor(url: string, options: OpenOptions) {
    this.url = url;
    this.options = options;
  }

  async listen(channel: string, onNotify: (payload: string) => void, onReconnect?: () => void) {
    const subscriber: Subscriber = { onNotify, onReconnect };
    let set = this.subscribers.get(channel);
    const isNew = !set;
    if (!set) {
      set = new Set();
      this.subscribers.set(channel, set);
    }
    set.add(subscriber);
    if (!this.client) {
      await this.connect();
    } else if (isNew) {
      await this.client.query(`listen ${pg.escapeIdentifier(channel)}`);
    }
    return async () => {
      set.delete(subscriber);
      if (set.size === 0) {
        this.subscribers.delete(channel);
        await this.client?.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => {});
      }
    };
  }

  private connect(): Promise<void> {
    this.connecting ??= this.doConnect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async doConnect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: 3000,
      keepAlive: true,
      application_name: 'consigna-listener',
      ...(this.options.searchPath ? { options: `-c search_path=${this.options.searchPath}` } : {}),
    });
    client.on('notification', (message) => {
      for (const s of this.subscribers.get(message.channel) ?? []) s.onNotify(message.payload ?? '');
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      this.scheduleReconnect(250);
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    for (const channel of this.subscribers.keys()) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    this.client = client;
  }

  private scheduleReconnect(delayMs: number): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect().then(
        () => {
          this.options.log?.info('database notifications listening again');
          for (const set of this.subscribers.values()) for (const s of set) s.onReconnect?.();
        },
        () => this.scheduleReconnect(Math.min(delayMs * 2, 5000)),
      );
    }, delayMs);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

/** NOTIFY inside the caller's transaction: delivered on commit, dropped on rollback. */
export function notify(db: DB, channel: string, payload = ''): Promise<unknown> {
  return sql`select pg_notify(${channel}, ${payload})`.execute(db);
}
