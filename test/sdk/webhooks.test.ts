// verifyWebhook against the shared vectors and each way a delivery can be wrong;
// createWebhookHandler as a real node:http receiver of a real service's deliveries
// (test event and proposal events, before and during a secret rotation); the
// Fastify recipe of the SDK's README.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type net from 'node:net';
import Fastify from 'fastify';
import {
  Consigna,
  WebhookSignatureError,
  createWebhookHandler,
  verifyWebhook,
  type ConsignaEvent,
  type DeliveryInfo,
  type WebhookSignatureReason,
} from '../../packages/sdk/src/index.ts';
import { signatureHeader } from '../../src/webhooks/signature.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { waitFor } from '../helpers/wait.ts';
import { malformedHeaders, signatureVectors } from '../vectors/signatures.ts';

const vectors = signatureVectors;
const SECRET = 'whsec_AwoRGB8mLTQ7QklQV15lbHN6gYiPlp2kq7K5wMfO1dw=';
const OTHER = 'whsec_//r18Ovm4dzX0s3Iw765tK+qpaCblpGMh4J9eHNuaWQ=';
const BODY = vectors[0]!.body;
const T = 1795360000;
const at = (seconds: number) => ({ now: seconds * 1000 });

function reason(fn: () => unknown): WebhookSignatureReason {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookSignatureError);
    return (error as WebhookSignatureError).reason;
  }
  throw new Error('expected a WebhookSignatureError');
}

describe('verifyWebhook', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('shared vector: %s', (_name, vector) => {
    const event = verifyWebhook(vector.body, vector.header, vector.secrets, at(vector.timestamp));
    expect(event).toEqual(JSON.parse(vector.body));
    // Bytes work as well as text (the unicode vector proves no re-encoding happens).
    expect(verifyWebhook(Buffer.from(vector.body, 'utf8'), vector.header, vector.secrets, at(vector.timestamp))).toEqual(event);
    expect(verifyWebhook(new TextEncoder().encode(vector.body), vector.header, vector.secrets, at(vector.timestamp))).toEqual(
      event,
    );
  });

  it('rotation: a header with two v1 verifies with either secret alone, or both', () => {
    const rotation = vectors.find((v) => v.header.split('v1=').length === 3)!;
    for (const secrets of [[rotation.secrets[0]!], [rotation.secrets[1]!], rotation.secrets, [...rotation.secrets].reverse()]) {
      expect(verifyWebhook(rotation.body, rotation.header, secrets, at(rotation.timestamp)).id).toBe(
        JSON.parse(rotation.body).id,
      );
    }
    // The receiver still holding only the old secret, and one already on the new one, both accept.
    const header = signatureHeader([OTHER, SECRET], T, BODY);
    expect(verifyWebhook(BODY, header, SECRET, at(T)).tipo).toBe('proposta.criada');
    expect(verifyWebhook(BODY, header, OTHER, at(T)).tipo).toBe('proposta.criada');
    expect(reason(() => verifyWebhook(BODY, header, 'whsec_outro', at(T)))).toBe('no_matching_signature');
  });

  it('a tampered body or the wrong secret: no_matching_signature', () => {
    const header = signatureHeader([SECRET], T, BODY);
    expect(reason(() => verifyWebhook(BODY.replace('5000', '50000'), header, SECRET, at(T)))).toBe('no_matching_signature');
    expect(reason(() => verifyWebhook(BODY + '\n', header, SECRET, at(T)))).toBe('no_matching_signature');
    expect(reason(() => verifyWebhook(JSON.stringify(JSON.parse(BODY), null, 2), header, SECRET, at(T)))).toBe(
      'no_matching_signature',
    );
    expect(reason(() => verifyWebhook(BODY, header, OTHER, at(T)))).toBe('no_matching_signature');
    // The secret is the whole text, prefix included, never its decoded base64.
    expect(reason(() => verifyWebhook(BODY, header, SECRET.slice('whsec_'.length), at(T)))).toBe('no_matching_signature');
    // A signature of another timestamp does not carry over.
    const replayed = header.replace(`t=${T}`, `t=${T + 1}`);
    expect(reason(() => verifyWebhook(BODY, replayed, SECRET, at(T)))).toBe('no_matching_signature');
  });

  it('stale and future timestamps: timestamp_outside_tolerance, at exactly the tolerance still valid', () => {
    const header = signatureHeader([SECRET], T, BODY);
    expect(verifyWebhook(BODY, header, SECRET, at(T + 300)).id).toBeDefined();
    expect(verifyWebhook(BODY, header, SECRET, at(T - 300)).id).toBeDefined();
    expect(reason(() => verifyWebhook(BODY, header, SECRET, at(T + 301)))).toBe('timestamp_outside_tolerance');
    expect(reason(() => verifyWebhook(BODY, header, SECRET, at(T - 301)))).toBe('timestamp_outside_tolerance');
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: new Date((T + 86_400) * 1000) }))).toBe(
      'timestamp_outside_tolerance',
    );
    expect(verifyWebhook(BODY, header, SECRET, { now: (T + 3000) * 1000, toleranceSeconds: 3600 }).id).toBeDefined();
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: (T + 61) * 1000, toleranceSeconds: 60 }))).toBe(
      'timestamp_outside_tolerance',
    );
    // Default "now" is the system clock.
    const wallClock = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(BODY, signatureHeader([SECRET], wallClock, BODY), SECRET).id).toBeDefined();
    const message = (() => {
      try {
        verifyWebhook(BODY, signatureHeader([SECRET], wallClock - 1000, BODY), SECRET);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/fora da tolerância de 300 s/);
  });

  it('missing and malformed headers, with status 400; signature errors with 401', () => {
    expect(reason(() => verifyWebhook(BODY, undefined, SECRET, at(T)))).toBe('missing_header');
    expect(reason(() => verifyWebhook(BODY, '', SECRET, at(T)))).toBe('missing_header');
    expect(reason(() => verifyWebhook(BODY, null, SECRET, at(T)))).toBe('missing_header');
    for (const bad of malformedHeaders(T)) {
      expect([bad, reason(() => verifyWebhook(BODY, bad, SECRET, at(T)))]).toEqual([bad, 'malformed_header']);
    }
    // Other schemes are ignored, as they should be.
    const header = signatureHeader([SECRET], T, BODY);
    expect(verifyWebhook(BODY, `${header},v0=abc`, SECRET, at(T)).id).toBeDefined();
    expect(new WebhookSignatureError('malformed_header', 'x').status).toBe(400);
    expect(new WebhookSignatureError('no_matching_signature', 'x').status).toBe(401);
    expect(new WebhookSignatureError('timestamp_outside_tolerance', 'x').status).toBe(401);
    expect(() => verifyWebhook(BODY, header, [], at(T))).toThrow(TypeError);
  });
});

/** A node:http server running createWebhookHandler; what it verified and answered. */
async function startHandlerServer(secrets: () => string[], onEvent?: (event: ConsignaEvent) => void | Promise<void>) {
  const events: Array<{ event: ConsignaEvent; delivery: DeliveryInfo }> = [];
  const answers: number[] = [];
  const handler = createWebhookHandler({
    secrets,
    onEvent: async (event, delivery) => {
      await onEvent?.(event);
      events.push({ event, delivery });
    },
  });
  const server = http.createServer((req, res) => {
    res.on('finish', () => answers.push(res.statusCode));
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/consigna`;
  return { url, events, answers, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('createWebhookHandler', () => {
  it('answers 200 after onEvent, 400/401 on bad signatures, 500 when onEvent throws, 405 on GET', async () => {
    let fail = false;
    const receiver = await startHandlerServer(
      () => [SECRET],
      () => {
        if (fail) throw new Error('banco fora');
      },
    );
    try {
      const now = Math.floor(Date.now() / 1000);
      const post = (body: string, headers: Record<string, string>) => fetch(receiver.url, { method: 'POST', body, headers });
      const signed = { 'content-type': 'application/json', 'x-service-signature': signatureHeader([SECRET], now, BODY) };

      const ok = await post(BODY, { ...signed, 'x-service-event-id': JSON.parse(BODY).id, 'x-service-delivery-attempt': '3' });
      expect([ok.status, await ok.json()]).toEqual([200, { recebido: true }]);
      expect(receiver.events[0]!.event).toEqual(JSON.parse(BODY));
      expect(receiver.events[0]!.delivery).toMatchObject({ eventId: JSON.parse(BODY).id, attempt: 3 });
      expect(receiver.events[0]!.delivery.rawBody.toString()).toBe(BODY);

      const tampered = await post(BODY.replace('5000', '1'), signed);
      expect([tampered.status, (await tampered.json()).motivo]).toEqual([401, 'no_matching_signature']);
      const missing = await post(BODY, { 'content-type': 'application/json' });
      expect([missing.status, (await missing.json()).motivo]).toEqual([400, 'missing_header']);
      const malformed = await post(BODY, { 'x-service-signature': 't=1,v1=zz' });
      expect([malformed.status, (await malformed.json()).motivo]).toEqual([400, 'malformed_header']);
      const stale = await post(BODY, { 'x-service-signature': signatureHeader([SECRET], now - 600, BODY) });
      expect([stale.status, (await stale.json()).motivo]).toEqual([401, 'timestamp_outside_tolerance']);
      const future = await post(BODY, { 'x-service-signature': signatureHeader([SECRET], now + 600, BODY) });
      expect([future.status, (await future.json()).motivo]).toEqual([401, 'timestamp_outside_tolerance']);
      const notJson = await post('nao e json', { 'x-service-signature': signatureHeader([SECRET], now, 'nao e json') });
      expect(notJson.status).toBe(400);
      expect((await fetch(receiver.url)).status).toBe(405);

      fail = true;
      expect((await post(BODY, signed)).status).toBe(500);
      expect(receiver.events).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('never rejects: a secrets function that throws answers 500 and reaches onError', async () => {
    const errors: unknown[] = [];
    const handler = createWebhookHandler({
      secrets: () => {
        throw new Error('cofre indisponível');
      },
      onEvent: () => {},
      onError: (error) => errors.push(error),
    });
    const server = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
      const response = await fetch(url, {
        method: 'POST',
        body: BODY,
        headers: { 'x-service-signature': signatureHeader([SECRET], T, BODY) },
      });
      expect(response.status).toBe(500);
      expect((errors[0] as Error).message).toBe('cofre indisponível');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('takes a body express.raw() already read, and refuses one a JSON parser already consumed', async () => {
    const handler = createWebhookHandler({ secrets: SECRET, onEvent: () => {} });
    const now = Math.floor(Date.now() / 1000);
    const fake = (body: unknown) => {
      const req = Object.assign(new http.IncomingMessage(null as never), {
        method: 'POST',
        headers: { 'x-service-signature': signatureHeader([SECRET], now, BODY) },
        body,
      });
      let status = 0;
      let text = '';
      const res = {
        headersSent: false,
        writeHead(code: number) {
          status = code;
          return this;
        },
        end(chunk: string) {
          text = chunk;
        },
      };
      return { req, res: res as unknown as http.ServerResponse, result: () => ({ status, text }) };
    };
    const raw = fake(Buffer.from(BODY));
    await handler(raw.req, raw.res);
    expect(raw.result().status).toBe(200);
    const parsed = fake(JSON.parse(BODY));
    await handler(parsed.req, parsed.res);
    expect(parsed.result().status).toBe(400);
    expect(parsed.result().text).toMatch(/express\.raw/);
  });
});

describe('against a real service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ listen: true, worker: true, env: { CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('the handler verifies the test event and proposal events, before and during a rotation, holding either secret', async () => {
    let current: string[] = [];
    const receiver = await startHandlerServer(() => current);
    try {
      const channel = await service.createChannel();
      const consigna = new Consigna({ baseUrl: service.baseUrl, clientId: channel.clientId, clientSecret: channel.clientSecret });
      const { segredo: first } = await consigna.putWebhook({ url: receiver.url });
      rememberSecret(first);
      current = [first!];
      expect(await consigna.sendTestEvent()).toMatchObject({ entregue: true, httpStatus: 200 });
      expect(receiver.events.at(-1)!.event).toMatchObject({ tipo: 'webhook.teste', ambiente: 'SANDBOX' });
      expect(receiver.events.at(-1)!.delivery.attempt).toBe(1);

      const { segredo: second } = await consigna.rotateWebhookSecret();
      rememberSecret(second);
      // The receiver not updated yet (old secret only), then updated (new only): both accept.
      expect((await consigna.sendTestEvent()).httpStatus).toBe(200);
      current = [second!];
      expect((await consigna.sendTestEvent()).httpStatus).toBe(200);
      current = ['whsec_nenhum'];
      expect(await consigna.sendTestEvent()).toMatchObject({ entregue: false, httpStatus: 401 });

      current = [second!, first!];
      const link = await consigna.createLink({ cpf: '00000000515', referenciaExterna: 'pedido-falha' });
      rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
      const journey = new JourneyClient(service, link.url);
      await journey.upToReview();
      await journey.post('proposta');
      await waitFor(() => receiver.events.some((e) => e.event.tipo === 'proposta.falha'), {
        timeoutMs: 15_000,
        what: 'proposta.falha',
      });
      const failure = receiver.events.find((e) => e.event.tipo === 'proposta.falha')!.event;
      if (failure.tipo !== 'proposta.falha') throw new Error('narrowing');
      expect(failure.link).toEqual({ id: link.id, referenciaExterna: 'pedido-falha' });
      expect(failure.motivo.length).toBeGreaterThan(0);
      expect(Object.keys(failure.proposta).sort()).toEqual(['parcelas', 'valor', 'valorParcela']);
      expect(receiver.answers.filter((s) => s === 401)).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('the Fastify recipe of the README: a raw-body parser, then verifyWebhook', async () => {
    const received: ConsignaEvent[] = [];
    let secret = '';
    const app = Fastify();
    await app.register(async (scope) => {
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      scope.post('/consigna', async (request, reply) => {
        try {
          received.push(verifyWebhook(request.body as Buffer, request.headers['x-service-signature'], [secret]));
          return { recebido: true };
        } catch (error) {
          if (error instanceof WebhookSignatureError) return reply.code(error.status).send({ erro: error.reason });
          throw error;
        }
      });
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const channel = await service.createChannel();
      const consigna = new Consigna({ baseUrl: service.baseUrl, clientId: channel.clientId, clientSecret: channel.clientSecret });
      secret = (await consigna.putWebhook({ url: `${address}/consigna` })).segredo!;
      rememberSecret(secret);
      expect(await consigna.sendTestEvent()).toMatchObject({ entregue: true, httpStatus: 200 });
      expect(received[0]).toMatchObject({ tipo: 'webhook.teste' });
    } finally {
      await app.close();
    }
  });
});
