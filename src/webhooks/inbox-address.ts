// The sandbox inbox as a webhook target: the token in its URL, how that token is
// stored (only a keyed hash), and how a webhook URL is recognised as one of our own
// inboxes. Registration and delivery need this to treat an inbox URL specially; the
// inbox itself (src/sandbox/) builds on it, never the other way round.
import type { Keys } from '../crypto/keys.ts';

export const INBOX_PATH = '/v1/sandbox/receptor/';
/** What newInboxToken issues. */
const ISSUED_TOKEN = /^sbx_[A-Za-z0-9]{32}$/;
/** What a webhook URL may carry and still be taken for an inbox (checked against storage afterwards). */
const TOKEN_IN_URL = /^sbx_[A-Za-z0-9]{1,64}$/;

export const isIssuedInboxToken = (token: string): boolean => ISSUED_TOKEN.test(token);

/** How an inbox token is stored and looked up (never the token itself). */
export const hashInboxToken = (deps: { keys: Keys }, token: string): Buffer => deps.keys.hash('inbox-token', token);

/** Returns the inbox token when `raw` is exactly this service's own test-inbox URL. */
export function inboxTokenOf(raw: string, inboxBaseUrl: string): string | undefined {
  const prefix = inboxBaseUrl.replace(/\/+$/, '') + INBOX_PATH;
  if (!raw.startsWith(prefix)) return undefined;
  const token = raw.slice(prefix.length);
  return TOKEN_IN_URL.test(token) ? token : undefined;
}
