// Client credentials → access token. Unknown client, wrong secret, inactive channel
// and an IP outside the allow-list are indistinguishable to the caller
// (docs/rules.md §1), and every one of them counts towards the brute-force guard.
import { AppError } from '../errors.ts';
import type { Context } from '../context.ts';
import { addSeconds } from '../clock.ts';
import { constantTimeEqual } from '../crypto/keys.ts';
import { newAccessToken } from '../crypto/random.ts';
import { hashClientSecret } from './credentials.ts';
import { isIpAllowed } from './ip-allow-list.ts';
import { recordFailure, secondsUntil } from './brute-force.ts';
import { BASIC_CHALLENGE } from './credentials.ts';
import { lookUpClient, storeToken } from './token.repository.ts';

type Deps = Pick<Context, 'database' | 'clock' | 'config' | 'keys'>;

export interface TokenRequest {
  clientId: string;
  clientSecret: string;
  ip: string;
  usedBasic: boolean;
}

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export const hashAccessToken = (deps: Pick<Context, 'keys'>, token: string): Buffer => deps.keys.hash('access-token', token);

// Hashing a dummy secret for unknown clients keeps the work per request the same.
const UNKNOWN_CLIENT_HASH = Buffer.alloc(32);

export async function issueToken(deps: Deps, request: TokenRequest): Promise<IssuedToken> {
  const now = deps.clock.now();
  const { blockedUntil, channel } = await lookUpClient(deps.database.db, request.clientId, request.ip, now);
  if (blockedUntil) {
    const retryAfter = secondsUntil(blockedUntil, now);
    throw new AppError(429, 'too_many_attempts', `Muitas tentativas inválidas. Tente novamente em ${retryAfter} segundos.`, {
      oauth: true,
      headers: { 'retry-after': String(retryAfter) },
    });
  }

  const presented = hashClientSecret(deps, request.clientSecret);
  const secretMatches = constantTimeEqual(presented, channel ? Buffer.from(channel.secret_hash) : UNKNOWN_CLIENT_HASH);
  if (!channel || !secretMatches || !channel.active || !isIpAllowed(request.ip, channel.allowed_cidrs)) {
    await recordFailure(deps, request.clientId, request.ip);
    throw new AppError(401, 'invalid_client', 'Credenciais do cliente inválidas.', {
      oauth: true,
      headers: request.usedBasic ? BASIC_CHALLENGE : {},
    });
  }

  const token = newAccessToken();
  const ttl = deps.config.tokenTtlSeconds;
  await storeToken(deps.database.db, {
    tokenHash: hashAccessToken(deps, token),
    channelId: channel.id,
    expiresAt: addSeconds(now, ttl),
  });
  return { access_token: token, token_type: 'Bearer', expires_in: ttl };
}
