// The portal's change record (portal_changes): who (the session), what (a stable action
// code), which target, when. Never personal data: a target is a kind and an id.
import { sql } from 'kysely';
import type { DB, Tx } from '../db/database.ts';
import { uuidv7 } from '../crypto/random.ts';

export interface ChangeRow {
  id: string;
  session_id: string;
  acao: string;
  criado_em: Date;
}

export async function insertChange(
  db: DB | Tx,
  change: { channelId: string; sessionId: string; acao: string; alvoTipo: string; alvoId: string; at: Date },
): Promise<void> {
  await db
    .insertInto('portal_changes')
    .values({
      id: uuidv7(change.at.getTime()),
      channel_id: change.channelId,
      session_id: change.sessionId,
      acao: change.acao,
      alvo_tipo: change.alvoTipo,
      alvo_id: change.alvoId,
      criado_em: change.at,
    })
    .execute();
}

/** The latest changes of one target of the channel, newest first (one index range). */
export function findChanges(db: DB, channelId: string, alvoTipo: string, alvoId: string, limit: number): Promise<ChangeRow[]> {
  return db
    .selectFrom('portal_changes')
    .select(['id', 'session_id', 'acao', 'criado_em'])
    .where('channel_id', '=', channelId)
    .where('alvo_tipo', '=', alvoTipo)
    .where('alvo_id', '=', alvoId)
    .orderBy('criado_em', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Changes recorded before `cutoff`, up to `batch` per call (the sweeper repeats it). */
export async function pruneChanges(db: DB, cutoff: Date, batch: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with gone as (
      delete from portal_changes c
      using (select id from portal_changes where criado_em < ${cutoff} order by criado_em limit ${batch}) due
      where c.id = due.id
      returning 1
    )
    select count(*)::int as n from gone
  `.execute(db);
  return rows[0]?.n ?? 0;
}
