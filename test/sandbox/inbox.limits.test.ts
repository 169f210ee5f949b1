// The inbox's two limits: it keeps only the 50 newest events (older rows deleted in
// the transaction that stores a new one), and each token is rate limited on the
// public token endpoints (429 limite_excedido with Retry-After).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { hashInboxToken } from '../../src/webhooks/inbox-address.ts';
import { channelWithInbox, listEvents, postToInbox } from './support.ts';

describe('the 50-event cap', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service?.close());

  /** Rows in inbox_events for the inbox of `token`, straight from the table. */
  async function tableIds(token: string): Promise<number[]> {
    const rows = await service.ctx.database.db
      .selectFrom('inbox_events')
      .innerJoin('inboxes', 'inboxes.id', 'inbox_events.inbox_id')
      .select('inbox_events.id')
      .where('inboxes.token_hash', '=', hashInboxToken(service.ctx, token))
      .orderBy('inbox_events.id', 'desc')
      .execute();
    return rows.map((r) => r.id);
  }

  it('keeps only the 50 newest, deleting older rows as each new one is stored', async () => {
    const { token } = await channelWithInbox(service);
    const other = await channelWithInbox(service);
    await postToInbox(service, other.token, '{"outro":true}');

    const posted: number[] = [];
    for (let n = 0; n < 55; n++) {
      expect((await postToInbox(service, token, JSON.stringify({ n }))).statusCode).toBe(200);
      const ids = await tableIds(token);
      posted.push(ids[0]!);
      // Never more than 50 rows, right after each request: no later clean-up pass.
      expect(ids).toHaveLength(Math.min(n + 1, 50));
    }

    const { eventos } = await listEvents(service, token);
    expect(eventos).toHaveLength(50);
    expect(eventos.map((e) => e.id)).toEqual(posted.slice(5).toReversed());
    expect(eventos.map((e) => (e.corpo as { n: number }).n)).toEqual(Array.from({ length: 50 }, (_, i) => 54 - i));
    expect(await tableIds(token)).toEqual(posted.slice(5).toReversed());
    // Another inbox keeps its own events.
    expect((await listEvents(service, other.token)).eventos).toHaveLength(1);
  });

  it('holds exactly under concurrent receipts', async () => {
    const { token } = await channelWithInbox(service);
    for (let n = 0; n < 45; n++) await postToInbox(service, token, JSON.stringify({ n }));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postToInbox(service, token, JSON.stringify({ n: 45 + i }))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const ids = await tableIds(token);
    expect(ids).toHaveLength(50);
    const { eventos } = await listEvents(service, token);
    expect(eventos.map((e) => e.id)).toEqual(ids);
    // The 50 kept are the 50 newest: every n from 15 up.
    expect(eventos.map((e) => (e.corpo as { n: number }).n).toSorted((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => 15 + i),
    );
  });
});

describe('per-token rate limit on the public inbox endpoints', () => {
  let service: TestService;
  const clock = new ManualClock('2026-11-22T12:00:10.000Z');
  beforeAll(async () => {
    service = await startTestService({
      clock,
      env: { CONSIGNA_RATE_LIMIT_INBOX: '3/60', CONSIGNA_RATE_LIMIT_UNKNOWN_TOKEN: '3/60' },
    });
  });
  afterAll(() => service?.close());

  it('answers 429 limite_excedido with Retry-After once a token spent its budget, on every token endpoint', async () => {
    const a = await channelWithInbox(service);
    const b = await channelWithInbox(service);
    const json = { 'content-type': 'application/json' };

    // The budget is shared by the four token endpoints (and the viewer page).
    const first = await service.inject({ method: 'GET', url: `${a.path}/eventos` });
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('3');
    expect(first.headers['ratelimit-remaining']).toBe('2');
    expect(
      (await service.inject({ method: 'PUT', url: `${a.path}/modo`, headers: json, payload: '{"responderStatus":202}' }))
        .statusCode,
    ).toBe(200);
    expect((await postToInbox(service, a.token, '{}')).statusCode).toBe(202);

    const refused = [
      await service.inject({ method: 'GET', url: `${a.path}/eventos` }),
      await service.inject({ method: 'PUT', url: `${a.path}/modo`, headers: json, payload: '{"responderStatus":200}' }),
      await postToInbox(service, a.token, '{}'),
      await service.inject({ method: 'DELETE', url: `${a.path}/eventos` }),
    ];
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(429);
      expect(r.json()).toEqual({ code: 'limite_excedido', message: expect.any(String), requestId: r.headers['x-request-id'] });
      expect(r.headers['retry-after']).toBe('50');
    }
    const page = await service.inject({ method: 'GET', url: `/sandbox/receptor/${a.token}` });
    expect(page.statusCode).toBe(429);
    expect(page.headers['retry-after']).toBe('50');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Muitas requisições');

    // Nothing was stored or changed by the refused requests.
    const row = await service.ctx.database.db
      .selectFrom('inboxes')
      .select('responder_status')
      .where('channel_id', '=', a.channel.canalId)
      .executeTakeFirstOrThrow();
    expect(row.responder_status).toBe(202);

    // Another token has its own budget; the Bearer endpoints are not under this limit.
    expect((await service.inject({ method: 'GET', url: `${b.path}/eventos` })).statusCode).toBe(200);
    expect((await service.inject({ method: 'PUT', url: '/v1/sandbox/receptor', headers: a.auth })).statusCode).toBe(200);
    expect((await service.inject({ method: 'DELETE', url: '/v1/sandbox/receptor/eventos', headers: a.auth })).statusCode).toBe(
      204,
    );

    // Deliveries from the service itself go straight in and are not limited.
    const registered = await service.inject({
      method: 'PUT',
      url: '/v1/webhooks',
      headers: a.json,
      payload: JSON.stringify({ url: a.inbox.url }),
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const test = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: a.auth });
    expect(test.json()).toMatchObject({ entregue: true, httpStatus: 202 });

    // A new window starts afresh.
    clock.advance(50);
    const later = await service.inject({ method: 'GET', url: `${a.path}/eventos` });
    expect(later.statusCode).toBe(200);
    expect(later.json().eventos.map((e: { tipo: string }) => e.tipo)).toEqual(['webhook.teste']);
  });

  it('counts requests for unknown tokens per source address, whatever the token', async () => {
    const unknown = (i: number) => `/v1/sandbox/receptor/sbx_${String(i).padStart(32, 'Z')}/eventos`;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await service.inject({ method: 'GET', url: unknown(i) })).statusCode);
    expect(statuses).toEqual([404, 404, 404, 429]);
  });
});
