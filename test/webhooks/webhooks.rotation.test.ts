// Secret rotation on a ManualClock: the signature timestamp and the 24-hour window of
// the previous secret both follow ctx.clock, so the window is crossed without waiting.
// Deliveries are checked at a real receiver, by hand and with Stripe's verifier.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { startReceiver, type Receiver, type ReceivedRequest } from '../helpers/receiver.ts';
import { waitFor } from '../helpers/wait.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import {
  FAST_ENV,
  channelWith,
  expectedV1,
  listDeliveries,
  parseSignature,
  proposalLink,
  putWebhook,
  signedWith,
  simulate,
} from './support.ts';

const stripe = new Stripe('sk_test_consigna');
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const DAY = 24 * 3600;

const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let service: TestService;
let r: Receiver;

beforeAll(async () => {
  service = await startTestService({ clock, worker: true, env: FAST_ENV });
  r = await startReceiver();
});

afterAll(async () => {
  await service?.close();
  await r?.close();
});

const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

/** Every v1 of the request, in order, and the secret (if any) each one matches. */
function v1Secrets(request: ReceivedRequest, candidates: Record<string, string>): Array<string | undefined> {
  const { t, v1 } = parseSignature(request.headers['x-service-signature']);
  expect(t).toBe(nowSeconds());
  return v1.map((value) => Object.entries(candidates).find(([, secret]) => expectedV1(secret, t, request.body) === value)?.[0]);
}

function stripeAccepts(request: ReceivedRequest, secret: string): boolean {
  try {
    stripe.webhooks.constructEvent(
      request.body,
      request.headers['x-service-signature'] as string,
      secret,
      300,
      undefined,
      clock.now().getTime(),
    );
    return true;
  } catch {
    return false;
  }
}

async function rotate(auth: Record<string, string>) {
  const response = await service.inject({ method: 'POST', url: '/v1/webhooks/segredo', headers: auth });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  rememberSecret(response.json().segredo);
  return response.json<{ segredo: string; segredoAnteriorValidoAte: string; url: string }>();
}

async function sendTest(auth: Record<string, string>): Promise<ReceivedRequest> {
  const before = r.requests.length;
  const response = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: auth });
  expect(response.json()).toMatchObject({ entregue: true, httpStatus: 200 });
  expect(r.requests).toHaveLength(before + 1);
  return r.requests.at(-1)!;
}

async function deliveredEvents(auth: Record<string, string>, count: number): Promise<ReceivedRequest[]> {
  let ids: string[] = [];
  await waitFor(
    async () => {
      const list = await listDeliveries(service, auth);
      ids = list.filter((d) => d.status === 'ENTREGUE').map((d) => d.eventoId);
      return ids.length >= count;
    },
    { timeoutMs: 10_000, what: `${count} deliveries` },
  );
  return ids.map((id) => r.forEvent(id).at(-1)!);
}

describe('secret rotation', () => {
  it('signs with both secrets for 24 hours, keeps only the newest previous, then signs with one', async () => {
    const { channel, auth, json, secret } = await channelWith(service, r.url);
    const first = secret!;
    expect(first).toMatch(SECRET);

    // Before any rotation: one v1, the first secret; an update does not change it.
    expect((await putWebhook(service, json, { url: r.url, eventos: [] })).statusCode).toBe(200);
    const plain = await sendTest(auth);
    expect(v1Secrets(plain, { first })).toEqual(['first']);
    expect(stripeAccepts(plain, first)).toBe(true);

    // First rotation: new secret, shown once; the previous one valid for exactly 24 h.
    const rotatedAt = clock.now();
    const one = await rotate(auth);
    const second = one.segredo;
    expect(second).toMatch(SECRET);
    expect(second).not.toBe(first);
    expect(one).toMatchObject({
      url: r.url,
      ativo: true,
      segredoAnteriorValidoAte: new Date(rotatedAt.getTime() + DAY * 1000).toISOString(),
    });
    const read = await service.inject({ method: 'GET', url: '/v1/webhooks', headers: auth });
    expect(read.json().segredo).toBeUndefined();
    expect(read.body).not.toContain('whsec_');
    expect(read.json().segredoAnteriorValidoAte).toBe(one.segredoAnteriorValidoAte);

    // Real deliveries during the window carry two v1: the new secret first, then the previous.
    const linkId = await proposalLink(service, auth);
    const during = await deliveredEvents(auth, 2);
    for (const request of [...during, await sendTest(auth)]) {
      expect(v1Secrets(request, { first, second })).toEqual(['second', 'first']);
      expect(stripeAccepts(request, first)).toBe(true);
      expect(stripeAccepts(request, second)).toBe(true);
      expect(signedWith(request, second) && signedWith(request, first)).toBe(true);
    }

    // Second rotation half an hour later, inside the window: only the newest previous survives.
    clock.advance(1800);
    const rotatedAgainAt = clock.now();
    const two = await rotate(auth);
    const third = two.segredo;
    expect(two.segredoAnteriorValidoAte).toBe(new Date(rotatedAgainAt.getTime() + DAY * 1000).toISOString());
    const afterSecond = await sendTest(auth);
    expect(v1Secrets(afterSecond, { first, second, third })).toEqual(['third', 'second']);
    expect(stripeAccepts(afterSecond, first)).toBe(false);
    expect(stripeAccepts(afterSecond, second)).toBe(true);

    // Just before the end of the window both still sign; just after, only the current one.
    // (Access tokens live one hour on the same clock: new ones after each jump.)
    clock.advance(DAY - 1);
    let token = await service.bearer(channel);
    expect(v1Secrets(await sendTest(token), { second, third })).toEqual(['third', 'second']);
    clock.advance(2);
    token = await service.bearer(channel);
    const readAfter = await service.inject({ method: 'GET', url: '/v1/webhooks', headers: token });
    expect(readAfter.json().segredoAnteriorValidoAte).toBeUndefined();
    const afterWindow = await sendTest(token);
    expect(v1Secrets(afterWindow, { second, third })).toEqual(['third']);
    expect(stripeAccepts(afterWindow, second)).toBe(false);
    expect(stripeAccepts(afterWindow, third)).toBe(true);

    // A real delivery after the window: one v1, the current secret.
    await simulate(service, { ...token, 'content-type': 'application/json' }, linkId, 'FORMALIZADA');
    const [latest] = await deliveredEvents(token, 3);
    expect(JSON.parse(latest!.body).tipo).toBe('proposta.formalizada');
    expect(v1Secrets(latest!, { first, second, third })).toEqual(['third']);
  });

  it('rotation without a webhook is 404', async () => {
    const { auth } = await channelWith(service);
    const response = await service.inject({ method: 'POST', url: '/v1/webhooks/segredo', headers: auth });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('nao_encontrado');
  });
});
