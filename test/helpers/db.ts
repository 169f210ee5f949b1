import { describe } from 'vitest';
// Each test file gets its own database: a fresh PostgreSQL database when
// DATABASE_URL is set (CI runs the suite both ways), otherwise an in-memory PGlite.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  /** undefined means embedded PGlite. */
  url: string | undefined;
  kind: 'postgres' | 'pglite';
  drop(): Promise<void>;
}

export const usingPostgres = (): boolean => Boolean(process.env.DATABASE_URL);

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return { url: undefined, kind: 'pglite', drop: async () => {} };
  const name = `consigna_t_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: 'postgres',
    drop: () => withAdmin(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * `describe` for tests that need a PostgreSQL server (real processes sharing one
 * database, a server that goes away…). On the embedded database they are skipped with
 * one visible line saying what they need.
 */
export function describeOnPostgres(title: string, body: () => void): void {
  if (usingPostgres()) {
    describe(title, body);
    return;
  }
  console.info(`[skipped: needs PostgreSQL] ${title}: run with DATABASE_URL=postgres://… to include it (CI does).`);
  describe.skip(title, body);
}

/**
 * `describe` for tests of what only the embedded database has (its backup and restore:
 * PostgreSQL has its own tools). With DATABASE_URL set they are skipped with one visible
 * line saying what they need and why.
 */
export function describeOnEmbedded(title: string, why: string, body: () => void): void {
  if (!usingPostgres()) {
    describe(title, body);
    return;
  }
  console.info(`[skipped: needs the embedded database] ${title}: ${why}; run without DATABASE_URL to include it (CI does).`);
  describe.skip(title, body);
}
