import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { usingPostgres } from '../helpers/db.ts';
import { createLinkVia } from '../helpers/links.ts';
import { RateLimiter } from '../../src/http/rate-limit.ts';

describe('rate limits', () => {
  let service: TestService;
  const clock = new ManualClock('2026-11-22T12:00:10.000Z');

  beforeAll(async () => {
    service = await startTestService({
      clock,
      env: { CONSIGNA_RATE_LIMIT_API: '5/60', CONSIGNA_RATE_LIMIT_INBOX: '4/60', CONSIGNA_RATE_LIMIT_JOURNEY: '3/60' },
    });
  });
  afterAll(() => service.close());

  it('limits each channel on the /v1 API with RateLimit headers, 429 limite_excedido and Retry-After', async () => {
    const channel = await service.createChannel();
    const auth = await service.bearer(channel);
    const other = await service.bearer(await service.createChannel({ name: 'Outro' }));
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 6; i++) {
      last = await service.inject({ method: 'GET', url: '/v1/ping', headers: auth });
      statuses.push(last.statusCode);
      if (i === 0) {
        expect(last.headers['ratelimit-limit']).toBe('5');
        expect(last.headers['ratelimit-remaining']).toBe('4');
        expect(last.headers['ratelimit-reset']).toBe('50');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last!.json()).toEqual({
      code: 'limite_excedido',
      message: expect.any(String),
      requestId: last!.headers['x-request-id'],
    });
    expect(last!.headers['retry-after']).toBe('50');
    // Another channel has its own budget.
    expect((await service.inject({ method: 'GET', url: '/v1/ping', headers: other })).statusCode).toBe(200);
    // A new window starts afresh.
    clock.advance(50);
    expect((await service.inject({ method: 'GET', url: '/v1/ping', headers: auth })).statusCode).toBe(200);
  });

  it('limits each inbox token on the public inbox endpoints', async () => {
    const channel = await service.createChannel();
    const auth = await service.bearer(channel);
    const inbox = (await service.inject({ method: 'PUT', url: '/v1/sandbox/receptor', headers: auth })).json();
    const path = new URL(inbox.url).pathname;
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await service.inject({ method: 'GET', url: `${path}/eventos` })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const post = await service.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(post.statusCode).toBe(429);
    expect(post.json().code).toBe('limite_excedido');
  });

  it('still counts this process’s hits while they are being written to the shared row', async () => {
    const limiter = new RateLimiter(service.ctx);
    const limit = { max: 3, windowSeconds: 60 };
    for (let i = 0; i < 3; i++) expect(limiter.hit('in-flight:key', limit).allowed).toBe(true);
    const syncing = limiter.sync(); // the three are on their way to the database, not yet back
    expect(limiter.hit('in-flight:key', limit).allowed).toBe(false);
    await syncing;
    expect(limiter.hit('in-flight:key', limit).allowed).toBe(false);
    limiter.close();
  });

  it('limits each link token on the hosted pages, with a pt-BR page', async () => {
    const channel = await service.createChannel();
    const link = (await createLinkVia(service, await service.bearer(channel), { cpf: '12345678909' })).json();
    const path = new URL(link.url).pathname;
    const statuses = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await service.inject({ method: 'GET', url: path });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers['content-type']).toContain('text/html');
    expect(last!.body).toContain('Muitas tentativas');
    expect(last!.headers['retry-after']).toBeDefined();
  });

  it('shares counts across processes through the database', async () => {
    const second = usingPostgres()
      ? await startTestService({
          clock,
          database: service.database,
          env: { CONSIGNA_MASTER_KEY: service.config.masterKey!.toString('hex') },
        })
      : await startTestService({ clock, sameDatabaseAs: service });
    try {
      const a = new RateLimiter(service.ctx);
      const b = new RateLimiter(second.ctx);
      const limit = { max: 10, windowSeconds: 60 };
      for (let i = 0; i < 6; i++) expect(a.hit('shared:key', limit).allowed).toBe(true);
      await a.sync();
      for (let i = 0; i < 4; i++) expect(b.hit('shared:key', limit).allowed).toBe(true);
      await b.sync();
      // b now knows the total is 10: the next request is refused in b, and in a after its sync.
      expect(b.hit('shared:key', limit).allowed).toBe(false);
      a.hit('shared:key', { max: 100, windowSeconds: 60 });
      await a.sync();
      expect(a.hit('shared:key', limit).allowed).toBe(false);
      a.close();
      b.close();
    } finally {
      await second.close();
    }
  });
});
