// Access to the channel portal (docs/rules.md §10): a single-use entry link, valid 10
// minutes, starts a session of 8 hours held in an HttpOnly cookie. Both tokens are 43
// base62 characters (256 bits), stored only as keyed hashes. The CSRF token of a session
// is derived from its token (an HMAC), so nothing more is stored and it changes with it.
import type { Context } from '../context.ts';
import { addSeconds } from '../clock.ts';
import { badRequest } from '../errors.ts';
import { constantTimeEqual } from '../crypto/keys.ts';
import { newLinkToken, uuidv7 } from '../crypto/random.ts';
import { FIELD_MESSAGES } from '../text/messages.ts';
import {
  claimPortalLink,
  endChannelSessions,
  endSessionById,
  findLiveSession,
  findUsablePortalLink,
  insertPortalLink,
  insertSession,
} from './sessions.repository.ts';

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config'>;

export const PERMISSOES = ['leitura', 'escrita'] as const;
export type Permissao = (typeof PERMISSOES)[number];
/** How long an entry link may wait to be used. */
export const PORTAL_LINK_TTL_SECONDS = 600;
/** How long a session lasts from its start, used or not. */
export const PORTAL_SESSION_TTL_SECONDS = 8 * 3600;
export const ENTRY_PATH = '/portal/entrar/';
const TOKEN = /^[A-Za-z0-9]{43}$/;

export interface PortalSession {
  id: string;
  channelId: string;
  permissoes: Permissao[];
  /** The session may change things (`escrita`); a read-only one sees everything and changes nothing. */
  canWrite: boolean;
  expiresAt: Date;
}

export interface IssuedPortalLink {
  url: string;
  expiraEm: string;
  permissoes: Permissao[];
}

const hashLink = (deps: Pick<Context, 'keys'>, token: string) => deps.keys.hash('portal-link', token);
const hashSession = (deps: Pick<Context, 'keys'>, token: string) => deps.keys.hash('portal-session', token);

/**
 * `["leitura"]` or `["leitura", "escrita"]` (in any order); absent: both. Every session
 * reads: `escrita` alone names nothing a session could be.
 */
export function parsePermissions(value: unknown): Permissao[] {
  if (value === undefined) return [...PERMISSOES];
  const list = Array.isArray(value) ? (value as unknown[]) : [];
  const valid =
    list.length >= 1 &&
    list.length <= PERMISSOES.length &&
    new Set(list).size === list.length &&
    list.every((p) => (PERMISSOES as readonly unknown[]).includes(p)) &&
    list.includes('leitura');
  if (!valid) throw badRequest('permissoes_invalidas', FIELD_MESSAGES.permissoes_invalidas!);
  return PERMISSOES.filter((p) => list.includes(p));
}

/** A new single-use entry link for the channel (the API and `consigna channels portal`). */
export async function createPortalLink(deps: Deps, channelId: string, permissoes: Permissao[]): Promise<IssuedPortalLink> {
  const token = newLinkToken();
  const now = deps.clock.now();
  const expiresAt = addSeconds(now, PORTAL_LINK_TTL_SECONDS);
  await insertPortalLink(deps.database.db, {
    tokenHash: hashLink(deps, token),
    channelId,
    permissoes,
    createdAt: now,
    expiresAt,
  });
  return { url: `${deps.config.publicBaseUrl}${ENTRY_PATH}${token}`, expiraEm: expiresAt.toISOString(), permissoes };
}

/** The channel of an entry link that would still let someone in; reading it uses nothing up. */
export async function usableLinkChannel(deps: Deps, token: string): Promise<string | undefined> {
  if (!TOKEN.test(token)) return undefined;
  return (await findUsablePortalLink(deps.database.db, hashLink(deps, token), deps.clock.now()))?.channel_id;
}

/** A key for rate limits of an entry-link token that exists (never the token itself). */
export const linkLimitKey = (deps: Pick<Context, 'keys'>, token: string): string =>
  `portal-link:${hashLink(deps, token).toString('base64url')}`;

/**
 * Uses an entry link and starts its session, in one transaction. Undefined when the
 * link is unknown, used, expired, revoked or its channel inactive: the caller says the
 * same for all of them.
 */
export async function redeemPortalLink(
  deps: Deps,
  token: string,
): Promise<{ sessionToken: string; session: PortalSession } | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const now = deps.clock.now();
  const sessionToken = newLinkToken();
  const id = uuidv7(now.getTime());
  const expiresAt = addSeconds(now, PORTAL_SESSION_TTL_SECONDS);
  const claimed = await deps.database.db.transaction().execute(async (tx) => {
    const link = await claimPortalLink(tx, hashLink(deps, token), now);
    if (!link) return undefined;
    await insertSession(tx, {
      id,
      tokenHash: hashSession(deps, sessionToken),
      channelId: link.channel_id,
      permissoes: link.permissoes,
      createdAt: now,
      expiresAt,
    });
    return link;
  });
  if (!claimed) return undefined;
  return {
    sessionToken,
    session: toSession({ id, channel_id: claimed.channel_id, permissoes: claimed.permissoes, expires_at: expiresAt }),
  };
}

/** The live session of a cookie's token, if any. */
export async function sessionOfToken(deps: Deps, token: string | undefined): Promise<PortalSession | undefined> {
  if (token === undefined || !TOKEN.test(token)) return undefined;
  const row = await findLiveSession(deps.database.db, hashSession(deps, token), deps.clock.now());
  return row ? toSession(row) : undefined;
}

export async function endSession(deps: Deps, sessionId: string): Promise<void> {
  await endSessionById(deps.database.db, sessionId, deps.clock.now());
}

/** DELETE /v1/portal/sessoes: every live session ends, every unused entry link stops working. */
export async function revokePortalSessions(deps: Deps, channelId: string): Promise<{ encerradas: number }> {
  return { encerradas: await endChannelSessions(deps.database.db, channelId, deps.clock.now()) };
}

/** The CSRF token of a session: an HMAC of its token, the same for the session's whole life. */
export const csrfTokenOf = (deps: Pick<Context, 'keys'>, sessionToken: string): string =>
  deps.keys.hash('portal-csrf', sessionToken).toString('base64url');

/** Whether a form's `_csrf` is the session's (constant time). */
export function csrfMatches(deps: Pick<Context, 'keys'>, sessionToken: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length > 100) return false;
  return constantTimeEqual(Buffer.from(csrfTokenOf(deps, sessionToken)), Buffer.from(given));
}

function toSession(row: { id: string; channel_id: string; permissoes: string[]; expires_at: Date }): PortalSession {
  const permissoes = PERMISSOES.filter((p) => row.permissoes.includes(p));
  return {
    id: row.id,
    channelId: row.channel_id,
    permissoes,
    canWrite: permissoes.includes('escrita'),
    expiresAt: row.expires_at,
  };
}
