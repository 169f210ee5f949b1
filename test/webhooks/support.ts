// Shared steps of the webhook test files: a channel with its webhook, a real proposal
// (hosted journey driven over HTTP), the simulator, the delivery history, and an
// independent signature check (plain node:crypto, not the service's own verifier).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { expect } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import type { ReceivedRequest } from '../helpers/receiver.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

/** Short retries and local http receivers (docs/rules.md §5). */
export const FAST_ENV = {
  CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
  CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1',
};

import type { DeliveryResource as Delivery } from '../../src/webhooks/deliveries.service.ts';
export type { Delivery };

export interface ChannelSetup {
  canalId: string;
  /** Credentials, for new tokens (they expire on the service's clock). */
  channel: IssuedCredentials;
  auth: Record<string, string>;
  json: Record<string, string>;
  secret: string | undefined;
}

/** A new channel and its token; with `url`, its webhook registered (201, secret kept). */
export async function channelWith(service: TestService, url?: string, eventos?: string[]): Promise<ChannelSetup> {
  const channel = await service.createChannel();
  const auth = await service.bearer(channel);
  const json = { ...auth, 'content-type': 'application/json' };
  if (url === undefined) return { canalId: channel.canalId, channel, auth, json, secret: undefined };
  const response = await putWebhook(service, json, { url, ...(eventos ? { eventos } : {}) });
  expect(response.statusCode, response.body).toBe(201);
  return { canalId: channel.canalId, channel, auth, json, secret: response.json().segredo as string };
}

export async function putWebhook(service: TestService, json: Record<string, string>, body: unknown) {
  const response = await service.inject({ method: 'PUT', url: '/v1/webhooks', headers: json, payload: JSON.stringify(body) });
  if (response.statusCode === 201) rememberSecret(response.json().segredo);
  return response;
}

/** A link whose customer went through the hosted journey and submitted: proposal CRIADA → AGUARDANDO_FORMALIZACAO. */
export async function proposalLink(service: TestService, auth: Record<string, string>, cpf = VALID_CPFS[0]!): Promise<string> {
  const created = await createLinkVia(service, auth, { cpf, referenciaExterna: 'promotor-42' });
  expect(created.statusCode, created.body).toBe(201);
  const link = created.json<{ id: string; url: string }>();
  const journey = new JourneyClient(service, link.url);
  await journey.upToReview();
  const submitted = await journey.post('proposta');
  expect(submitted.status, submitted.body.slice(0, 300)).toBe(303);
  return link.id;
}

export async function simulate(service: TestService, json: Record<string, string>, linkId: string, status: string) {
  const response = await service.inject({
    method: 'POST',
    url: `/v1/links/${linkId}/proposta/simular`,
    headers: json,
    payload: JSON.stringify({ status }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ status: string; alterado: boolean }>();
}

export async function listDeliveries(service: TestService, auth: Record<string, string>, query = ''): Promise<Delivery[]> {
  const response = await service.inject({ method: 'GET', url: `/v1/webhooks/entregas${query}`, headers: auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ entregas: Delivery[] }>().entregas;
}

/** The v1 values of a signature header and its timestamp. */
export function parseSignature(header: string | string[] | undefined): { t: number; v1: string[] } {
  expect(typeof header).toBe('string');
  const parts = (header as string).split(',');
  expect(parts[0]).toMatch(/^t=\d+$/);
  const v1 = parts.slice(1).map((p) => {
    expect(p).toMatch(/^v1=[0-9a-f]{64}$/);
    return p.slice(3);
  });
  return { t: Number(parts[0]!.slice(2)), v1 };
}

/** HMAC-SHA256 over `${t}.${rawBody}`, keyed with the whole `whsec_…` text. */
export function expectedV1(secret: string, t: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
}

/** True when one v1 of the request matches `secret`. */
export function signedWith(request: ReceivedRequest, secret: string): boolean {
  const { t, v1 } = parseSignature(request.headers['x-service-signature']);
  const expected = Buffer.from(expectedV1(secret, t, request.body), 'hex');
  return v1.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
}
