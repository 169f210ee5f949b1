// A delivery queue for the stage tests: a fresh database (PostgreSQL with DATABASE_URL,
// otherwise PGlite), migrated, the configuration read as the service reads it, and
// channels whose webhooks point at real receivers.
import { migratedImage } from '../../helpers/pglite-image.ts';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { openDatabase } from '../../../src/db/database.ts';
import { migrate } from '../../../src/db/migrate.ts';
import { deriveKeys } from '../../../src/crypto/keys.ts';
import { systemClock } from '../../../src/clock.ts';
import { loadConfig } from '../../../src/config/config.ts';
import { createLogger } from '../../../src/observability/logger.ts';
import { createChannel } from '../../../src/channels/channels.service.ts';
import { registerWebhook } from '../../../src/webhooks/webhooks.service.ts';
import { claimDue } from '../../../src/webhooks/delivery/sql/claim-due.ts';
import type { ClaimedDelivery } from '../../../src/webhooks/delivery/types.ts';
import { createTestDatabase } from '../../helpers/db.ts';

export type Queue = Awaited<ReturnType<typeof openQueue>>;

export async function openQueue(env: Record<string, string> = {}) {
  const testDb = await createTestDatabase();
  const database = await openDatabase({ databaseUrl: testDb.url, dataDir: 'memory', poolSize: 4, image: await migratedImage() });
  await migrate(database);
  const config = loadConfig({
    PUBLIC_BASE_URL: 'http://127.0.0.1:9',
    CONSIGNA_MASTER_KEY: randomBytes(32).toString('hex'),
    CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
    CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1',
    ...env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const deps = {
    database,
    db: database.db,
    keys: deriveKeys(randomBytes(32)),
    clock: systemClock,
    config,
    log: createLogger('info', sink),
  };
  return {
    ...deps,
    logs,
    /** A channel with its webhook at `url`; its id. */
    async channel(url: string): Promise<string> {
      const { canalId } = await createChannel(deps, { name: 'Canal' });
      await registerWebhook(deps, canalId, { url });
      return canalId;
    },
    /** `count` events of the channel, each with its due delivery, oldest first, in one statement. */
    async enqueue(channelId: string, count: number, dueInMs = 0): Promise<void> {
      await sql`
        with e as (
          insert into events (id, channel_id, tipo, payload, ocorrido_em)
          select gen_random_uuid(), ${channelId}, 'proposta.aprovada', '{"n":' || n || '}',
            now() - make_interval(secs => (${count} - n) / 1000.0)
          from generate_series(0, ${count - 1}) as n
          returning id, ocorrido_em
        )
        insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, criado_em)
        select gen_random_uuid(), e.id, ${channelId}, 'proposta.aprovada', 'PENDENTE', 0,
          e.ocorrido_em + make_interval(secs => ${dueInMs / 1000}), e.ocorrido_em
        from e
      `.execute(database.db);
    },
    /** Claims the due rows of these channels (every channel: none given), as a worker's claim would. */
    async claim(...channelIds: string[]): Promise<ClaimedDelivery[]> {
      const others = await database.db.selectFrom('webhooks').select('channel_id').execute();
      const limits = new Map<string, number>();
      if (channelIds.length > 0)
        for (const { channel_id } of others) limits.set(channel_id, channelIds.includes(channel_id) ? 100 : 0);
      return (await claimDue(database.db, new Date(), 100, config.worker.leaseSeconds, { limits })).rows;
    },
    /** The channel's deliveries: status, attempts, and whether a lease holds them. */
    async rows(channelId: string) {
      return database.db
        .selectFrom('deliveries')
        .select(['id', 'status', 'tentativas', 'lease_id', 'next_attempt_at'])
        .where('channel_id', '=', channelId)
        .execute();
    },
    async close(): Promise<void> {
      await database.close();
      await testDb.drop();
    },
  };
}
