// GET /v1/links (docs/rules.md §3.11): a channel's own links, newest first, in pages like
// GET /v1/eventos's (`cursor`, `limite`, `proximoCursor`), each as GET /v1/links/{id}
// shows it: never the url, masked CPF.
import type { Context } from '../context.ts';
import { badRequest } from '../errors.ts';
import { isCleanText } from '../text/unicode.ts';
import { FIELD_MESSAGES } from '../text/messages.ts';
import { period } from '../events/event-cursor.ts';
import { PROPOSAL_STATUSES } from '../db/tables.ts';
import { LINK_STATUSES } from './link-states.ts';
import { decodeLinkCursor, encodeLinkCursor } from './link-cursor.ts';
import { linkPage, type LinkListFilter } from './links-list.repository.ts';
import { toLinkResource, type LinkResource } from './link-resource.ts';

type Deps = Pick<Context, 'database' | 'keys' | 'clock'>;

export interface LinkListQuery {
  cursor?: string;
  limite?: number;
  status?: string;
  propostaStatus?: string;
  referenciaExterna?: string;
  desde?: string;
  ate?: string;
}

export interface LinkList {
  links: LinkResource[];
  proximoCursor?: string;
}

export const LIST_LIMIT = { default: 20, max: 100 } as const;

export async function listLinks(deps: Deps, channelId: string, query: LinkListQuery): Promise<LinkList> {
  // The cursor first: another channel's or a made-up one says nothing of any link.
  const before = query.cursor !== undefined ? decodeLinkCursor(deps.keys, channelId, query.cursor) : undefined;
  const limit = query.limite ?? LIST_LIMIT.default;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_LIMIT.max) {
    throw badRequest('limite_invalido', FIELD_MESSAGES.limite_invalido!);
  }
  const filter = parseFilter(query);
  const now = deps.clock.now();
  const { rows, stoppedAt } = await linkPage(deps.database.db, channelId, filter, before, limit + 1, now);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  // More matched than a page holds: go on after the page's last. A short page whose walk
  // ran out of budget: go on from where the walk stopped (the page may even be empty).
  const next = rows.length > limit && last ? { criadoUs: last.criado_us, id: last.id } : stoppedAt;
  return {
    links: page.map((row) => toLinkResource(row, now)),
    ...(next ? { proximoCursor: encodeLinkCursor(deps.keys, channelId, next) } : {}),
  };
}

function parseFilter(query: LinkListQuery): LinkListFilter {
  const { desde, ate } = period(query);
  return {
    ...(query.status !== undefined ? { status: oneOf(LINK_STATUSES, query.status, 'status_invalido', LIST_STATUS_MESSAGE) } : {}),
    ...(query.propostaStatus !== undefined
      ? {
          propostaStatus: oneOf(
            PROPOSAL_STATUSES,
            query.propostaStatus,
            'proposta_status_invalido',
            FIELD_MESSAGES.proposta_status_invalido!,
          ),
        }
      : {}),
    ...(query.referenciaExterna !== undefined ? { referenciaExterna: reference(query.referenciaExterna) } : {}),
    ...(desde ? { desde } : {}),
    ...(ate ? { ate } : {}),
  };
}

/** `status_invalido`'s usual message is the simulator's; the list names its values. */
export const LIST_STATUS_MESSAGE = `Parâmetro status inválido: use ${LINK_STATUSES.join(', ')}.`;

function oneOf<T extends string>(values: readonly T[], value: string, code: string, message: string): T {
  if (!(values as readonly string[]).includes(value)) throw badRequest(code, message);
  return value as T;
}

/** As stored (docs/rules.md §3.4): trimmed, 1 to 100 characters of clean text; matched exactly. */
function reference(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 100 || !isCleanText(trimmed)) {
    throw badRequest('referencia_externa_invalida', FIELD_MESSAGES.referencia_externa_invalida!);
  }
  return trimmed;
}
