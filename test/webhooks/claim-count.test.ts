// A drain spends its database work on rows, not on empty claims (issue 14). A claim in
// which every channel the worker knows is limited to nothing (it already holds enough of
// them) comes back empty: before this was fixed, at the start of every 20,000-event
// drain one claim in two did, every 3-5 ms, each one statement and one commit. Here a
// real worker drains one channel into a real receiver, and every claim it makes is
// counted on the way to the database.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { waitFor } from '../helpers/wait.ts';
import { channelWith, FAST_ENV } from './support.ts';
import { sql } from 'kysely';
import { DELIVERIES_CHANNEL } from '../../src/events/outbox.ts';
import type * as ClaimDue from '../../src/webhooks/delivery/sql/claim-due.ts';

const claims = vi.hoisted(() => [] as Array<{ rows: number; recorded: number }>);

vi.mock('../../src/webhooks/delivery/sql/claim-due.ts', async (original) => {
  const actual = await original<typeof ClaimDue>();
  return {
    ...actual,
    claimDue: async (...args: Parameters<typeof actual.claimDue>) => {
      const claim = await actual.claimDue(...args);
      claims.push({ rows: claim.rows.length, recorded: args[4]?.record?.length ?? 0 });
      return claim;
    },
  };
});

describe('claims while one channel drains', () => {
  let service: TestService | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await service?.close();
    await receiver?.close();
  });

  it('come back with rows: a claim limited to nothing is not made', async () => {
    service = await startTestService({
      worker: true,
      env: { ...FAST_ENV, CONSIGNA_WORKER_CONCURRENCY: '16', CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: '8' },
    });
    receiver = await startReceiver();
    const channel = await channelWith(service, receiver.url);
    const count = 600;
    claims.length = 0;
    // One short statement and one notification, as a burst of state changes would leave
    // them: a long transaction would hold back what other test files on the same
    // PostgreSQL may list (a list shows what every running transaction is newer than).
    await sql`
      with e as (
        insert into events (id, channel_id, tipo, payload, ocorrido_em)
        select gen_random_uuid(), ${channel.canalId}, 'proposta.aprovada', '{"n":' || n || '}',
          now() - make_interval(secs => (${count} - n) / 1000.0)
        from generate_series(0, ${count - 1}) as n
        returning id, ocorrido_em
      )
      insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, criado_em)
      select gen_random_uuid(), e.id, ${channel.canalId}, 'proposta.aprovada', 'PENDENTE', 0, e.ocorrido_em, e.ocorrido_em from e
    `.execute(service.ctx.database.db);
    await sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(service.ctx.database.db);
    service.worker!.wake();
    await waitFor(() => receiver!.requests.length >= count, { timeoutMs: 30_000, what: 'every event delivered' });
    await waitFor(async () => (await countDelivered(service!, channel.canalId)) === count, {
      timeoutMs: 10_000,
      what: 'every result recorded',
    });

    const empty = claims.filter((c) => c.rows === 0);
    // The drain needs 600 rows in claims of at most one channel's holding (16 × 8 here):
    // a handful of claims, and at most the last one or two finding the queue empty.
    expect(claims.reduce((sum, c) => sum + c.rows, 0)).toBe(count);
    expect(empty.length, JSON.stringify(claims)).toBeLessThanOrEqual(3);
  });
});

async function countDelivered(service: TestService, channelId: string): Promise<number> {
  const row = await service.ctx.database.db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('channel_id', '=', channelId)
    .where('status', '=', 'ENTREGUE')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
