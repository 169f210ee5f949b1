// Creating links through the API, as a channel does, remembering every url token
// and CPF so that the log guard can prove none of them was logged.
import type { TestService } from './service.ts';
import { rememberSecret } from './secrets.ts';

export const VALID_CPFS = ['12345678909', '52998224725', '11144477735', '39053344705', '71428793860', '86288366757'];

export async function createLinkVia(
  service: TestService,
  headers: Record<string, string>,
  body: Record<string, unknown>,
  idempotencyKey?: string,
) {
  if (typeof body.cpf === 'string') rememberSecret(body.cpf);
  const response = await service.inject({
    method: 'POST',
    url: '/v1/links',
    headers: { ...headers, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: JSON.stringify(body),
  });
  if (response.statusCode === 201 || response.statusCode === 200) rememberSecret(linkToken(response.json().url));
  return response;
}

export const linkToken = (url: string): string => url.slice(url.lastIndexOf('/') + 1);
