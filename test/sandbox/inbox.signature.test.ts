// The inbox's signature check (docs/rules.md §6): true for a delivery signed with the
// channel's webhook secret, false for a mismatch, null with a reason when it cannot be
// checked (no webhook, header missing or malformed, timestamp outside 5 minutes), and
// both secrets during a rotation, on a ManualClock so the 24-hour window is crossed
// without waiting.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import {
  channelWithInbox,
  channelWithRegisteredInbox,
  expectEventShape,
  listEvents,
  postToInbox,
  signatureFor,
  unixNow,
  type ReceivedEvent,
} from './support.ts';

const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let service: TestService;

beforeAll(async () => {
  // No CONSIGNA_ALLOW_INSECURE_WEBHOOKS: the inbox URL (http, IP literal) is accepted anyway.
  service = await startTestService({ clock });
});
afterAll(() => service?.close());

const registered = () => channelWithRegisteredInbox(service);

/** POSTs `body` with the given signature header (none when undefined) and returns the stored record. */
async function received(
  token: string,
  signature: string | undefined,
  body = '{"id":"evt","tipo":"proposta.criada"}',
): Promise<ReceivedEvent> {
  const r = await postToInbox(service, token, body, signature === undefined ? {} : { 'x-service-signature': signature });
  expect(r.statusCode, r.body).toBe(200);
  const event = (await listEvents(service, token)).eventos[0]!;
  expectEventShape(event);
  return event;
}

describe('inbox signature check', () => {
  it('is true for a real delivery from POST /v1/webhooks/teste signed with the channel secret', async () => {
    const { token, auth, secret } = await registered();
    const test = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: auth });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json()).toMatchObject({ entregue: true, httpStatus: 200 });

    const { eventos } = await listEvents(service, token);
    expect(eventos).toHaveLength(1);
    const event = eventos[0]!;
    expectEventShape(event);
    expect(event).toMatchObject({ tipo: 'webhook.teste', tentativa: '1', assinaturaValida: true, respondeuStatus: 200 });
    expect(event).not.toHaveProperty('motivo');
    expect(event.eventoId).toBe((event.corpo as { id: string }).id);
    expect(event.headers['x-service-event-type']).toBe('webhook.teste');
    expect(event.headers['user-agent']).toMatch(/^Consigna-Webhooks\//);

    // Independently: the raw body as stored, checked with Stripe's own verifier.
    const row = await service.ctx.database.db
      .selectFrom('inbox_events')
      .select(['corpo'])
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    const stripe = new Stripe('sk_test_consigna');
    expect(() =>
      stripe.webhooks.constructEvent(
        row.corpo,
        event.headers['x-service-signature']!,
        secret,
        300,
        undefined,
        clock.now().getTime(),
      ),
    ).not.toThrow();
  });

  it('is true for a request signed by hand with the secret, including at the 5-minute edges', async () => {
    const { token, secret } = await registered();
    const body = '{"id":"manual","tipo":"proposta.aprovada"}';
    const now = unixNow(service);
    for (const t of [now, now - 300, now + 300]) {
      expect((await received(token, signatureFor([secret], t, body), body)).assinaturaValida, `t=${t - now}`).toBe(true);
    }
    // Other schemes beside v1 are ignored; one matching v1 among several suffices.
    const mixed = `${signatureFor(['whsec_outro', secret], now, body)},v0=abc`;
    expect((await received(token, mixed, body)).assinaturaValida).toBe(true);
  });

  it('is false for a wrong signature (other secret, altered body, other timestamp)', async () => {
    const { token, secret } = await registered();
    const body = '{"id":"x"}';
    const now = unixNow(service);
    const cases = {
      'other secret': signatureFor(['whsec_nao_e_este'], now, body),
      'altered body': signatureFor([secret], now, '{"id":"y"}'),
      'timestamp not the signed one': signatureFor([secret], now, body).replace(`t=${now}`, `t=${now - 1}`),
      'one hex digit changed': signatureFor([secret], now, body).replace(
        /v1=(.)/,
        (_m, c: string) => `v1=${c === '0' ? '1' : '0'}`,
      ),
    };
    for (const [what, header] of Object.entries(cases)) {
      const event = await received(token, header, body);
      expect(event.assinaturaValida, what).toBe(false);
      expect(event, what).not.toHaveProperty('motivo');
    }
  });

  it('is null with a motivo when no webhook is registered for the channel', async () => {
    const { token } = await channelWithInbox(service);
    const event = await received(token, signatureFor(['whsec_qualquer'], unixNow(service), '{}'), '{}');
    expect(event.assinaturaValida).toBeNull();
    expect(event.motivo).toMatch(/nenhum webhook/i);
  });

  it('is null with a motivo when the header is missing or malformed', async () => {
    const { token, secret } = await registered();
    const body = '{"id":"z"}';
    const now = unixNow(service);
    const missing = await received(token, undefined, body);
    expect(missing.assinaturaValida).toBeNull();
    expect(missing.motivo).toMatch(/ausente/);
    const blank = await received(token, '   ', body);
    expect(blank.assinaturaValida).toBeNull();
    expect(blank.motivo).toMatch(/ausente/);

    const valid = signatureFor([secret], now, body);
    const v1 = valid.slice(valid.indexOf('v1='));
    const malformed = [
      'lixo',
      v1, // no t
      `t=${now}`, // no v1
      `t=abc,${v1}`,
      `t=${now},t=${now},${v1}`,
      `t=${now},v1=xyz`,
      `t=${now},v1=${'a'.repeat(63)}`,
      `t=${now},,${v1}`,
      `t=${now};${v1}`,
    ];
    for (const header of malformed) {
      const event = await received(token, header, body);
      expect(event.assinaturaValida, header).toBeNull();
      expect(event.motivo, header).toMatch(/malformado/);
    }
  });

  it('is null with a motivo when the timestamp is more than 5 minutes old or ahead', async () => {
    const { token, secret } = await registered();
    const body = '{"id":"t"}';
    const now = unixNow(service);
    for (const t of [now - 301, now - 3600, now + 301, now + 86_400]) {
      // Correctly signed, so only the timestamp is at fault.
      const event = await received(token, signatureFor([secret], t, body), body);
      expect(event.assinaturaValida, `t=${t - now}`).toBeNull();
      expect(event.motivo, `t=${t - now}`).toMatch(/timestamp fora da tolerância de 5 minutos/);
    }
  });

  it('accepts both secrets during a rotation and only the new one after 24 hours', async () => {
    const { token, channel, secret: oldSecret } = await registered();
    const rotated = await service.inject({ method: 'POST', url: '/v1/webhooks/segredo', headers: await service.bearer(channel) });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { segredo: newSecret, segredoAnteriorValidoAte } = rotated.json<{
      segredo: string;
      segredoAnteriorValidoAte: string;
    }>();
    rememberSecret(newSecret);
    expect(newSecret).not.toBe(oldSecret);
    expect(segredoAnteriorValidoAte).toBe(new Date(clock.now().getTime() + 24 * 3600 * 1000).toISOString());

    const body = '{"id":"rot"}';
    const check = async (secrets: string[]) =>
      (await received(token, signatureFor(secrets, unixNow(service), body), body)).assinaturaValida;
    expect(await check([oldSecret])).toBe(true);
    expect(await check([newSecret])).toBe(true);
    expect(await check([newSecret, oldSecret])).toBe(true);

    // A real delivery during the rotation carries both v1 and is valid.
    const test = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: await service.bearer(channel) });
    expect(test.json()).toMatchObject({ entregue: true });
    const delivered = (await listEvents(service, token)).eventos[0]!;
    expect(delivered.tipo).toBe('webhook.teste');
    expect(delivered.headers['x-service-signature']!.match(/v1=/g)).toHaveLength(2);
    expect(delivered.assinaturaValida).toBe(true);

    clock.advance(24 * 3600 - 1);
    expect(await check([oldSecret])).toBe(true);
    clock.advance(2);
    expect(await check([oldSecret])).toBe(false);
    expect(await check([newSecret])).toBe(true);
    expect(await check([newSecret, oldSecret])).toBe(true);
  });
});
