// Shared steps of the test-inbox files: a channel with its inbox, the public
// token endpoints, an independent signer (plain node:crypto), and a strict check of
// the Received event record shape (interface spec, "Received event record").
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { freePort, startTestService, type TestService } from '../helpers/service.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

export const ALLOWED = [200, 202, 204, 400, 401, 404, 500, 502, 503] as const;
export const TOKEN_RE = /^sbx_[A-Za-z0-9]{32}$/;

// The resource shapes are the service's own types (the API tests check the values).
import type { Inbox as InboxResource, ReceivedEvent } from '../../src/sandbox/inbox.service.ts';
export type { InboxResource, ReceivedEvent };

export interface InboxSetup {
  channel: IssuedCredentials;
  auth: Record<string, string>;
  json: Record<string, string>;
  inbox: InboxResource;
  token: string;
  /** /v1/sandbox/receptor/{token} */
  path: string;
}

export const tokenOf = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

/** A new channel, its bearer, and its inbox (PUT /v1/sandbox/receptor, no body). */
export async function channelWithInbox(service: TestService): Promise<InboxSetup> {
  const channel = await service.createChannel();
  const auth = await service.bearer(channel);
  const response = await service.inject({ method: 'PUT', url: '/v1/sandbox/receptor', headers: auth });
  expect(response.statusCode, response.body).toBe(200);
  const inbox = response.json<InboxResource>();
  const token = tokenOf(inbox.url);
  rememberSecret(token);
  return {
    channel,
    auth,
    json: { ...auth, 'content-type': 'application/json' },
    inbox,
    token,
    path: `/v1/sandbox/receptor/${token}`,
  };
}

/**
 * A service with its delivery worker, whose inbox URLs are its own (PUBLIC_BASE_URL on a
 * free port) and whose retries come a second apart, and a channel whose webhook is its
 * inbox: proposal events reach the inbox signed, as in the sandbox.
 */
export async function serviceWithInboxChannel(): Promise<{ service: TestService; setup: InboxSetup & { secret: string } }> {
  const base = `http://127.0.0.1:${await freePort()}`;
  const service = await startTestService({ worker: true, env: { PUBLIC_BASE_URL: base, CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1' } });
  return { service, setup: await channelWithRegisteredInbox(service) };
}

/** A channel whose webhook is its own inbox; `secret` is the webhook secret shown once. */
export async function channelWithRegisteredInbox(service: TestService): Promise<InboxSetup & { secret: string }> {
  const setup = await channelWithInbox(service);
  const r = await service.inject({
    method: 'PUT',
    url: '/v1/webhooks',
    headers: setup.json,
    payload: JSON.stringify({ url: setup.inbox.url }),
  });
  expect(r.statusCode, r.body).toBe(201);
  const secret = r.json<{ segredo: string }>().segredo;
  rememberSecret(secret);
  return { ...setup, secret };
}

export async function listEvents(
  service: TestService,
  token: string,
): Promise<{ responderStatus: number; eventos: ReceivedEvent[] }> {
  const response = await service.inject({ method: 'GET', url: `/v1/sandbox/receptor/${token}/eventos` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

export async function setMode(service: TestService, token: string, responderStatus: number): Promise<void> {
  const response = await service.inject({
    method: 'PUT',
    url: `/v1/sandbox/receptor/${token}/modo`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ responderStatus }),
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** POSTs to the inbox URL as an outside sender would. */
export function postToInbox(service: TestService, token: string, body: string, headers: Record<string, string> = {}) {
  return service.inject({
    method: 'POST',
    url: `/v1/sandbox/receptor/${token}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
  });
}

/** `t=<t>,v1=<hex>…`, HMAC-SHA256 over `${t}.${body}` keyed with each whole `whsec_…` text. */
export function signatureFor(secrets: string[], t: number, body: string): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${createHmac('sha256', s).update(`${t}.${body}`).digest('hex')}`)].join(',');
}

export const unixNow = (service: TestService): number => Math.floor(service.clock.now().getTime() / 1000);

const REQUIRED = ['id', 'recebidoEm', 'assinaturaValida', 'respondeuStatus', 'headers', 'corpo'];
const OPTIONAL = ['tipo', 'eventoId', 'tentativa', 'motivo'];

/** Exactly the fields of the Received event record, with their types. */
export function expectEventShape(event: ReceivedEvent): void {
  const keys = Object.keys(event);
  for (const key of REQUIRED) expect(keys, `required field ${key}`).toContain(key);
  expect(
    keys.filter((k) => !REQUIRED.includes(k) && !OPTIONAL.includes(k)),
    'unknown fields',
  ).toEqual([]);
  expect(Number.isInteger(event.id)).toBe(true);
  expect(event.recebidoEm).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  for (const key of ['tipo', 'eventoId', 'tentativa', 'motivo'] as const) {
    if (key in event) expect(typeof event[key], key).toBe('string');
  }
  expect([true, false, null]).toContain(event.assinaturaValida);
  // A reason goes with a null check only.
  expect('motivo' in event).toBe(event.assinaturaValida === null);
  expect(Number.isInteger(event.respondeuStatus)).toBe(true);
  expect(typeof event.headers).toBe('object');
  expect(Array.isArray(event.headers)).toBe(false);
  for (const [name, value] of Object.entries(event.headers)) expect(typeof value, `header ${name}`).toBe('string');
  expect(event.corpo).not.toBeUndefined();
}
