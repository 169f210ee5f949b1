// The cursor of the lists walked in the order events were recorded (GET /v1/eventos and
// GET /v1/webhooks/entregas): the recording transaction's id and the event id, opaque
// to channels.
import { badRequest } from '../errors.ts';
import { FIELD_MESSAGES } from '../text/messages.ts';
import { parseInstant } from '../text/instant.ts';

export interface EventPosition {
  /** xid8 as text ('0' for events recorded before the column existed). */
  xid: string;
  id: string;
}

const CURSOR = /^(\d{1,20}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export const encodeCursor = (position: EventPosition): string =>
  Buffer.from(`${position.xid}:${position.id}`, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): EventPosition {
  const match = /^[A-Za-z0-9_-]{1,100}$/.test(cursor) ? CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  if (!match) throw badRequest('cursor_invalido', FIELD_MESSAGES.cursor_invalido!);
  return { xid: match[1]!, id: match[2]! };
}

/** `desde`/`ate` as dates, refusing one that is not a date, and an empty or backwards range. */
export function period(query: { desde?: string; ate?: string }): { desde?: Date; ate?: Date } {
  const instant = (field: 'desde' | 'ate'): Date | undefined => {
    const text = query[field];
    if (text === undefined) return undefined;
    const at = parseInstant(text);
    if (!at) throw badRequest(`${field}_invalido`, FIELD_MESSAGES[`${field}_invalido`]!);
    return at;
  };
  const desde = instant('desde');
  const ate = instant('ate');
  if (desde && ate && desde >= ate) throw badRequest('periodo_invalido', 'Período inválido: desde deve ser anterior a ate.');
  return { ...(desde ? { desde } : {}), ...(ate ? { ate } : {}) };
}
