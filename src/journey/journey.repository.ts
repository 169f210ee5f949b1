import type { Selectable, Updateable } from 'kysely';
import type { DB, Tx } from '../db/database.ts';
import type { JourneysTable } from '../db/tables.ts';
import type { LinkRow } from '../links/links.repository.ts';
import { moveLink } from '../links/link-states.ts';

export type JourneyRow = Selectable<JourneysTable>;
export type { LinkRow };

export type Step =
  'inicio' | 'celular' | 'codigo' | 'consulta' | 'ofertas' | 'dados' | 'revisao' | 'enviando' | 'resultado' | 'encerrado';

export function findLinkByTokenHash(db: DB, tokenHash: Buffer): Promise<LinkRow | undefined> {
  return db.selectFrom('links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function findLinkById(db: DB, id: string): Promise<LinkRow | undefined> {
  return db.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findJourney(db: DB, linkId: string): Promise<JourneyRow | undefined> {
  return db.selectFrom('journeys').selectAll().where('link_id', '=', linkId).executeTakeFirst();
}

/** First open: CRIADO → ABERTO (abertoEm set once) and the journey row, together. */
export async function openJourney(tx: DB | Tx, linkId: string, now: Date): Promise<void> {
  await moveLink(tx, linkId, 'ABERTO', now, { aberto_em: now });
  await tx
    .insertInto('journeys')
    .values({ link_id: linkId, step: 'inicio', code_attempts: 0, updated_at: now })
    .onConflict((oc) => oc.column('link_id').doNothing())
    .execute();
}

/**
 * Moves the journey only if it is still at `from`: a double submit or a second tab
 * finds the step already changed and does nothing. One conditional statement, atomic
 * alone: callers pass their transaction (Tx) when the move must commit with an event.
 */
export async function advance(
  tx: DB | Tx,
  linkId: string,
  from: Step | Step[],
  changes: Updateable<JourneysTable>,
): Promise<boolean> {
  const result = await tx
    .updateTable('journeys')
    .set(changes)
    .where('link_id', '=', linkId)
    .where('step', 'in', Array.isArray(from) ? from : [from])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setSigningUrl(tx: Tx, linkId: string, sealedUrl: Uint8Array, at: Date): Promise<void> {
  await tx.updateTable('journeys').set({ signing_url_sealed: sealedUrl, updated_at: at }).where('link_id', '=', linkId).execute();
}

/** The consent step's evidence, written while the journey is at that step. */
export async function recordConsent(
  db: DB,
  linkId: string,
  consent: { consent_version: string; consent_at: Date; consent_sealed: Uint8Array },
): Promise<void> {
  await db.updateTable('journeys').set(consent).where('link_id', '=', linkId).where('step', '=', 'consulta').execute();
}
