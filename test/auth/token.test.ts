import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
// The secret is random: its last character may already be the replacement (1 in 62), so pick one that differs.
const withLastCharChanged = (secret: string) => `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('POST /v1/oauth/token', () => {
  let service: TestService;
  let channel: IssuedCredentials;
  const clock = new ManualClock();

  beforeAll(async () => {
    service = await startTestService({ clock });
    channel = await service.createChannel();
  });
  afterAll(() => service.close());

  const post = (payload: Record<string, string> | string, headers: Record<string, string> = {}, remoteAddress = '203.0.113.10') =>
    service.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { ...FORM, ...headers },
      payload: typeof payload === 'string' ? payload : new URLSearchParams(payload).toString(),
      remoteAddress,
    });

  it('issues a Bearer token for Basic credentials', async () => {
    const response = await post(
      { grant_type: 'client_credentials' },
      { authorization: basic(channel.clientId, channel.clientSecret) },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-request-id']).toBeTruthy();
    const body = response.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^cat_[A-Za-z0-9]{48}$/),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const ping = await service.inject({
      method: 'GET',
      url: '/v1/ping',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(ping.statusCode).toBe(200);
  });

  it('issues a token for credentials in the body', async () => {
    const response = await post({
      grant_type: 'client_credentials',
      client_id: channel.clientId,
      client_secret: channel.clientSecret,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().token_type).toBe('Bearer');
  });

  // Requests of one event-loop turn share their lookup and their insert (src/auth/token.repository.ts):
  // each must still get its own answer, and each token must belong to its own channel.
  it('answers a concurrent burst of mixed requests each on its own', async () => {
    const other = await service.createChannel({ name: 'Outro' });
    const good = (c: IssuedCredentials) => ({
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: c.clientSecret,
    });
    const payloads = [
      ...[channel, other, channel, other, channel, other].map(good),
      { ...good(channel), client_secret: withLastCharChanged(channel.clientSecret) },
      { ...good(other), client_id: 'cid_naoexiste0000000000000000' },
    ];
    const answers = await Promise.all(payloads.map((p, i) => post(p, {}, `198.18.0.${i + 1}`)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 401, 401]);
    const tokens = answers.slice(0, 6).map((a) => a.json().access_token as string);
    expect(new Set(tokens).size).toBe(6);
    const owners = await Promise.all(
      tokens.map(async (token) => {
        const ping = await service.inject({ method: 'GET', url: '/v1/ping', headers: { authorization: `Bearer ${token}` } });
        return ping.json().canal.id as string;
      }),
    );
    expect(owners).toEqual([channel, other, channel, other, channel, other].map((c) => c.canalId));
  });

  it('stores only a hash of the token', async () => {
    const response = await post({
      grant_type: 'client_credentials',
      client_id: channel.clientId,
      client_secret: channel.clientSecret,
    });
    const token: string = response.json().access_token;
    const rows = await service.ctx.database.db.selectFrom('access_tokens').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Buffer.from(row.token_hash).toString('utf8')).not.toContain(token);
  });

  it('refuses credentials in both the header and the body', async () => {
    const response = await post(
      { grant_type: 'client_credentials', client_id: channel.clientId, client_secret: channel.clientSecret },
      { authorization: basic(channel.clientId, channel.clientSecret) },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_request',
      error_description: expect.any(String),
      requestId: response.headers['x-request-id'],
    });
  });

  it.each([
    ['missing grant_type', { client_id: 'cid_x', client_secret: 'csk_y' }, 'invalid_request'],
    ['another grant', { grant_type: 'password', client_id: 'cid_x', client_secret: 'csk_y' }, 'unsupported_grant_type'],
  ])('%s is 400 %s', async (_name, payload, error) => {
    const response = await post(payload as Record<string, string>);
    expect(response.statusCode).toBe(400);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json().error).toBe(error);
  });

  // RFC 6749 §5.2: "no client authentication included, or unsupported authentication
  // method" is invalid_client. The challenge names Basic when nothing or a header was sent.
  it.each([
    ['no credentials at all', { grant_type: 'client_credentials' }, {}, true],
    ['only client_id', { grant_type: 'client_credentials', client_id: 'cid_x' }, {}, false],
    ['only client_secret', { grant_type: 'client_credentials', client_secret: 'csk_y' }, {}, false],
    ['an empty client_secret', { grant_type: 'client_credentials', client_id: 'cid_x', client_secret: '' }, {}, false],
    ['another scheme', { grant_type: 'client_credentials' }, { authorization: 'Bearer abc' }, true],
    ['Basic that is not base64', { grant_type: 'client_credentials' }, { authorization: 'Basic !!!' }, true],
    [
      'Basic without a colon',
      { grant_type: 'client_credentials' },
      { authorization: `Basic ${Buffer.from('cid_x').toString('base64')}` },
      true,
    ],
  ])('%s is 401 invalid_client', async (_name, payload, headers, challenged) => {
    const failuresBefore = await service.ctx.database.db.selectFrom('auth_failures').select('key').execute();
    const response = await post(payload as Record<string, string>, headers);
    expect(response.statusCode).toBe(401);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      error: 'invalid_client',
      error_description: expect.any(String),
      requestId: response.headers['x-request-id'],
    });
    expect(response.headers['www-authenticate']).toBe(challenged ? 'Basic realm="consigna", charset="UTF-8"' : undefined);
    // No secret was tried: nothing towards the brute-force guard.
    expect(await service.ctx.database.db.selectFrom('auth_failures').select('key').execute()).toEqual(failuresBefore);
  });

  it('refuses a JSON body and repeated parameters with invalid_request', async () => {
    const json = await service.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: channel.clientId,
        client_secret: channel.clientSecret,
      }),
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe('invalid_request');
    const repeated = await post(
      `grant_type=client_credentials&grant_type=client_credentials&client_id=${channel.clientId}&client_secret=${channel.clientSecret}`,
    );
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().error).toBe('invalid_request');
    // No body at all, or another media type: the answer names the form the endpoint takes.
    for (const headers of [{}, { 'content-type': 'text/plain' }]) {
      const bare = await service.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers,
        ...(headers['content-type'] ? { payload: 'x' } : {}),
      });
      expect(bare.statusCode).toBe(400);
      expect(bare.json()).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringContaining('application/x-www-form-urlencoded'),
      });
    }
  });

  describe('gives the same invalid_client answer for every credential failure', () => {
    let inactive: IssuedCredentials;
    let restricted: IssuedCredentials;
    beforeAll(async () => {
      inactive = await service.createChannel({ name: 'Inativo' });
      await service.ctx.database.db.updateTable('channels').set({ active: false }).where('id', '=', inactive.canalId).execute();
      restricted = await service.createChannel({ name: 'Restrito', allowIps: ['198.51.100.0/24'] });
    });

    it.each([
      ['unknown client', () => ({ id: 'cid_doesnotexist000000000000', secret: channel.clientSecret })],
      ['wrong secret', () => ({ id: channel.clientId, secret: withLastCharChanged(channel.clientSecret) })],
      ['inactive channel', () => ({ id: inactive.clientId, secret: inactive.clientSecret })],
      ['IP not allowed', () => ({ id: restricted.clientId, secret: restricted.clientSecret })],
    ])('%s', async (_name, creds) => {
      const { id, secret } = creds();
      const viaBody = await post({ grant_type: 'client_credentials', client_id: id, client_secret: secret }, {}, '192.0.2.77');
      expect(viaBody.statusCode).toBe(401);
      expect(viaBody.headers['www-authenticate']).toBeUndefined();
      expect(viaBody.json()).toEqual({
        error: 'invalid_client',
        error_description: 'Credenciais do cliente inválidas.',
        requestId: viaBody.headers['x-request-id'],
      });

      const viaBasic = await post({ grant_type: 'client_credentials' }, { authorization: basic(id, secret) }, '192.0.2.77');
      expect(viaBasic.statusCode).toBe(401);
      expect(viaBasic.headers['www-authenticate']).toBe('Basic realm="consigna", charset="UTF-8"');
      expect(viaBasic.json().error_description).toBe(viaBody.json().error_description);
    });

    it('accepts the restricted channel from an allowed address', async () => {
      const ok = await post(
        { grant_type: 'client_credentials', client_id: restricted.clientId, client_secret: restricted.clientSecret },
        {},
        '198.51.100.23',
      );
      expect(ok.statusCode).toBe(200);
    });
  });

  describe('brute-force guard', () => {
    it('blocks a client id after 10 failures for 15 minutes, even with the right secret', async () => {
      const victim = await service.createChannel({ name: 'Alvo' });
      // Spread over several IPs so that only the per-client counter trips.
      for (let i = 0; i < 10; i++) {
        const r = await post(
          { grant_type: 'client_credentials', client_id: victim.clientId, client_secret: 'csk_wrong' },
          {},
          `10.1.0.${i + 1}`,
        );
        expect(r.statusCode).toBe(401);
      }
      const blocked = await post(
        { grant_type: 'client_credentials', client_id: victim.clientId, client_secret: victim.clientSecret },
        {},
        '10.1.1.1',
      );
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error).toBe('too_many_attempts');
      expect(blocked.headers['retry-after']).toBe('900');
      expect(blocked.headers['cache-control']).toBe('no-store');

      clock.advance(600);
      const later = await post(
        { grant_type: 'client_credentials', client_id: victim.clientId, client_secret: victim.clientSecret },
        {},
        '10.1.1.1',
      );
      expect(later.statusCode).toBe(429);
      expect(later.headers['retry-after']).toBe('300');

      clock.advance(300);
      const free = await post(
        { grant_type: 'client_credentials', client_id: victim.clientId, client_secret: victim.clientSecret },
        {},
        '10.1.1.1',
      );
      expect(free.statusCode).toBe(200);
    });

    it('blocks an IP after 30 failures, for every client', async () => {
      const ip = '10.2.0.1';
      for (let i = 0; i < 30; i++) {
        const r = await post(
          { grant_type: 'client_credentials', client_id: `cid_random${String(i).padStart(18, '0')}`, client_secret: 'csk_x' },
          {},
          ip,
        );
        expect(r.statusCode).toBe(401);
      }
      const blocked = await post(
        { grant_type: 'client_credentials', client_id: channel.clientId, client_secret: channel.clientSecret },
        {},
        ip,
      );
      expect(blocked.statusCode).toBe(429);
      const elsewhere = await post(
        { grant_type: 'client_credentials', client_id: channel.clientId, client_secret: channel.clientSecret },
        {},
        '10.2.0.2',
      );
      expect(elsewhere.statusCode).toBe(200);
      clock.advance(901);
      const after = await post(
        { grant_type: 'client_credentials', client_id: channel.clientId, client_secret: channel.clientSecret },
        {},
        ip,
      );
      expect(after.statusCode).toBe(200);
    });

    it('forgets failures once the 15-minute window has passed', async () => {
      const user = await service.createChannel({ name: 'Esquecido' });
      for (let i = 0; i < 9; i++)
        await post(
          { grant_type: 'client_credentials', client_id: user.clientId, client_secret: 'csk_bad' },
          {},
          `10.3.0.${i + 1}`,
        );
      clock.advance(901);
      for (let i = 0; i < 9; i++)
        await post(
          { grant_type: 'client_credentials', client_id: user.clientId, client_secret: 'csk_bad' },
          {},
          `10.3.1.${i + 1}`,
        );
      const ok = await post(
        { grant_type: 'client_credentials', client_id: user.clientId, client_secret: user.clientSecret },
        {},
        '10.3.2.1',
      );
      expect(ok.statusCode).toBe(200);
    });
  });

  it('issued tokens expire after expires_in seconds', async () => {
    const response = await post({
      grant_type: 'client_credentials',
      client_id: channel.clientId,
      client_secret: channel.clientSecret,
    });
    const headers = { authorization: `Bearer ${response.json().access_token}` };
    clock.advance(3599);
    expect((await service.inject({ method: 'GET', url: '/v1/ping', headers })).statusCode).toBe(200);
    clock.advance(1);
    const expired = await service.inject({ method: 'GET', url: '/v1/ping', headers });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('unauthorized');
  });
});
