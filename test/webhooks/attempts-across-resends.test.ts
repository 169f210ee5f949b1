// Attempts numbered across resends (docs/rules.md §5.13): `tentativas` and `numero` (the
// X-Service-Delivery-Attempt header) count the current series and restart on a resend or
// a bulk recovery; `tentativasTotais`, `ordem` and `reenvio` number every attempt as it
// happened. A real worker and a real receiver on both databases; then the migration's
// backfill of histories recorded before it.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { receiverPool } from '../helpers/receiver.ts';
import { waitFor } from '../helpers/wait.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { FAST_ENV, channelWith, listDeliveries, proposalLink, type Delivery } from './support.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrate, readMigrations } from '../../src/db/migrate.ts';
import { findDeliveryRow, listAttemptRows } from '../../src/webhooks/deliveries.repository.ts';
import { toAttemptResource, toDeliveryResource, type AttemptResource } from '../../src/webhooks/deliveries.service.ts';

type Detailed = Delivery & { historico: AttemptResource[] };

describe('a delivery through failures, a bulk recovery and a manual resend', () => {
  let service: TestService;
  const receivers = receiverPool();
  beforeAll(async () => {
    service = await startTestService({ worker: true, env: FAST_ENV });
  });
  afterAll(async () => {
    await service?.close();
    await receivers.closeAll();
  });

  it('restarts tentativas and numero with each series, and numbers every attempt in order with ordem, reenvio and tentativasTotais', async () => {
    const receiver = await receivers.start({ status: 500 });
    const { auth, json } = await channelWith(service, receiver.url, ['proposta.criada']);
    const linkId = await proposalLink(service, auth);
    const detail = async (id: string): Promise<Detailed> => {
      const response = await service.inject({ method: 'GET', url: `/v1/webhooks/entregas/${id}`, headers: auth });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Detailed>();
    };
    const listed = async (): Promise<Delivery | undefined> => (await listDeliveries(service, auth, `?linkId=${linkId}`))[0];

    // Series 0: seven failures.
    let delivery: Delivery | undefined;
    await waitFor(async () => (delivery = await listed())?.status === 'FALHOU', { timeoutMs: 30_000, what: 'FALHOU' });
    expect(delivery).toMatchObject({ tentativas: 7, tentativasTotais: 7 });
    const id = delivery!.id;

    // Series 1: the bulk recovery, delivered at its first attempt.
    receiver.setStatus(200);
    const recovered = await service.inject({
      method: 'POST',
      url: '/v1/webhooks/entregas/reenviar',
      headers: json,
      payload: JSON.stringify({ status: 'FALHOU' }),
    });
    expect(recovered.json(), recovered.body).toEqual({ reenfileiradas: 1 });
    await waitFor(async () => (delivery = await listed())?.status === 'ENTREGUE', { timeoutMs: 20_000, what: 'recovered' });
    expect(delivery).toMatchObject({ tentativas: 1, tentativasTotais: 8 });

    // Series 2: a manual resend that fails, then its retry delivers.
    receiver.setStatus(500);
    const resent = await service.inject({ method: 'POST', url: `/v1/webhooks/entregas/${id}/reenviar`, headers: auth });
    receiver.setStatus(200);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ status: 'PENDENTE', tentativas: 1, tentativasTotais: 9, ultimoHttpStatus: 500 });
    await waitFor(async () => (delivery = await listed())?.status === 'ENTREGUE', { timeoutMs: 20_000, what: 'the retry' });

    const final = await detail(id);
    const { historico, ...record } = final;
    expect(record).toEqual(delivery);
    expect(record).toMatchObject({ status: 'ENTREGUE', tentativas: 2, tentativasTotais: 10, ultimoHttpStatus: 200 });
    expect(historico.map((a) => [a.numero, a.ordem, a.reenvio, a.httpStatus])).toEqual([
      [1, 1, 0, 500],
      [2, 2, 0, 500],
      [3, 3, 0, 500],
      [4, 4, 0, 500],
      [5, 5, 0, 500],
      [6, 6, 0, 500],
      [7, 7, 0, 500],
      [1, 8, 1, 200],
      [1, 9, 2, 500],
      [2, 10, 2, 200],
    ]);
    // In the order they happened; `numero` is the header each request carried.
    const times = historico.map((a) => Date.parse(a.tentadaEm));
    expect(times).toEqual(times.toSorted((a, b) => a - b));
    expect(receiver.requests.map((q) => Number(q.headers['x-service-delivery-attempt']))).toEqual(historico.map((a) => a.numero));
    expect(historico.at(-1)!.ordem).toBe(final.tentativasTotais);
  });
});

describe('0024_attempts_across_resends: histories recorded before it', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const testDb = await createTestDatabase();
    drop = testDb.drop;
    database = await openDatabase({ databaseUrl: testDb.url, dataDir: 'memory', poolSize: 2 });
    await migrate(
      database,
      readMigrations().filter((m) => m.version < 24),
    );
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const T0 = Date.parse('2026-11-20T12:00:00.000Z');
  type Attempt = [attempt: number, ok: boolean];

  /** A delivery as the code before 0024 left it: its row and its history, oldest first. */
  async function legacy(channelId: string, status: string, tentativas: number, attempts: Attempt[]): Promise<string> {
    const db = database.db;
    const eventId = randomUUID();
    const deliveryId = randomUUID();
    const at = new Date(T0);
    await sql`insert into events (id, channel_id, tipo, payload, ocorrido_em) values (${eventId}, ${channelId}, 'proposta.criada', '{}', ${at})`.execute(
      db,
    );
    await sql`
      insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, criado_em)
      values (${deliveryId}, ${eventId}, ${channelId}, 'proposta.criada', ${status}, ${tentativas},
              ${status === 'PENDENTE' ? at : null}, ${at})
    `.execute(db);
    for (const [i, [attempt, ok]] of attempts.entries()) {
      await sql`
        insert into delivery_attempts (delivery_id, channel_id, attempt, attempted_at, http_status, latency_ms, error)
        values (${deliveryId}, ${channelId}, ${attempt}, ${new Date(T0 + (i + 1) * 1000)}, ${ok ? 200 : 500}, 5,
                ${ok ? null : 'HTTP 500'})
      `.execute(db);
    }
    return deliveryId;
  }

  const fails = (from: number, to: number): Attempt[] => Array.from({ length: to - from + 1 }, (_, i) => [from + i, false]);

  it('numbers each attempt by its series and its place in the whole history, and totals each delivery', async () => {
    const channelId = randomUUID();
    await sql`
      insert into channels (id, name, client_id, secret_hash, created_at, updated_at)
      values (${channelId}, 'Canal', ${`cid_${channelId}`}, '\\x00'::bytea, now(), now())
    `.execute(database.db);
    const cases = {
      // Delivered at its second attempt, never resent.
      plain: await legacy(channelId, 'ENTREGUE', 2, [...fails(1, 1), [2, true]]),
      // FALHOU, resent by hand and delivered.
      resentAfterFailure: await legacy(channelId, 'ENTREGUE', 1, [...fails(1, 7), [1, true]]),
      // Delivered, resent to a failing endpoint, retried once, still pending.
      pendingAfterResend: await legacy(channelId, 'PENDENTE', 2, [[1, true], ...fails(1, 2)]),
      // FALHOU, requeued by the bulk recovery, not tried yet.
      recoveredUntried: await legacy(channelId, 'PENDENTE', 0, fails(1, 7)),
      // Delivered at its third attempt (the first two before 0012), resent and delivered, resent and failed seven times.
      twice: await legacy(channelId, 'FALHOU', 7, [[3, true], [1, true], ...fails(1, 7)]),
      // Finished before the history was kept (0012): nothing to number.
      noHistory: await legacy(channelId, 'FALHOU', 7, []),
    };

    expect(await migrate(database)).toContain('0024_attempts_across_resends');

    const seen = async (id: string) => {
      const row = (await findDeliveryRow(database.db, channelId, id))!;
      const attempts = (await listAttemptRows(database.db, channelId, id, 100)).map(toAttemptResource);
      return {
        tentativas: toDeliveryResource(row).tentativas,
        tentativasTotais: toDeliveryResource(row).tentativasTotais,
        historico: attempts.map((a) => [a.numero, a.ordem, a.reenvio]),
      };
    };
    expect(await seen(cases.plain)).toEqual({
      tentativas: 2,
      tentativasTotais: 2,
      historico: [
        [1, 1, 0],
        [2, 2, 0],
      ],
    });
    expect(await seen(cases.resentAfterFailure)).toEqual({
      tentativas: 1,
      tentativasTotais: 8,
      historico: [...fails(1, 7).map(([n]) => [n, n, 0]), [1, 8, 1]],
    });
    expect(await seen(cases.pendingAfterResend)).toEqual({
      tentativas: 2,
      tentativasTotais: 3,
      historico: [
        [1, 1, 0],
        [1, 2, 1],
        [2, 3, 1],
      ],
    });
    expect(await seen(cases.recoveredUntried)).toEqual({
      tentativas: 0,
      tentativasTotais: 7,
      historico: fails(1, 7).map(([n]) => [n, n, 0]),
    });
    expect(await seen(cases.twice)).toEqual({
      tentativas: 7,
      tentativasTotais: 11,
      historico: [[3, 3, 0], [1, 4, 1], ...fails(1, 7).map(([n]) => [n, n + 4, 2])],
    });
    expect(await seen(cases.noHistory)).toEqual({ tentativas: 7, tentativasTotais: 7, historico: [] });

    // The series count the next resend starts from.
    const resends = await database.db.selectFrom('deliveries').select(['id', 'resends']).execute();
    expect(
      Object.fromEntries(Object.entries(cases).map(([name, id]) => [name, resends.find((r) => r.id === id)!.resends])),
    ).toEqual({
      plain: 0,
      resentAfterFailure: 1,
      pendingAfterResend: 1,
      recoveredUntried: 1,
      twice: 2,
      noHistory: 0,
    });
  });
});
