// Every date parameter goes through one parser (docs/rules.md §8.9): what the date-time
// format admits but no instant can be (a leap second) is refused with the field's code,
// in the query of both lists and in the body of bulk recovery, instead of reaching the
// database as an invalid date (it was a 500 on both databases).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { channelWithRegisteredInbox } from '../sandbox/support.ts';

describe('date parameters', () => {
  let service: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService();
    ({ auth } = await channelWithRegisteredInbox(service));
  });
  afterAll(() => service?.close());

  const LEAP = ['2026-12-31T23:59:60Z', '2026-06-30T23:59:60.500Z', '2026-11-22T14:00:60-03:00'];

  it('refuses a leap second in desde and ate of GET /v1/eventos and GET /v1/webhooks/entregas', async () => {
    for (const path of ['/v1/eventos', '/v1/webhooks/entregas']) {
      for (const value of LEAP) {
        for (const field of ['desde', 'ate'] as const) {
          const r = await service.inject({ method: 'GET', url: `${path}?${field}=${encodeURIComponent(value)}`, headers: auth });
          expect(r.statusCode, `${path} ${field}=${value}: ${r.body}`).toBe(400);
          expect(r.json()).toMatchObject({ code: `${field}_invalido`, message: expect.stringContaining('ISO 8601') });
        }
      }
    }
  });

  it('refuses a leap second in the body of POST /v1/webhooks/entregas/reenviar, requeuing nothing', async () => {
    for (const value of LEAP) {
      for (const field of ['desde', 'ate'] as const) {
        const r = await service.inject({
          method: 'POST',
          url: '/v1/webhooks/entregas/reenviar',
          headers: auth,
          payload: { status: 'FALHOU', [field]: value },
        });
        expect(r.statusCode, `${field}=${value}: ${r.body}`).toBe(400);
        expect(r.json().code).toBe(`${field}_invalido`);
      }
    }
  });

  it('still takes every instant the format allows, offsets and fractions included', async () => {
    for (const value of [
      '2026-12-31T23:59:59.999Z',
      '2026-11-22T14:00:00-03:00',
      '2026-11-22t14:00:00z',
      '2028-02-29T00:00:00Z',
    ]) {
      const r = await service.inject({ method: 'GET', url: `/v1/eventos?desde=${encodeURIComponent(value)}`, headers: auth });
      expect(r.statusCode, `${value}: ${r.body}`).toBe(200);
    }
  });
});
