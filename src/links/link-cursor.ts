// The cursor of GET /v1/links (docs/rules.md §3.11), opaque to channels like the events'
// one (base64url text): the position of the last link of a page, its creation time to
// the microsecond and its id, so that links created while a channel pages arrive before
// the position (newest first) and never move a page. A keyed tag binds the position to
// the channel it was given to: another channel's cursor, or one made up, is refused
// before any query (it could otherwise probe when another channel's links were created).
import { badRequest } from '../errors.ts';
import type { Keys } from '../crypto/keys.ts';
import { constantTimeEqual } from '../crypto/keys.ts';
import { FIELD_MESSAGES } from '../text/messages.ts';

export interface LinkPosition {
  /** criado_em as microseconds since the epoch (the database's precision), decimal. */
  criadoUs: string;
  id: string;
}

const CURSOR = /^(\d{1,17}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):([A-Za-z0-9_-]{22})$/;

const tag = (keys: Pick<Keys, 'hash'>, channelId: string, position: LinkPosition): string =>
  keys.hash('links-cursor', `${channelId}\n${position.criadoUs}\n${position.id}`).subarray(0, 16).toString('base64url');

export const encodeLinkCursor = (keys: Pick<Keys, 'hash'>, channelId: string, position: LinkPosition): string =>
  Buffer.from(`${position.criadoUs}:${position.id}:${tag(keys, channelId, position)}`, 'utf8').toString('base64url');

export function decodeLinkCursor(keys: Pick<Keys, 'hash'>, channelId: string, cursor: string): LinkPosition {
  const match = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  const position = match ? { criadoUs: match[1]!, id: match[2]! } : undefined;
  if (!position || !constantTimeEqual(Buffer.from(match![3]!), Buffer.from(tag(keys, channelId, position)))) {
    throw badRequest('cursor_invalido', FIELD_MESSAGES.cursor_invalido!);
  }
  return position;
}

/** The position's instant as text PostgreSQL reads to the microsecond (a Date holds milliseconds). */
export function positionInstant(position: LinkPosition): string {
  const micros = BigInt(position.criadoUs);
  const ms = Number(micros / 1000n);
  const rest = String(micros % 1000n).padStart(3, '0');
  return new Date(ms).toISOString().replace('Z', `${rest}Z`);
}
