// The embedded data folder is its owner's only (src/db/data-dir-permissions.ts): a new
// one is created with folders 0700 and files 0600, files PGlite writes later (WAL
// segments, new relations) too, whatever the process umask; an existing one with
// loosened modes is tightened on start, with one log line saying how many (no path).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { openContext } from '../../src/server.ts';
import { describeOnEmbedded } from '../helpers/db.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-perms-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Every entry under `dir` (itself included) with a group or other permission bit, and its mode. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) found.push(`${path.relative(root, entry)} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return found;
}

function countEntries(dir: string): number {
  let n = 1;
  if (fs.lstatSync(dir).isDirectory()) for (const name of fs.readdirSync(dir)) n += countEntries(path.join(dir, name));
  return n;
}

/** Opens the service's context on `dataDir` as `serve` does (lock, master key, PGlite in dataDir/pglite). */
async function open(dataDir: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const config = loadConfig({ CONSIGNA_DATA_DIR: dataDir, DATABASE_URL: '', CONSIGNA_MASTER_KEY: '' });
  const ctx = await openContext(config, { log: createLogger('info', sink) });
  return { ctx, lines };
}

/** Writes enough to make PGlite create files after start: a table, rows, a WAL switch and a checkpoint. */
async function write(ctx: Awaited<ReturnType<typeof open>>['ctx']) {
  const db = ctx.database.db;
  await sql`create table if not exists ballast (x text)`.execute(db);
  await sql`insert into ballast select repeat('x', 1000) from generate_series(1, 500)`.execute(db);
  await sql`select pg_switch_wal()`.execute(db);
  await sql`checkpoint`.execute(db);
}

const WHY = 'the data folder is the embedded database’s; PostgreSQL keeps its own files';
describeOnEmbedded('the embedded data folder is its owner’s only', WHY, () => {
  it('creates a new data folder with no group or other permission, also on files written after start', async () => {
    const dataDir = path.join(root, 'new', 'data');
    // A permissive umask, as on a shared machine: modes must not depend on it.
    const previous = process.umask(0o002);
    try {
      const { ctx, lines } = await open(dataDir);
      try {
        const before = new Set(fs.readdirSync(path.join(dataDir, 'pglite', 'pg_wal')));
        await write(ctx);
        const after = fs.readdirSync(path.join(dataDir, 'pglite', 'pg_wal')).filter((name) => !before.has(name));
        expect(after.length, 'a WAL segment written after start').toBeGreaterThan(0);
        expect(openToOthers(dataDir)).toEqual([]);
        // Nothing to tighten in a folder this version created.
        expect(lines.filter((l) => String(l.msg).startsWith('data folder'))).toEqual([]);
      } finally {
        await ctx.release();
      }
      expect(openToOthers(dataDir)).toEqual([]);
      expect(fs.statSync(path.join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dataDir, 'pglite', 'PG_VERSION')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });

  it('tightens an existing data folder left open to others on start, and says how many entries once, without paths', async () => {
    const dataDir = path.join(root, 'old');
    const first = await open(dataDir);
    await write(first.ctx);
    await first.ctx.release();
    // As an older version (files 0666, folders 0755) or an operator's chmod -R would leave it.
    const loosen = (entry: string) => {
      const stat = fs.lstatSync(entry);
      fs.chmodSync(entry, stat.isDirectory() ? 0o777 : 0o666);
      if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) loosen(path.join(entry, name));
    };
    loosen(dataDir);
    const loose = countEntries(dataDir);
    expect(openToOthers(dataDir)).toHaveLength(loose);

    const { ctx, lines } = await open(dataDir);
    try {
      expect(openToOthers(dataDir)).toEqual([]);
      const said = lines.filter((l) => String(l.msg).startsWith('data folder'));
      expect(said).toHaveLength(1);
      // Every entry but the folder itself, which taking the lock already made 0700.
      expect(said[0]).toMatchObject({ level: 'warn', changed: loose - 1 });
      expect(JSON.stringify(said[0])).not.toContain(root);
      await write(ctx);
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await ctx.release();
    }
  });
});
