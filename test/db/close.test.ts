import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/db.ts';

describe('closing the database', () => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.drop());

  // Migrations talk to the database without the query builder; a close right after
  // them once left the embedded database open and answering.
  it('refuses queries once closed, even when only migrations ran', async () => {
    database = usingPostgres() ? await createTestDatabase() : undefined;
    const db = await openDatabase({ databaseUrl: database?.url, dataDir: 'memory' });
    await migrate(db);
    await db.close();
    await expect(db.db.selectFrom('channels').select('id').execute()).rejects.toThrow();
  });
});
