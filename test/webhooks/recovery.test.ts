// POST /v1/webhooks/entregas/reenviar (docs/rules.md §5): after an outage, thousands of
// FALHOU deliveries back to the queue in one call, delivered once each by the real
// worker to a real receiver, in order of occurrence and within the channel's cap; a
// repeat requeues nothing; the date range; the errors; another channel untouched.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { receiverPool } from '../helpers/receiver.ts';
import { waitFor } from '../helpers/wait.ts';
import { FAST_ENV, channelWith } from './support.ts';

let service: TestService;
const receivers = receiverPool();

beforeAll(async () => {
  service = await startTestService({ worker: true, env: { ...FAST_ENV, CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: '8' } });
});
afterAll(async () => {
  await service?.close();
  await receivers.closeAll();
});

const T0 = Date.parse('2026-11-20T00:00:00.000Z');

/** `count` events of the channel, one a second from T0, each with a delivery that FALHOU after 7 attempts. */
async function failedDeliveries(channelId: string, count: number): Promise<void> {
  await sql`
    with e as (
      insert into events (id, channel_id, tipo, payload, ocorrido_em)
      select gen_random_uuid(), ${channelId}, 'proposta.aprovada', '{"n":' || n || '}', ${new Date(T0)}::timestamptz + make_interval(secs => n)
      from generate_series(0, ${count - 1}) as n
      returning id, ocorrido_em
    )
    insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, last_http_status, last_error, last_attempt_at, criado_em)
    select gen_random_uuid(), e.id, ${channelId}, 'proposta.aprovada', 'FALHOU', 7, 503, 'HTTP 503', e.ocorrido_em, e.ocorrido_em from e
  `.execute(service.ctx.database.db);
}

const statuses = async (channelId: string) =>
  (
    await sql<{ status: string; tentativas: number; n: number }>`
      select status, tentativas, count(*)::int as n from deliveries where channel_id = ${channelId} group by 1, 2 order by 1, 2`.execute(
      service.ctx.database.db,
    )
  ).rows;

const recover = (auth: Record<string, string>, body: unknown) =>
  service.inject({
    method: 'POST',
    url: '/v1/webhooks/entregas/reenviar',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

describe('POST /v1/webhooks/entregas/reenviar', () => {
  it('requeues thousands of FALHOU deliveries at once; each is delivered once, in order, within the cap; a repeat takes none', async () => {
    const receiver = await receivers.start();
    const { canalId, auth } = await channelWith(service, receiver.url);
    const other = await channelWith(service, receiver.url);
    await failedDeliveries(canalId, 3000);
    await failedDeliveries(other.canalId, 10);

    const first = await recover(auth, { status: 'FALHOU' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ reenfileiradas: 3000 });
    // The repeat finds them pending (or delivered already): nothing is sent twice.
    expect((await recover(auth, { status: 'FALHOU' })).json()).toEqual({ reenfileiradas: 0 });

    await waitFor(async () => (await statuses(canalId)).some((s) => s.status === 'ENTREGUE' && s.n === 3000), {
      timeoutMs: 60_000,
      what: 'the 3000 recovered deliveries delivered',
    });
    expect(await statuses(canalId)).toEqual([{ status: 'ENTREGUE', tentativas: 1, n: 3000 }]);
    const bodies = receiver.requests.map((r) => JSON.parse(r.body).n as number);
    expect(bodies).toHaveLength(3000);
    expect(new Set(bodies).size).toBe(3000);
    // Oldest first. Sends run 8 at once, so arrivals may swap within a few slots; the
    // worker's buffer keeps each channel's rows in order of occurrence, whatever order
    // the claims return them in (the table's physical order after these rows were
    // updated, and claims answering out of order): measured on PostgreSQL, a mean stray
    // of 0.02-0.03 and at most 9-12 places, against 31.4 and 63 before (dc7157d). And a
    // claim locks only the rows it takes: a row one claim locked to look ahead was
    // skipped by the claim beside it and went out a batch late (64 places once in CI;
    // 32 and 48 in 2 of 7 runs of test/webhooks here, 9-12 in 7 runs since).
    const stray = bodies.map((n, i) => Math.abs(i - n));
    expect(Math.max(...stray)).toBeLessThanOrEqual(3 * 8);
    expect(stray.reduce((a, b) => a + b, 0) / stray.length).toBeLessThan(2);
    expect(bodies.slice(0, 100).every((n) => n < 300)).toBe(true);
    expect(receiver.mostOpen).toBeLessThanOrEqual(8);
    // The other channel's failures stay as they were.
    expect(await statuses(other.canalId)).toEqual([{ status: 'FALHOU', tentativas: 7, n: 10 }]);
  }, 90_000);

  it('takes only what occurred within desde (inclusive) and ate (exclusive)', async () => {
    const receiver = await receivers.start();
    const { canalId, auth } = await channelWith(service, receiver.url);
    await failedDeliveries(canalId, 20);
    const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
    const r = await recover(auth, { status: 'FALHOU', desde: at(5), ate: at(15) });
    expect(r.json()).toEqual({ reenfileiradas: 10 });
    await waitFor(() => receiver.requests.length === 10, { what: 'the ten in range delivered' });
    expect(receiver.requests.map((q) => JSON.parse(q.body).n).toSorted((a, b) => a - b)).toEqual([
      5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    ]);
    expect((await recover(auth, { status: 'FALHOU', ate: at(5) })).json()).toEqual({ reenfileiradas: 5 });
  });

  it('refuses bad input with the field’s code, and needs a webhook', async () => {
    const { auth } = await channelWith(service, (await receivers.start()).url);
    for (const [body, code] of [
      [{}, 'status_invalido'],
      [{ status: 'ENTREGUE' }, 'status_invalido'],
      [{ status: 'FALHOU', desde: 'ontem' }, 'desde_invalido'],
      [{ status: 'FALHOU', ate: '2026-11-22' }, 'ate_invalido'],
      [{ status: 'FALHOU', desde: '2026-11-22T15:00:00Z', ate: '2026-11-22T14:00:00Z' }, 'periodo_invalido'],
      [{ status: 'FALHOU', outro: 1 }, 'requisicao_invalida'],
    ] as const) {
      const r = await recover(auth, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().code, JSON.stringify(body)).toBe(code);
    }
    const { auth: noWebhook } = await channelWith(service);
    const r = await recover(noWebhook, { status: 'FALHOU' });
    expect(r.statusCode).toBe(404);
    expect(r.json().code).toBe('nao_encontrado');
  });
});
