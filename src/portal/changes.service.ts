// What portal sessions changed (docs/rules.md §10.5): recorded with the change, shown on
// the page of the thing changed ("Alterações recentes").
import type { Context } from '../context.ts';
import type { DB, Tx } from '../db/database.ts';
import { findChanges, insertChange } from './changes.repository.ts';
import type { PortalSession } from './sessions.service.ts';

/** What a portal action changed: a stable action code and its target (a kind and an id, never personal data). */
export interface Change {
  /** e.g. `webhook.url_alterada`; the page shows its label (CHANGE_LABELS) or, without one, the code. */
  acao: string;
  /** e.g. `webhook`, `entrega`, `marca`. */
  alvoTipo: string;
  /** The target's id (a delivery id; the channel id for a channel-wide thing such as its brand). */
  alvoId: string;
}

export interface RecentChange {
  acao: string;
  /** The session that made it (a UUIDv7: pages show its last, random, characters). */
  sessaoId: string;
  criadoEm: Date;
}

export const RECENT_CHANGES = 10;

/**
 * Records a change. Pass the transaction the change itself runs in, so that both commit
 * or neither does; the portal's plumbing calls it after an action that returns `change`.
 */
export async function recordChange(
  db: DB | Tx,
  session: Pick<PortalSession, 'id' | 'channelId'>,
  change: Change,
  at: Date,
): Promise<void> {
  await insertChange(db, { channelId: session.channelId, sessionId: session.id, ...change, at });
}

/** The latest changes of one target of the session's channel, newest first. */
export async function recentChanges(
  deps: Pick<Context, 'database'>,
  channelId: string,
  target: Pick<Change, 'alvoTipo' | 'alvoId'>,
  limit = RECENT_CHANGES,
): Promise<RecentChange[]> {
  const rows = await findChanges(deps.database.db, channelId, target.alvoTipo, target.alvoId, limit);
  return rows.map((row) => ({ acao: row.acao, sessaoId: row.session_id, criadoEm: row.criado_em }));
}
