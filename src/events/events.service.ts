// GET /v1/eventos and GET /v1/eventos/{id} (docs/rules.md §4): a channel's events, to
// reconcile without trusting webhooks alone. The bodies are the ones the webhooks carry.
import type { Context } from '../context.ts';
import { notFound } from '../errors.ts';
import { isUuid } from '../crypto/random.ts';
import { eventPage, eventPayload, type EventFilter } from './events.repository.ts';
import { decodeCursor, encodeCursor, period } from './event-cursor.ts';

type Deps = Pick<Context, 'database'>;

export interface EventQuery {
  cursor?: string;
  limite?: number;
  tipo?: string;
  linkId?: string;
  desde?: string;
  ate?: string;
  entregue?: boolean;
}

/**
 * One page as JSON text: `{"eventos":[…],"proximoCursor":"…"}`. The stored bodies go in
 * as they are, so each is byte for byte what was signed, and nothing is parsed or
 * serialized again (the page is the same document GET /v1/eventos's schema describes).
 */
export async function listEvents(deps: Deps, channelId: string, query: EventQuery): Promise<string> {
  const before = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
  const { desde, ate } = period(query);
  const filter: EventFilter = {
    ...(query.tipo !== undefined ? { tipo: query.tipo } : {}),
    ...(query.linkId !== undefined ? { linkId: query.linkId.toLowerCase() } : {}),
    ...(desde ? { desde } : {}),
    ...(ate ? { ate } : {}),
    ...(query.entregue !== undefined ? { entregue: query.entregue } : {}),
  };
  const limit = query.limite ?? 20;
  const rows = await eventPage(deps.database.db, channelId, filter, before, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const next = rows.length > limit && last ? `,"proximoCursor":"${encodeCursor(last)}"` : '';
  return `{"eventos":[${page.map((row) => row.payload).join(',')}]${next}}`;
}

/** The body byte for byte as signed; another channel's event is 404 like an unknown one. */
export async function getEventPayload(deps: Deps, channelId: string, id: string): Promise<string> {
  const payload = isUuid(id) ? await eventPayload(deps.database.db, channelId, id.toLowerCase()) : undefined;
  if (payload === undefined) throw notFound('Evento não encontrado.');
  return payload;
}
