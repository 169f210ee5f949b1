// The first step of every request that names an inbox by its path token (the public
// inbox endpoints and the viewer): find the inbox, then rate-limit, per token when it
// exists and per source address when it does not (src/http/rate-limit.ts, hitPathToken).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { enforce, hitPathToken, type RateLimiter } from '../http/rate-limit.ts';
import { hashInboxToken, isIssuedInboxToken } from '../webhooks/inbox-address.ts';
import { findInbox, inboxNotFound, type InboxRow } from './inbox.service.ts';

const rateKey = (tokenHash: Uint8Array): string => `inbox:${Buffer.from(tokenHash).toString('base64url')}`;

export async function inboxOfRequest(
  ctx: Context,
  limiter: RateLimiter,
  request: FastifyRequest<{ Params: { token: string } }>,
  reply: FastifyReply,
): Promise<InboxRow> {
  const inbox = await findInbox(ctx, request.params.token);
  const key = inbox && rateKey(inbox.token_hash);
  const { inbox: token, unknownToken } = ctx.config.rateLimits;
  enforce(reply, hitPathToken(limiter, key, request.ip, { token, unknownToken }));
  if (!inbox) throw inboxNotFound();
  return inbox;
}

/**
 * A token already past its limit in this window is refused before anything else runs
 * (no lookup, no turn among the expensive routes, no body read): a flood of refused
 * requests then costs a keyed hash each. Only tokens that were counted have a counter,
 * so this tells nothing about tokens that do not exist.
 */
export function refuseExhaustedInboxTokens(app: FastifyInstance, ctx: Context, limiter: RateLimiter): void {
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url ?? '';
    if (!route.startsWith('/v1/sandbox/receptor/:token') && !route.startsWith('/sandbox/receptor/:token')) return done();
    const token = (request.params as { token?: string }).token;
    if (token === undefined || !isIssuedInboxToken(token)) return done();
    const refusal = limiter.refusal(rateKey(hashInboxToken(ctx, token)), ctx.config.rateLimits.inbox);
    if (!refusal) return done();
    try {
      enforce(reply, refusal);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}
