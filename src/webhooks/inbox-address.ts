// The sandbox inbox as a webhook target: the token in its URL, how that token is
// stored (only a keyed hash), and how a webhook URL is recognised as one of our own
// inboxes. Registration and delivery need this to treat an inbox URL specially; the
// inbox itself (src/sandbox/) builds on it, never the other way round.
//
// A URL is recognised by what a server would route it to, not by its spelling: a query,
// a fragment, a trailing or doubled slash, a default port, percent-encoding (`%2F`
// included), dot segments or the case of the host do not hide the token (docs/rules.md
// §5.5). Otherwise `…/sbx_other?x=1` would pass as an ordinary https URL and put this
// channel's events in another channel's inbox. On another host or port, the inbox path
// and a token the channel owns are still its inbox (own-inbox.ts decides, with storage).
import type { Keys } from '../crypto/keys.ts';

export const INBOX_PATH = '/v1/sandbox/receptor/';
/** The inbox's API path and its viewer's path: both name an inbox by its token. */
const INBOX_SEGMENTS = ['v1', 'sandbox', 'receptor'];
const VIEWER_SEGMENTS = ['sandbox', 'receptor'];
/** What newInboxToken issues. */
const ISSUED_TOKEN = /^sbx_[A-Za-z0-9]{32}$/;
/** What a webhook URL may carry and still be taken for an inbox (checked against storage afterwards). */
const TOKEN_IN_URL = /^sbx_[A-Za-z0-9]{1,64}$/;

export const isIssuedInboxToken = (token: string): boolean => ISSUED_TOKEN.test(token);

/** How an inbox token is stored and looked up (never the token itself). */
export const hashInboxToken = (deps: { keys: Keys }, token: string): Buffer => deps.keys.hash('inbox-token', token);

/**
 * The inbox token when `raw` is this service's own test-inbox URL (its host, in any
 * case, and port; http or https): the path, read as a server routes it, is the inbox
 * path and one token, whatever the query or the spelling.
 */
export function inboxTokenOf(raw: string, inboxBaseUrl: string): string | undefined {
  const url = parse(raw);
  const base = parse(inboxBaseUrl);
  if (!url || !base || !sameHost(url, base)) return undefined;
  return inboxPathToken(url);
}

/**
 * The inbox token when `raw`'s path is an inbox URL's path (the inbox path and one
 * token, spelled as `inboxTokenOf` allows), on any http(s) host and port. Such a URL is
 * one of our inboxes only when the token is one the channel owns (own-inbox.ts): an inbox
 * URL issued before PORT or PUBLIC_BASE_URL changed keeps its token, not its address.
 */
export function inboxTokenInPath(raw: string): string | undefined {
  const url = parse(raw);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? inboxPathToken(url) : undefined;
}

/** The inbox's URL on this service's current address. */
export const inboxUrlOn = (inboxBaseUrl: string, token: string): string =>
  `${inboxBaseUrl.replace(/\/+$/, '')}${INBOX_PATH}${token}`;

function inboxPathToken(url: URL): string | undefined {
  const segments = routedSegments(url.pathname);
  return segments.length === INBOX_SEGMENTS.length + 1 && startsWith(segments, INBOX_SEGMENTS)
    ? tokenIn(segments[INBOX_SEGMENTS.length]!)
    : undefined;
}

/**
 * The inbox token named by `raw`'s path on any host: the inbox's path or its viewer's,
 * with or without a sub-path after the token. Registration refuses another channel's
 * token named this way even when the host is not ours (another name for this service,
 * a proxy in front of it).
 */
export function inboxTokenNamedBy(raw: string): string | undefined {
  const url = parse(raw);
  if (!url) return undefined;
  const segments = routedSegments(url.pathname);
  for (const prefix of [INBOX_SEGMENTS, VIEWER_SEGMENTS]) {
    if (segments.length > prefix.length && startsWith(segments, prefix)) return tokenIn(segments[prefix.length]!);
  }
  return undefined;
}

/**
 * The path's segments as a lenient server would see them: percent-decoded until nothing
 * changes (double encoding, `%2F`), backslashes as slashes, empty segments (doubled or
 * trailing slashes) dropped, `;parameters` cut, dot segments resolved.
 */
function routedSegments(pathname: string): string[] {
  let path = pathname;
  for (let previous = ''; previous !== path;) {
    previous = path;
    path = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  const segments: string[] = [];
  for (const raw of path.replaceAll('\\', '/').split('/')) {
    const segment = raw.split(';')[0]!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments;
}

const startsWith = (segments: string[], prefix: string[]): boolean =>
  prefix.every((name, i) => segments[i]!.toLowerCase() === name);

const tokenIn = (segment: string): string | undefined => (TOKEN_IN_URL.test(segment) ? segment : undefined);

// WHATWG already lower-cases the host and empties a default port; a trailing dot names
// the same DNS host.
function sameHost(url: URL, base: URL): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = (u: URL) => u.hostname.replace(/\.$/, '');
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  return host(url) === host(base) && port(url) === port(base);
}

function parse(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}
