// Bearer authentication for the /v1 API. Runs at onRequest, before the body is
// read: an unauthenticated caller learns nothing about body validation.
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { AppError } from '../errors.ts';
import { isIpAllowed } from './ip-allow-list.ts';
import { hashAccessToken } from './token.service.ts';
import { tokenCacheFor, watchChannelChanges, type TokenCache } from './token-cache.ts';
import { enforce, type RateLimiter } from '../http/rate-limit.ts';
import { findTokenChannel } from './token.repository.ts';

export interface AuthenticatedChannel {
  id: string;
  name: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'bearer' routes require a valid access token of an active channel. */
    auth?: 'bearer';
  }
  interface FastifyRequest {
    channel: AuthenticatedChannel | undefined;
  }
}

const TOKEN = /^Bearer\s+(cat_[A-Za-z0-9]{48})\s*$/i;

const unauthorized = (description: string) =>
  new AppError(401, 'unauthorized', 'Token de acesso ausente, inválido ou expirado.', {
    headers: { 'www-authenticate': `Bearer realm="consigna", error="invalid_token", error_description="${description}"` },
  });

const forbidden = () => new AppError(403, 'forbidden', 'Acesso negado: canal inativo ou endereço IP não autorizado.');

export async function registerAuth(app: App, ctx: Context, limiter: RateLimiter): Promise<void> {
  const cache = tokenCacheFor(ctx.database);
  const unwatch = await watchChannelChanges(ctx.database, ctx.log);
  app.addHook('onClose', async () => unwatch());
  app.decorateRequest('channel', undefined);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.auth !== 'bearer') return;
    request.channel = await authenticate(ctx, cache, request);
    // Per channel, shared by every api process (src/http/rate-limit.ts).
    enforce(reply, limiter.hit(`api:${request.channel.id}`, ctx.config.rateLimits.api));
  });
}

async function authenticate(ctx: Context, cache: TokenCache, request: FastifyRequest): Promise<AuthenticatedChannel> {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('token ausente');
  const token = TOKEN.exec(header)?.[1];
  if (!token) throw unauthorized('token invalido');
  const hash = hashAccessToken(ctx, token);
  const key = hash.toString('base64');
  let cached = cache.get(key);
  if (!cached) {
    const row = await findTokenChannel(ctx.database.db, hash);
    if (!row) throw unauthorized('token invalido ou expirado');
    cached = {
      channelId: row.id,
      name: row.name,
      active: row.active,
      allowedCidrs: row.allowed_cidrs,
      expiresAt: row.expires_at,
    };
    cache.set(key, cached);
  }
  if (cached.expiresAt <= ctx.clock.now()) throw unauthorized('token invalido ou expirado');
  if (!cached.active || !isIpAllowed(request.ip, cached.allowedCidrs)) throw forbidden();
  return { id: cached.channelId, name: cached.name };
}
