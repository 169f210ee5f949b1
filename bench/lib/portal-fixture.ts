// The portal bench's database (bench/portal.bench.ts): a fresh PostgreSQL database at
// the schema before migration 0020, one big channel's links beside other channels'
// (lib/links-fixture.ts, generate_series), then the migrations from 0020 on applied as
// start-up applies them, each timed, with probes that say how long a read and a write of
// a link waited meanwhile; then VACUUM ANALYZE and CHECKPOINT, so that the measured
// reads meet a table as it is long after a fill, not its autovacuum.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrate, readMigrations } from '../../src/db/migrate.ts';
import { loadConfig } from '../../src/config/config.ts';
import { openContext } from '../../src/server.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { createChannels, type IssuedCredentials } from '../../src/channels/channels.service.ts';
import { fillLinks, type FillTimes } from './links-fixture.ts';
import { createBenchDatabase, type BenchDatabase } from './postgres.ts';
import { onCleanup } from './cleanup.ts';
import { BenchError, sleep } from './process.ts';

/** The first migration that reads the links for the list and the funnel. */
const LIST_MIGRATION = 20;

export interface PortalSize {
  /** Links of the measured channel. */
  links: number;
  /** Links of the other channels, together. */
  otherLinks: number;
  otherChannels: number;
  /** Days the links span, the newest a few seconds old. */
  days: number;
}

export interface MigrationTimes {
  name: string;
  seconds: number;
  /** The longest wait of probes repeated from PROBE_AFTER_MS into the migration (null: it ended first). */
  linkReadWaitSeconds: number | null;
  linkWriteWaitSeconds: number | null;
  proposalReadWaitSeconds: number | null;
}

export interface PortalFixture {
  database: Database;
  bench: BenchDatabase;
  masterKey: string;
  channel: IssuedCredentials;
  ttlSeconds: number;
  newest: Date;
  counts: { links: number; proposals: number; channelLinks: number; channelProposals: number };
  fill: FillTimes;
  migrations: MigrationTimes[];
  vacuumSeconds: number;
  checkpointed: boolean;
  close(): Promise<void>;
}

const PROBE_AFTER_MS = 500;

export async function portalFixture(
  adminUrl: string,
  root: string,
  size: PortalSize,
  log: (message: string) => void,
): Promise<PortalFixture> {
  const bench = await createBenchDatabase(adminUrl);
  log(`database ${bench.name}`);
  const database = await openDatabase({ databaseUrl: bench.url, poolSize: 4 }).catch(async (error: unknown) => {
    await bench.drop();
    throw error;
  });
  const closeDatabase = onCleanup(`close the bench connections to ${bench.name}`, () => database.close());
  const client = new pg.Client({ connectionString: bench.url, application_name: 'consigna-bench-fill' });
  client.on('error', () => undefined);
  try {
    const all = readMigrations();
    await migrate(
      database,
      all.filter((m) => m.version < LIST_MIGRATION),
    );
    const masterKey = randomBytes(32).toString('hex');
    const config = loadConfig({ DATABASE_URL: bench.url, CONSIGNA_MASTER_KEY: masterKey, LOG_LEVEL: 'warn' }, root);
    const ctx = await openContext(config, { database, log: createLogger('warn') });
    const names = ['Portal', ...Array.from({ length: size.otherChannels }, (_, i) => `Outro ${i + 1}`)];
    const [channel, ...others] = await createChannels(ctx, { names });
    await ctx.release();

    // Row g goes to the measured channel when g % bigEvery = 0: a whole share of the series.
    const bigEvery = Math.max(2, Math.round((size.links + size.otherLinks) / size.links));
    const total = size.links * bigEvery;
    const newest = new Date();
    await client.connect();
    log(`filling ${total.toLocaleString('en-US')} links over ${size.days} days (one in ${bigEvery} the measured channel's)…`);
    let reported = 0;
    const fill = await fillLinks(
      client,
      {
        big: channel!.canalId,
        bigEvery,
        small: others[0]!.canalId,
        smallEvery: total + 1,
        others: others.map((o) => o.canalId),
        total,
        days: size.days,
        chunk: 250_000,
        ttlSeconds: config.linkTtlSeconds,
        salt: randomBytes(4).toString('hex'),
        progress(done) {
          if (done - reported >= total / 4 || done === total) {
            reported = done;
            log(`  ${done.toLocaleString('en-US')} links written`);
          }
        },
      },
      newest,
    );
    await client.query('analyze links');
    await client.query('analyze proposals');

    const migrations: MigrationTimes[] = [];
    const probeLink = (await client.query<{ id: string }>('select link_id as id from proposals limit 1')).rows[0]!.id;
    for (const migration of all.filter((m) => m.version >= LIST_MIGRATION)) {
      log(`migration ${migration.name}…`);
      migrations.push(await timedMigration(database, bench.url, migration, probeLink));
    }

    log('VACUUM ANALYZE, CHECKPOINT…');
    const vacuumStarted = performance.now();
    for (const table of ['links', 'proposals', 'journeys', ...(await counterTables(client))]) {
      await client.query(`vacuum (analyze) ${table}`);
    }
    const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
    const checkpointed = await client.query('checkpoint').then(
      () => true,
      () => false,
    );
    const { rows } = await client.query<PortalFixture['counts']>(
      `select (select count(*) from links)::int as links, (select count(*) from proposals)::int as proposals,
              (select count(*) from links where channel_id = $1)::int as "channelLinks",
              (select count(*) from proposals where channel_id = $1)::int as "channelProposals"`,
      [channel!.canalId],
    );
    return {
      database,
      bench,
      masterKey,
      channel: channel!,
      ttlSeconds: config.linkTtlSeconds,
      newest,
      counts: rows[0]!,
      fill,
      migrations,
      vacuumSeconds,
      checkpointed,
      async close() {
        await closeDatabase();
        await bench.drop();
      },
    };
  } catch (error) {
    await closeDatabase();
    await bench.drop();
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The funnel's counter tables, whichever migrations made them. */
async function counterTables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select relname as name from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace
       and relname like '%funnel%' order by 1`,
  );
  return rows.map((r) => r.name);
}

/**
 * One migration as start-up applies it (one transaction), and three probes on their own
 * connections, each repeating one statement from PROBE_AFTER_MS into it until it ends: a
 * read and a write of one link, and a read of its proposal, as the API makes them. Each
 * probe's figure is its longest wait.
 */
async function timedMigration(
  database: Database,
  url: string,
  migration: ReturnType<typeof readMigrations>[number],
  linkId: string,
): Promise<MigrationTimes> {
  const started = performance.now();
  let ended: number | undefined;
  const applying = migrate(database, [migration]).then(
    (applied) => {
      ended = performance.now();
      if (applied.length !== 1) throw new BenchError(`migration ${migration.name} was not applied`);
    },
    (error: unknown) => {
      ended = performance.now();
      throw error;
    },
  );
  applying.catch(() => undefined);
  await Promise.race([applying, sleep(PROBE_AFTER_MS)]);
  const probe = async (text: string): Promise<number | null> => {
    if (ended !== undefined) return null;
    const client = new pg.Client({ connectionString: url, application_name: 'consigna-bench-probe' });
    client.on('error', () => undefined);
    await client.connect();
    let longest = 0;
    try {
      while (ended === undefined) {
        const at = performance.now();
        await client.query(text, [linkId]);
        longest = Math.max(longest, (performance.now() - at) / 1000);
        await sleep(100);
      }
      return longest;
    } finally {
      await client.end();
    }
  };
  const [linkReadWaitSeconds, linkWriteWaitSeconds, proposalReadWaitSeconds] = await Promise.all([
    probe('select id, status from links where id = $1'),
    probe('update links set updated_at = updated_at where id = $1'),
    probe('select numero, status from proposals where link_id = $1'),
  ]);
  await applying;
  return {
    name: `${String(migration.version).padStart(4, '0')}_${migration.name}`,
    seconds: (ended! - started) / 1000,
    linkReadWaitSeconds,
    linkWriteWaitSeconds,
    proposalReadWaitSeconds,
  };
}
