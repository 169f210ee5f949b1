// Standard Webhooks headers (docs/rules.md §5.7) beside ours, checked the way a
// receiver would: the `standardwebhooks` package's `new Webhook(secret).verify(rawBody,
// headers)` on what real receivers got (a local HTTP server, and the test inbox reached
// in-process), for worker deliveries, a retry, a resend, the test event and a rotation.
// The signing function itself is checked against node:crypto and the spec's own vector.
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { receiverPool, type ReceivedRequest } from '../helpers/receiver.ts';
import { waitFor } from '../helpers/wait.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { VALID_CPFS } from '../helpers/links.ts';
import { channelWithRegisteredInbox, listEvents } from '../sandbox/support.ts';
import { standardSignatureHeader } from '../../src/webhooks/signature.ts';
import { FAST_ENV, channelWith, listDeliveries, parseSignature, proposalLink, signedWith, type Delivery } from './support.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// base64 of 32 bytes: 43 characters and one `=`.
const V1 = /^v1,[A-Za-z0-9+/]{43}=$/;

/** Independent of src: HMAC-SHA256 keyed with the decoded base64 after `whsec_`, in base64. */
function expectedSignature(secret: string, id: string, t: number | string, rawBody: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return createHmac('sha256', key).update(`${id}.${t}.${rawBody}`, 'utf8').digest('base64');
}

const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

describe('standardSignatureHeader', () => {
  const secret = `whsec_${Buffer.from(Array.from({ length: 32 }, (_, i) => 255 - 7 * i)).toString('base64')}`;
  const id = '01936f3c-7d2a-7b4e-9c1d-2f3a4b5c6d7e';
  const t = 1_700_000_000;
  const body = '{"id":"01936f3c-7d2a-7b4e-9c1d-2f3a4b5c6d7e","mensagem":"Evento de teste — ação ✓"}';

  it('is v1,<base64 HMAC-SHA256 of id.t.body> keyed with the decoded secret (node:crypto known answer)', () => {
    const header = standardSignatureHeader([secret], id, t, body);
    expect(header).toBe(`v1,${expectedSignature(secret, id, t, body)}`);
    expect(header).toMatch(V1);
    // Not keyed with the secret text (that is X-Service-Signature's way).
    const textKeyed = createHmac('sha256', secret).update(`${id}.${t}.${body}`).digest('base64');
    expect(header).not.toBe(`v1,${textKeyed}`);
    // The same answer the reference library computes.
    expect(header).toBe(new Webhook(secret).sign(id, new Date(t * 1000), body));
  });

  it("matches the spec's published test vector", () => {
    const vector = {
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      t: 1614265330,
      body: '{"test": 2432232314}',
      signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    expect(standardSignatureHeader([vector.secret], vector.id, vector.t, vector.body)).toBe(vector.signature);
    expect(`v1,${expectedSignature(vector.secret, vector.id, vector.t, vector.body)}`).toBe(vector.signature);
  });

  it('has one v1 per secret, in the order given, separated by one space', () => {
    const other = newSecret();
    const header = standardSignatureHeader([other, secret], id, t, body);
    expect(header.split(' ')).toEqual([
      `v1,${expectedSignature(other, id, t, body)}`,
      `v1,${expectedSignature(secret, id, t, body)}`,
    ]);
  });

  it('refuses no secret, a fractional timestamp and a secret without a base64 part', () => {
    expect(() => standardSignatureHeader([], id, t, body)).toThrow();
    expect(() => standardSignatureHeader([secret], id, 1.5, body)).toThrow();
    expect(() => standardSignatureHeader(['whsec_'], id, t, body)).toThrow();
  });
});

let service: TestService;
const receivers = receiverPool();

beforeAll(async () => {
  service = await startTestService({ worker: true, env: FAST_ENV });
});

afterAll(async () => {
  await service?.close();
  await receivers.closeAll();
});

/** The request's headers as a receiver's framework hands them over (one string each). */
function headersOf(request: { headers: Record<string, string | string[] | undefined> }): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/** Webhook.verify's answer: the parsed body, or the error it threw. */
function verify(secret: string, rawBody: string, headers: Record<string, string>): unknown {
  try {
    return new Webhook(secret).verify(rawBody, headers);
  } catch (error) {
    return error;
  }
}

/**
 * Every check a receiver of either scheme makes: Standard Webhooks verifies with each of
 * `secrets` (current first) and nothing else, the ids agree, the timestamps are the same
 * second, and X-Service-Signature carries one v1 per secret as before.
 */
function expectBothSchemes(rawBody: string, headers: Record<string, string>, secrets: string[]): void {
  const body = JSON.parse(rawBody) as { id: string };
  expect(body.id).toMatch(UUID);
  expect(headers['webhook-id']).toBe(body.id);
  expect(headers['webhook-id']).toBe(headers['x-service-event-id']);
  const { t, v1 } = parseSignature(headers['x-service-signature']);
  expect(headers['webhook-timestamp']).toBe(String(t));
  expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);

  // One `v1,…` per secret, current first, like the `v1=` of our own header.
  const signatures = headers['webhook-signature']!.split(' ');
  expect(v1).toHaveLength(secrets.length);
  expect(signatures).toEqual(secrets.map((secret) => `v1,${expectedSignature(secret, body.id, t, rawBody)}`));
  for (const signature of signatures) expect(signature).toMatch(V1);

  for (const secret of secrets) {
    expect(verify(secret, rawBody, headers)).toEqual(body);
    expect(signedWith({ headers, body: rawBody } as unknown as ReceivedRequest, secret)).toBe(true);
  }

  // What must fail, so that the checks above mean something.
  const fails = (secret: string, raw: string, h: Record<string, string>) => {
    const answer = verify(secret, raw, h);
    expect(answer).toBeInstanceOf(WebhookVerificationError);
  };
  fails(newSecret(), rawBody, headers);
  fails(secrets[0]!, `${rawBody} `, headers);
  fails(
    secrets[0]!,
    rawBody.replace(
      body.id,
      body.id.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
    ),
    headers,
  );
  fails(secrets[0]!, rawBody, { ...headers, 'webhook-id': `${body.id}x` });
  fails(secrets[0]!, rawBody, { ...headers, 'webhook-timestamp': String(t + 1) });
  fails(secrets[0]!, rawBody, { ...headers, 'webhook-signature': `v1,${expectedSignature(newSecret(), body.id, t, rawBody)}` });
  const { 'webhook-signature': _dropped, ...unsigned } = headers;
  fails(secrets[0]!, rawBody, unsigned);
}

async function deliveredOnce(auth: Record<string, string>, what: string, timeoutMs = 15_000): Promise<Delivery> {
  let found: Delivery | undefined;
  await waitFor(
    async () => {
      found = (await listDeliveries(service, auth)).find((d) => d.status === 'ENTREGUE');
      return found !== undefined;
    },
    { timeoutMs, what },
  );
  return found!;
}

async function sendTest(auth: Record<string, string>): Promise<void> {
  const response = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: auth });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toMatchObject({ entregue: true, httpStatus: 200 });
}

async function rotate(auth: Record<string, string>): Promise<string> {
  const response = await service.inject({ method: 'POST', url: '/v1/webhooks/segredo', headers: auth });
  expect(response.statusCode, response.body).toBe(200);
  const secret = response.json<{ segredo: string }>().segredo;
  rememberSecret(secret);
  return secret;
}

describe('Standard Webhooks headers on real requests', () => {
  it('a delivered proposal event verifies with the standardwebhooks library, beside X-Service-Signature', async () => {
    const r = await receivers.start();
    const { auth, secret } = await channelWith(service, r.url, ['proposta.criada']);
    await proposalLink(service, auth, VALID_CPFS[0]);
    const delivery = await deliveredOnce(auth, 'proposta.criada ENTREGUE');
    const [request] = r.forEvent(delivery.eventoId);
    expect(r.requests).toHaveLength(1);
    expect(request!.headers['webhook-id']).toBe(delivery.eventoId);
    expect(request!.headers['x-service-event-type']).toBe('proposta.criada');
    expectBothSchemes(request!.body, headersOf(request!), [secret!]);
  });

  it('POST /v1/webhooks/teste carries them too', async () => {
    const r = await receivers.start();
    const { auth, secret } = await channelWith(service, r.url);
    await sendTest(auth);
    expect(r.requests).toHaveLength(1);
    const [request] = r.requests;
    expect(r.json(request!)).toMatchObject({ tipo: 'webhook.teste' });
    expectBothSchemes(request!.body, headersOf(request!), [secret!]);
  });

  it('keeps webhook-id across a retry (500 then 200) and a manual resend; each attempt signed anew', async () => {
    const r = await receivers.start({ status: 500 });
    const { auth, secret } = await channelWith(service, r.url, ['proposta.criada']);
    await proposalLink(service, auth, VALID_CPFS[1]);
    await waitFor(() => r.requests.length >= 1, { timeoutMs: 10_000, what: 'the first attempt' });
    r.setStatus(200);
    const delivery = await deliveredOnce(auth, 'ENTREGUE on the retry');
    expect(delivery.tentativas).toBe(2);

    const resent = await service.inject({
      method: 'POST',
      url: `/v1/webhooks/entregas/${delivery.id}/reenviar`,
      headers: auth,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ status: 'ENTREGUE', tentativas: 1 });

    expect(r.requests.map((q) => q.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '1']);
    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual(Array(3).fill(delivery.eventoId));
    // The retry comes ≥ 1 s later: a new timestamp, so a new signature, same message id.
    expect(Number(r.requests[1]!.headers['webhook-timestamp'])).toBeGreaterThan(
      Number(r.requests[0]!.headers['webhook-timestamp']),
    );
    expect(r.requests[1]!.headers['webhook-signature']).not.toBe(r.requests[0]!.headers['webhook-signature']);
    for (const request of r.requests) {
      expect(request.body).toBe(r.requests[0]!.body);
      expectBothSchemes(request.body, headersOf(request), [secret!]);
    }
  });

  it('during a rotation carries one v1 per valid secret, new first: verifies with the new and the old secret', async () => {
    const r = await receivers.start();
    const { auth, secret } = await channelWith(service, r.url, ['proposta.criada']);
    const old = secret!;
    const current = await rotate(auth);
    expect(current).not.toBe(old);

    await proposalLink(service, auth, VALID_CPFS[2]);
    const delivery = await deliveredOnce(auth, 'proposta.criada ENTREGUE after the rotation');
    await sendTest(auth);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[0]!.headers['webhook-id']).toBe(delivery.eventoId);
    for (const request of r.requests) {
      // Our own header keeps its format: t, then one 64-hex v1 per secret.
      expect(request.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(headersOf(request)['webhook-signature']!.split(' ')).toHaveLength(2);
      expectBothSchemes(request.body, headersOf(request), [current, old]);
    }
  });

  it('reaches the test inbox in-process, which stores them and whose stored request verifies', async () => {
    const { auth, token, secret } = await channelWithRegisteredInbox(service);
    await sendTest(auth);
    const [event] = (await listEvents(service, token)).eventos;
    expect(event).toMatchObject({ tipo: 'webhook.teste', assinaturaValida: true });
    expect(Object.keys(event!.headers)).toEqual(expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature']));
    const row = await service.ctx.database.db
      .selectFrom('inbox_events')
      .select('corpo')
      .where('id', '=', event!.id)
      .executeTakeFirstOrThrow();
    expectBothSchemes(row.corpo, event!.headers, [secret]);
  });
});
