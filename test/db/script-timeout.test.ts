// A request's statement is given up after the pool's query timeout, a script's
// (migrations: index builds and backfills of millions of rows) only after hours: with
// the request's bound, a long migration failed at start-up and rolled back.
import { afterAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../helpers/db.ts';

describeOnPostgres('statement timeouts', () => {
  let test: TestDatabase | undefined;
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
    await test?.drop();
  });

  it('gives up a slow request statement, never a slow script', async () => {
    test = await createTestDatabase();
    database = await openDatabase({ databaseUrl: test.url, queryTimeoutMs: 300 });
    await expect(
      database.scriptTransaction(async (tx) => {
        await tx.exec('select pg_sleep(0.8); select 1');
        return tx.query<{ n: number }>('select 1 as n where pg_sleep(0.8) is not null');
      }),
    ).resolves.toEqual([{ n: 1 }]);
    await expect(sql`select pg_sleep(0.8)`.execute(database.db)).rejects.toThrow(/timeout/i);
  });
});
