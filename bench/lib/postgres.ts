// A fresh PostgreSQL database per run, created on the server named by
// BENCH_DATABASE_URL and dropped at the end (also on SIGINT or an error).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onCleanup } from './cleanup.ts';
import { BenchError } from './process.ts';

export const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  /** DATABASE_URL of the fresh database. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}

async function connect(adminUrl: string): Promise<pg.Client> {
  let parsed: URL;
  try {
    parsed = new URL(adminUrl);
  } catch {
    throw new BenchError('BENCH_DATABASE_URL is not a valid URL (expected postgres://user@host:port/database)');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new BenchError('BENCH_DATABASE_URL must be a postgres:// URL');
  }
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000, application_name: 'consigna-bench' });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    const err = error as Error & { code?: string };
    const reason = err.code === 'ECONNREFUSED' ? 'connection refused' : err.message || err.code || String(error);
    throw new BenchError(
      `Cannot reach PostgreSQL at ${redact(adminUrl)} (${reason}).\n` +
        '    Start PostgreSQL, point BENCH_DATABASE_URL at a server where this user may CREATE DATABASE,\n' +
        '    or skip the PostgreSQL table with --no-postgres.',
    );
  }
  return client;
}

/** Checks that the server answers (fail fast, before anything else runs). */
export async function checkPostgres(adminUrl: string): Promise<string> {
  const client = await connect(adminUrl);
  try {
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `consigna_bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${randomBytes(3).toString('hex')}`;
  const client = await connect(adminUrl);
  try {
    await client.query(`create database "${name}"`);
  } catch (error) {
    throw new BenchError(`Cannot create database ${name} on ${redact(adminUrl)}: ${(error as Error).message}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = onCleanup(`drop database ${name}`, async () => {
    const admin = await connect(adminUrl);
    try {
      await admin.query(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.end();
    }
  });
  return { url: url.toString(), name, drop };
}
