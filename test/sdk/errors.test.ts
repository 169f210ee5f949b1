// Every error answer of a real service reaches the caller as a typed error: status,
// code, pt-BR message and the request id of the answer (OAuth errors with `error`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  Consigna,
  ConsignaError,
  ConsignaOAuthError,
  type ConsignaOptions,
  type SimulatedStatus,
} from '../../packages/sdk/src/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';
import { setChannelActive } from '../../src/channels/channels.service.ts';
import { rememberSecret } from '../helpers/secrets.ts';

let service: TestService;
/** Same database, strict limits: 3 API calls a minute per channel, 2 token failures per client. */
let strict: TestService;

const client = (target: TestService, channel: IssuedCredentials, options: Partial<ConsignaOptions> = {}) =>
  new Consigna({
    baseUrl: target.baseUrl,
    clientId: channel.clientId,
    clientSecret: channel.clientSecret,
    maxRetries: 0,
    ...options,
  });

/** The rejection of `promise`, checked to be a ConsignaError whose requestId is the answer's X-Request-Id. */
async function failure(promise: Promise<unknown>): Promise<ConsignaError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConsignaError);
  const typed = error as ConsignaError;
  expect(typed.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(typed.message.length).toBeGreaterThan(5);
  return typed;
}

beforeAll(async () => {
  service = await startTestService({ listen: true });
  strict = await startTestService({
    listen: true,
    sameDatabaseAs: service,
    env: { CONSIGNA_RATE_LIMIT_API: '3/60', CONSIGNA_AUTH_MAX_PER_CLIENT: '2' },
  });
});

afterAll(async () => {
  await strict?.close();
  await service?.close();
});

describe('400: each invalid field has its code', () => {
  it('links, webhook, simulator, deliveries', async () => {
    const channel = await service.createChannel();
    const consigna = client(service, channel);
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => consigna.createLink({ cpf: '12345678900' }), 'cpf_invalido'],
      [() => consigna.createLink({ cpf: '12345678909', celular: '123' }), 'celular_invalido'],
      [() => consigna.createLink({ cpf: '12345678909' }, { idempotencyKey: 'curta' }), 'idempotency_key_invalida'],
      [() => consigna.createLink({ cpf: '12345678909', nome: 'x' } as never), 'requisicao_invalida'],
      [() => consigna.putWebhook({ url: 'https://127.0.0.1/hook' }), 'url_invalida'],
      [
        () => consigna.putWebhook({ url: 'https://hooks.exemplo.com.br/x', eventos: ['webhook.teste' as never] }),
        'eventos_invalidos',
      ],
      [() => consigna.simulateProposal(randomUUID(), 'ABERTA' as SimulatedStatus), 'status_invalido'],
      [() => consigna.listDeliveries({ limite: 0 }), 'limite_invalido'],
      [() => consigna.listDeliveries({ status: 'PERDIDA' as never }), 'status_invalido'],
      [() => consigna.ensureInbox({ responderStatus: 418 as never }), 'status_invalido'],
    ];
    for (const [call, code] of cases) {
      const error = await failure(call());
      expect([error.status, error.code]).toEqual([400, code]);
    }
  });
});

describe('401, 403, 404, 409', () => {
  it('401 unauthorized: the service refuses the token', async () => {
    const channel = await service.createChannel();
    const consigna = client(service, channel, {
      // A middlebox that mangles the Authorization header of API calls.
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        if (headers.get('authorization')?.startsWith('Bearer ')) headers.set('authorization', 'Bearer cat_invalido');
        return fetch(input, { ...init, headers });
      },
    });
    const error = await failure(consigna.ping());
    expect([error.status, error.code]).toEqual([401, 'unauthorized']);
  });

  it('403 forbidden: the channel was deactivated', async () => {
    const channel = await service.createChannel();
    const consigna = client(service, channel);
    await consigna.ping();
    await setChannelActive(service.ctx, channel.canalId, false);
    const error = await failure(consigna.createLink({ cpf: '12345678909' }));
    expect([error.status, error.code]).toEqual([403, 'forbidden']);
  });

  it('404 nao_encontrado: link of nobody, no webhook, unknown delivery, no inbox', async () => {
    const consigna = client(service, await service.createChannel());
    for (const call of [
      () => consigna.getLink(randomUUID()),
      () => consigna.getLink('nao-e-uuid'),
      () => consigna.getWebhook(),
      () => consigna.deleteWebhook(),
      () => consigna.rotateWebhookSecret(),
      () => consigna.sendTestEvent(),
      () => consigna.listDeliveries(),
      () => consigna.resendDelivery(randomUUID()),
      () => consigna.clearInbox(),
      () => consigna.listInboxEvents('sbx_naoexiste'),
      () => consigna.setInboxStatus('sbx_naoexiste', 500),
    ]) {
      const error = await failure(call());
      expect([error.status, error.code]).toEqual([404, 'nao_encontrado']);
    }
  });

  it('409: idempotency key reused with other data; simulator without a proposal', async () => {
    const consigna = client(service, await service.createChannel());
    const link = await consigna.createLink({ cpf: '12345678909' }, { idempotencyKey: 'pedido-409' });
    rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
    const replay = await consigna.createLink({ cpf: '12345678909' }, { idempotencyKey: 'pedido-409' });
    expect(replay).toEqual(link);
    const conflict = await failure(consigna.createLink({ cpf: '52998224725' }, { idempotencyKey: 'pedido-409' }));
    expect([conflict.status, conflict.code, conflict.idempotencyKey]).toEqual([409, 'idempotency_key_conflito', 'pedido-409']);
    const noProposal = await failure(consigna.simulateProposal(link.id, 'FORMALIZADA'));
    expect([noProposal.status, noProposal.code]).toEqual([409, 'sem_proposta']);
  });
});

describe('429 and OAuth errors', () => {
  it('429 limite_excedido with Retry-After (not retried)', async () => {
    const channel = await strict.createChannel();
    const consigna = client(strict, channel, { maxRetries: 2 });
    for (let i = 0; i < 3; i++) await consigna.ping();
    const error = await failure(consigna.ping());
    expect([error.status, error.code, error.attempts]).toEqual([429, 'limite_excedido', 1]);
    expect(error.retryAfter).toBeGreaterThan(0);
  });

  it('invalid_client, then too_many_attempts even with the right secret', async () => {
    const channel = await strict.createChannel();
    const wrong = client(strict, { ...channel, clientSecret: 'csk_' + 'x'.repeat(48) }, { maxRetries: 2 });
    for (let i = 0; i < 2; i++) {
      const error = await failure(wrong.ping());
      expect(error).toBeInstanceOf(ConsignaOAuthError);
      expect(error).toMatchObject({ status: 401, code: 'invalid_client', error: 'invalid_client', attempts: 1 });
      expect((error as ConsignaOAuthError).errorDescription).toBe(error.message);
    }
    const blocked = await failure(client(strict, channel).ping());
    expect(blocked).toBeInstanceOf(ConsignaOAuthError);
    expect(blocked).toMatchObject({ status: 429, error: 'too_many_attempts', code: 'too_many_attempts' });
    expect(blocked.retryAfter).toBeGreaterThan(0);
  });
});
