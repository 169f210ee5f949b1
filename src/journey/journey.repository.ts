import type { Selectable, Updateable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { JourneysTable, LinksTable } from '../db/tables.ts';
import { LIVE_STATUSES } from '../links/links.expiry.ts';

export type JourneyRow = Selectable<JourneysTable>;
export type LinkRow = Selectable<LinksTable>;

export type Step =
  'inicio' | 'celular' | 'codigo' | 'consulta' | 'ofertas' | 'dados' | 'revisao' | 'enviando' | 'resultado' | 'encerrado';

export function findLinkByTokenHash(db: DB, tokenHash: Buffer): Promise<LinkRow | undefined> {
  return db.selectFrom('links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function findJourney(db: DB, linkId: string): Promise<JourneyRow | undefined> {
  return db.selectFrom('journeys').selectAll().where('link_id', '=', linkId).executeTakeFirst();
}

/** First open: CRIADO → ABERTO (abertoEm set once) and the journey row, together. */
export async function openJourney(tx: DB, linkId: string, now: Date): Promise<void> {
  await tx
    .updateTable('links')
    .set({ status: 'ABERTO', aberto_em: now, updated_at: now })
    .where('id', '=', linkId)
    .where('status', '=', 'CRIADO')
    .execute();
  await tx
    .insertInto('journeys')
    .values({ link_id: linkId, step: 'inicio', code_attempts: 0, updated_at: now })
    .onConflict((oc) => oc.column('link_id').doNothing())
    .execute();
}

/**
 * Moves the journey only if it is still at `from`: a double submit or a second tab
 * finds the step already changed and does nothing.
 */
export async function advance(tx: DB, linkId: string, from: Step | Step[], changes: Updateable<JourneysTable>): Promise<boolean> {
  const result = await tx
    .updateTable('journeys')
    .set(changes)
    .where('link_id', '=', linkId)
    .where('step', 'in', Array.isArray(from) ? from : [from])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setLinkStatus(
  tx: DB,
  linkId: string,
  status: 'EM_ANDAMENTO' | 'CONCLUIDO' | 'CANCELADO',
  now: Date,
): Promise<void> {
  await tx
    .updateTable('links')
    .set({ status, updated_at: now })
    .where('id', '=', linkId)
    .where('status', 'in', LIVE_STATUSES)
    .execute();
}
