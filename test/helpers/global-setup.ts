// Once per run, on the embedded database: one migrated PGlite data folder, saved as an
// image that every in-memory test database starts from (test/helpers/pglite-image.ts),
// and one migrated data folder on disk that real `serve` processes start from as a copy
// (test/helpers/processes.ts), instead of running initdb and the migrations again.
// Tests of a fresh start (test/cli/cli.test.ts) still create their clusters from nothing.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import os from 'node:os';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) return async () => {};
  const folder = await mkdtemp(path.join(os.tmpdir(), 'consigna-test-image-'));
  const file = path.join(folder, 'migrated.tar');
  const database = await openDatabase({ dataDir: 'memory' });
  try {
    await migrate(database);
    // Uncompressed: each test database then only reads it.
    await writeFile(file, gunzipSync(await database.dump!()));
  } finally {
    await database.close();
  }
  project.provide('pgliteImage', file);
  const dataDir = path.join(folder, 'data');
  await promisify(execFile)(process.execPath, [path.resolve('bin/consigna.js'), 'migrate'], {
    env: { ...process.env, CONSIGNA_DATA_DIR: dataDir, CONSIGNA_MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'warn' },
  });
  project.provide('embeddedDataDir', dataDir);
  return () => rm(folder, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteImage: string | undefined;
    /** A migrated embedded data folder (CONSIGNA_MASTER_KEY ab…ab) to copy. */
    embeddedDataDir: string | undefined;
  }
}
