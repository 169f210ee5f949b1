// The first step of every request that names an inbox by its path token (the public
// inbox endpoints and the viewer): find the inbox, then rate-limit, per token when it
// exists and per source address when it does not (src/http/rate-limit.ts, hitPathToken).
// A token already past its limit is refused earlier still, by inbox.routes.ts.
import type { Context } from '../context.ts';
import { enforce, hitPathToken, type RateLimiter } from '../http/rate-limit.ts';

import { findInbox, inboxNotFound, type InboxRow } from './inbox.service.ts';

/** The rate-limit key of an inbox: its token's keyed hash, never the token. */
export const inboxRateKey = (tokenHash: Uint8Array): string => `inbox:${Buffer.from(tokenHash).toString('base64url')}`;

export async function inboxOfRequest(
  ctx: Context,
  limiter: RateLimiter,
  request: { params: { token: string }; ip: string },
  reply: { header(name: string, value: string): unknown },
): Promise<InboxRow> {
  const inbox = await findInbox(ctx, request.params.token);
  const key = inbox && inboxRateKey(inbox.token_hash);
  const { inbox: token, unknownToken } = ctx.config.rateLimits;
  enforce(reply, hitPathToken(limiter, key, request.ip, { token, unknownToken }));
  if (!inbox) throw inboxNotFound();
  return inbox;
}
