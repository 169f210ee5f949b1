import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { setChannelActive } from '../../src/channels/channels.service.ts';
import { rotateClientSecret } from '../../src/channels/channels.service.ts';

describe('Bearer authentication', () => {
  let service: TestService;
  const clock = new ManualClock();

  beforeAll(async () => {
    service = await startTestService({ clock });
  });
  afterAll(() => service.close());

  const ping = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    service.inject({ method: 'GET', url: '/v1/ping', headers, remoteAddress });

  it('answers ping with the channel identity and the database time', async () => {
    const channel = await service.createChannel({ name: 'Fintech Exemplo' });
    const response = await ping(await service.bearer(channel));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.canal).toEqual({ id: channel.canalId, nome: 'Fintech Exemplo' });
    // dbTime comes from the database, not from the (manual) application clock.
    expect(Math.abs(Date.parse(body.dbTime) - Date.now())).toBeLessThan(60_000);
    expect(body.dbTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it.each([
    ['no Authorization header', {}],
    ['a non-Bearer scheme', { authorization: 'Basic Zm9vOmJhcg==' }],
    ['a malformed token', { authorization: 'Bearer abc' }],
    ['an unknown token', { authorization: `Bearer cat_${'x'.repeat(48)}` }],
  ])('401 unauthorized for %s', async (_name, headers) => {
    const response = await ping(headers as Record<string, string>);
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="consigna", error="invalid_token"/);
    expect(response.json()).toEqual({
      code: 'unauthorized',
      message: expect.any(String),
      requestId: response.headers['x-request-id'],
    });
  });

  it('401 for an expired token', async () => {
    const channel = await service.createChannel();
    const headers = await service.bearer(channel);
    clock.advance(3600);
    expect((await ping(headers)).statusCode).toBe(401);
  });

  it('deactivation takes effect on tokens already issued (403), activation restores them', async () => {
    const channel = await service.createChannel();
    const headers = await service.bearer(channel);
    expect((await ping(headers)).statusCode).toBe(200);
    await setChannelActive(service.ctx, channel.canalId, false);
    const denied = await ping(headers);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('forbidden');
    await setChannelActive(service.ctx, channel.canalId, true);
    expect((await ping(headers)).statusCode).toBe(200);
  });

  it('rotating the client secret revokes the tokens issued with the old one', async () => {
    const channel = await service.createChannel();
    const headers = await service.bearer(channel);
    const rotated = await rotateClientSecret(service.ctx, channel.canalId);
    expect((await ping(headers)).statusCode).toBe(401);
    expect((await ping(await service.bearer(rotated))).statusCode).toBe(200);
  });

  describe('IP allow-lists', () => {
    it.each([
      ['IPv4 inside the CIDR', ['198.51.100.0/24'], '198.51.100.200', 200],
      ['IPv4 outside the CIDR', ['198.51.100.0/24'], '198.51.101.1', 403],
      ['a single IPv4 address', ['203.0.113.9'], '203.0.113.9', 200],
      ['IPv4-mapped IPv6 client against an IPv4 rule', ['203.0.113.0/28'], '::ffff:203.0.113.5', 200],
      ['IPv6 inside the CIDR', ['2001:db8:abcd::/48'], '2001:db8:abcd:12::1', 200],
      ['IPv6 outside the CIDR', ['2001:db8:abcd::/48'], '2001:db8:abce::1', 403],
      ['several rules', ['10.0.0.0/8', '2001:db8::/32'], '2001:db8::7', 200],
    ])('%s', async (_name, allowIps, ip, status) => {
      const channel = await service.createChannel({ allowIps });
      // The token is requested from an allowed address, then used from `ip`.
      const allowedIp = allowIps[0]!.includes(':')
        ? allowIps[0]!.split('/')[0]!.replace(/::$/, '::1')
        : allowIps[0]!.split('/')[0]!;
      const tokenResponse = await service.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=client_credentials&client_id=${channel.clientId}&client_secret=${channel.clientSecret}`,
        remoteAddress: allowedIp,
      });
      expect(tokenResponse.statusCode).toBe(200);
      const response = await ping({ authorization: `Bearer ${tokenResponse.json().access_token}` }, ip);
      expect(response.statusCode).toBe(status);
      if (status === 403) expect(response.json().code).toBe('forbidden');
    });

    it('ignores X-Forwarded-For unless CONSIGNA_TRUST_PROXY is set', async () => {
      const channel = await service.createChannel({ allowIps: ['198.51.100.0/24'] });
      const token = await service.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=client_credentials&client_id=${channel.clientId}&client_secret=${channel.clientSecret}`,
        remoteAddress: '198.51.100.1',
      });
      const headers = { authorization: `Bearer ${token.json().access_token}`, 'x-forwarded-for': '198.51.100.7' };
      expect((await ping(headers, '10.9.9.9')).statusCode).toBe(403);

      const proxied = await startTestService({ clock, sameDatabaseAs: service, env: { CONSIGNA_TRUST_PROXY: 'true' } });
      try {
        const viaProxy = await proxied.inject({ method: 'GET', url: '/v1/ping', headers, remoteAddress: '10.9.9.9' });
        expect(viaProxy.statusCode).toBe(200);
      } finally {
        await proxied.close();
      }
    });
  });
});
