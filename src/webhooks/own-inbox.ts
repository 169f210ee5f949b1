// A webhook URL that names the channel's own test inbox stays its inbox wherever the
// service now answers (docs/rules.md §5.5). The inbox URL a channel registered carries
// the address of the day (`http://localhost:3000/…`); after PORT or PUBLIC_BASE_URL
// changes, the same URL must still be accepted when registered again and still reach the
// inbox. So the inbox is recognised by its path and its token, and the token must be one
// the channel owns: the token is the secret, the host proves nothing.
//
// Safe whatever the host: such a URL is delivered in-process (no request leaves the
// service), and only into the registering channel's own inbox. A URL elsewhere with the
// inbox path and a token of no inbox of the channel is an ordinary URL: the network
// rules apply to it, at registration and at every delivery.
import type { Context } from '../context.ts';
import type { Deliverer } from './delivery/deliverer.ts';
import { channelOfInbox } from './webhooks.repository.ts';
import { hashInboxToken, inboxTokenInPath, inboxTokenNamedBy, inboxTokenOf, inboxUrlOn } from './inbox-address.ts';

type Deps = Pick<Context, 'database' | 'keys' | 'config'>;

/** Longer is refused by the URL rules anyway: no lookup for it. */
const MAX_URL_LENGTH = 2048;

/** What a URL's path says of our inboxes. */
export interface NamedInbox {
  /** The channel owning the token the path names (undefined: no inbox has it). */
  owner: string | undefined;
  /** The path is the inbox's own (not a sub-path or the viewer): the URL delivers into it. */
  isInboxUrl: boolean;
  /** On this service's current address. */
  onOurHost: boolean;
}

/** The inbox a webhook URL's path names, on any host; undefined when it names none. */
export async function inboxNamedBy(deps: Deps, raw: unknown): Promise<NamedInbox | undefined> {
  if (typeof raw !== 'string' || raw.length > MAX_URL_LENGTH) return undefined;
  const token = inboxTokenNamedBy(raw);
  if (token === undefined) return undefined;
  return {
    owner: await channelOfInbox(deps.database.db, hashInboxToken(deps, token)),
    isInboxUrl: inboxTokenInPath(raw) === token,
    onOurHost: inboxTokenOf(raw, deps.config.publicBaseUrl) !== undefined,
  };
}

/**
 * The deliverer, sending an event whose webhook URL is the channel's own inbox on a past
 * address to that inbox on the current one (which the deliverer delivers in-process).
 * Every other URL goes through unchanged: one on our current address is the deliverer's
 * to recognise, and any other is delivered over the network, under its rules.
 */
export function reachingOwnInboxes(deps: Deps, deliverer: Deliverer): Deliverer {
  return {
    send: async (event) => {
      const token = inboxTokenInPath(event.url);
      if (
        token === undefined ||
        event.channelId === undefined ||
        inboxTokenOf(event.url, deps.config.publicBaseUrl) !== undefined
      ) {
        return deliverer.send(event);
      }
      const owner = await channelOfInbox(deps.database.db, hashInboxToken(deps, token));
      return deliverer.send(owner === event.channelId ? { ...event, url: inboxUrlOn(deps.config.publicBaseUrl, token) } : event);
    },
  };
}
