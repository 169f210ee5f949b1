// Load shedding and turns (docs/rules.md §8.8): under pressure, the expensive sandbox
// routes answer 503 servico_sobrecarregado with Retry-After while health, the token
// endpoint and the channel API answer as usual; past their turns and queue, the same.
// Pressure is made real: a heap limit every heap passes, or an event loop blocked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';
import { channelWithInbox, postToInbox, type InboxSetup } from '../sandbox/support.ts';

const shedCount = async (service: TestService, motivo: string): Promise<number> => {
  const text = (await service.inject({ method: 'GET', url: '/metrics' })).body;
  return [...text.matchAll(new RegExp(`^consigna_http_shed_total\\{[^}]*motivo="${motivo}"[^}]*\\} (\\d+)`, 'gm'))].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
};

/** The requests every channel needs, which are never shed. */
async function expectCoreAnswers(service: TestService, setup: InboxSetup): Promise<void> {
  expect((await service.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  expect((await service.inject({ method: 'GET', url: '/v1/ping', headers: setup.auth })).statusCode).toBe(200);
  const token = await service.inject({
    method: 'POST',
    url: '/v1/oauth/token',
    headers: {
      authorization: `Basic ${Buffer.from(`${setup.channel.clientId}:${setup.channel.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials',
  });
  expect(token.statusCode).toBe(200);
  expect((await service.inject({ method: 'GET', url: '/v1/eventos', headers: setup.auth })).statusCode).toBe(200);
}

describe('load shedding: a heap past its limit', () => {
  let service: TestService;
  let setup: InboxSetup;
  beforeAll(async () => {
    // Every heap is past a ten-thousandth of V8's limit: the process is under pressure throughout.
    service = await startTestService({ env: { CONSIGNA_SHED_HEAP_RATIO: '0.0001' } });
    setup = await channelWithInbox(service);
    await waitFor(
      async () => /^consigna_under_pressure 1$/m.test((await service.inject({ method: 'GET', url: '/metrics' })).body),
      {
        what: 'the first sample of the heap',
      },
    );
  });
  afterAll(() => service?.close());

  it('sheds every expensive sandbox route with 503 servico_sobrecarregado and Retry-After, and nothing else', async () => {
    const path = `/v1/sandbox/receptor/${setup.token}`;
    const before = await shedCount(service, 'heapUsedBytes');
    for (const request of [
      { method: 'POST', url: path, payload: '{}', headers: { 'content-type': 'application/json' } },
      { method: 'GET', url: `${path}/eventos` },
      { method: 'GET', url: `${path}/eventos/1/corpo` },
      { method: 'GET', url: `${path}/eventos/fluxo` },
    ] as const) {
      const r = await service.inject(request);
      expect(r.statusCode, `${request.method} ${request.url}`).toBe(503);
      expect(r.json()).toMatchObject({ code: 'servico_sobrecarregado', message: expect.stringMatching(/sobrecarregado/) });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The viewer says it as a page.
    const page = await service.inject({ method: 'GET', url: `/sandbox/receptor/${setup.token}` });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['retry-after']).toBeDefined();
    expect(page.body).toContain('Serviço ocupado');
    expect(await shedCount(service, 'heapUsedBytes')).toBe(before + 5);

    await expectCoreAnswers(service, setup);
    // Cheap inbox controls and the customer's journey are not shed either.
    expect((await service.inject({ method: 'PUT', url: `${path}/modo`, payload: { responderStatus: 500 } })).statusCode).toBe(
      200,
    );
  });
});

describe('load shedding: an event loop blocked', () => {
  let service: TestService;
  let setup: InboxSetup;
  beforeAll(async () => {
    service = await startTestService({ env: { CONSIGNA_SHED_EVENT_LOOP_DELAY_MS: '100' } });
    setup = await channelWithInbox(service);
  });
  afterAll(() => service?.close());

  it('sheds while the mean delay of the last second is past the limit, and stops once the loop is free', async () => {
    // Wait for a calm sample first (the service has just started).
    await waitFor(async () => (await postToInbox(service, setup.token, '{}')).statusCode === 200, {
      timeoutMs: 10_000,
      what: 'a calm loop',
    });
    const blockedUntil = Date.now() + 2_500;
    while (Date.now() < blockedUntil) {
      // Blocks this process's loop (the service's too: it runs here) for longer than a sample.
    }
    // The overdue sample runs before the next request is read.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const shed = await postToInbox(service, setup.token, '{}');
    expect(shed.statusCode, shed.body).toBe(503);
    expect(shed.json().code).toBe('servico_sobrecarregado');
    await expectCoreAnswers(service, setup);
    expect(await shedCount(service, 'eventLoopDelay')).toBeGreaterThan(0);
    await waitFor(async () => (await postToInbox(service, setup.token, '{}')).statusCode === 200, {
      timeoutMs: 5_000,
      what: 'the inbox answering again once the loop is free',
    });
  });
});

describe('turns for the expensive routes', () => {
  let service: TestService;
  let setup: InboxSetup;
  beforeAll(async () => {
    service = await startTestService({ env: { CONSIGNA_HEAVY_CONCURRENCY: '1', CONSIGNA_RATE_LIMIT_INBOX: '0/60' } });
    setup = await channelWithInbox(service);
  });
  afterAll(() => service?.close());

  it('runs one at a time, queues 256 more and answers the rest 503; the channel API is not queued behind them', async () => {
    const before = await shedCount(service, 'concorrencia');
    const views = Array.from({ length: 300 }, () => service.inject({ method: 'GET', url: `/sandbox/receptor/${setup.token}` }));
    // While they wait, a channel call goes straight through.
    expect((await service.inject({ method: 'GET', url: '/v1/ping', headers: setup.auth })).statusCode).toBe(200);
    const statuses = (await Promise.all(views)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(257);
    expect(statuses.filter((s) => s === 503)).toHaveLength(43);
    expect(await shedCount(service, 'concorrencia')).toBe(before + 43);
    // Once they are done, the next one has its turn at once.
    expect((await service.inject({ method: 'GET', url: `/sandbox/receptor/${setup.token}` })).statusCode).toBe(200);
  });
});
