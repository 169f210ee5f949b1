// The first step of every request that names an inbox by its path token (the public
// inbox endpoints and the viewer): find the inbox, then rate-limit, per token when it
// exists and per source address when it does not (src/http/rate-limit.ts, hitPathToken).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { enforce, hitPathToken, type RateLimiter } from '../http/rate-limit.ts';
import { findInbox, inboxNotFound, type InboxRow } from './inbox.service.ts';

export async function inboxOfRequest(
  ctx: Context,
  limiter: RateLimiter,
  request: FastifyRequest<{ Params: { token: string } }>,
  reply: FastifyReply,
): Promise<InboxRow> {
  const inbox = await findInbox(ctx, request.params.token);
  const key = inbox && `inbox:${Buffer.from(inbox.token_hash).toString('base64url')}`;
  const { inbox: token, unknownToken } = ctx.config.rateLimits;
  enforce(reply, hitPathToken(limiter, key, request.ip, { token, unknownToken }));
  if (!inbox) throw inboxNotFound();
  return inbox;
}
