import type { Selectable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { ProposalsTable } from '../db/tables.ts';
import type { ProposalSnapshot } from '../events/event-body.ts';

export type ProposalRow = Selectable<ProposalsTable>;

export const toSnapshot = (row: ProposalRow): ProposalSnapshot => ({
  numero: row.numero,
  status: row.status,
  valor: row.valor_centavos / 100,
  parcelas: row.parcelas,
  valorParcela: row.valor_parcela_centavos / 100,
});

export const toCents = (reais: number): number => Math.round(reais * 100);

/** Locks the row: concurrent simulations of one proposal apply one after the other. */
export function lockProposalOfLink(tx: DB, linkId: string): Promise<ProposalRow | undefined> {
  return tx.selectFrom('proposals').selectAll().where('link_id', '=', linkId).forUpdate().executeTakeFirst();
}

export function findProposalOfLink(db: DB, linkId: string): Promise<ProposalRow | undefined> {
  return db.selectFrom('proposals').selectAll().where('link_id', '=', linkId).executeTakeFirst();
}

export async function setProposalStatus(tx: DB, numero: number, status: string, at: Date): Promise<ProposalRow> {
  return tx
    .updateTable('proposals')
    .set({ status, updated_at: at })
    .where('numero', '=', numero)
    .returningAll()
    .executeTakeFirstOrThrow();
}
