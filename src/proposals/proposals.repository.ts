import type { Insertable, Selectable } from 'kysely';
import type { DB, Tx } from '../db/database.ts';
import type { ProposalStatus, ProposalsTable } from '../db/tables.ts';
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

/** Locks the row until the transaction ends: concurrent simulations of one proposal apply one after the other. */
export function lockProposalOfLink(tx: Tx, linkId: string): Promise<ProposalRow | undefined> {
  return tx.selectFrom('proposals').selectAll().where('link_id', '=', linkId).forUpdate().executeTakeFirst();
}

export function findProposalOfLink(db: DB, linkId: string): Promise<ProposalRow | undefined> {
  return db.selectFrom('proposals').selectAll().where('link_id', '=', linkId).executeTakeFirst();
}

export function insertProposal(tx: Tx, proposal: Insertable<ProposalsTable>): Promise<ProposalRow> {
  return tx.insertInto('proposals').values(proposal).returningAll().executeTakeFirstOrThrow();
}

/** Moves the proposal only if it is still at `from`; undefined when something else moved it first. */
export function moveProposalFrom(
  tx: Tx,
  numero: number,
  from: ProposalStatus,
  to: ProposalStatus,
  at: Date,
): Promise<ProposalRow | undefined> {
  return tx
    .updateTable('proposals')
    .set({ status: to, updated_at: at })
    .where('numero', '=', numero)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}

export async function setProposalStatus(tx: Tx, numero: number, status: ProposalStatus, at: Date): Promise<ProposalRow> {
  return tx
    .updateTable('proposals')
    .set({ status, updated_at: at })
    .where('numero', '=', numero)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The proposal number of a link that has one. */
export async function proposalNumberOfLink(db: DB, linkId: string): Promise<number> {
  const row = await db.selectFrom('proposals').select('numero').where('link_id', '=', linkId).executeTakeFirstOrThrow();
  return row.numero;
}

/** The channel a proposal belongs to (the sandbox signing page shows its brand). */
export async function channelOfProposal(db: DB, numero: number): Promise<string | undefined> {
  if (!Number.isSafeInteger(numero) || numero > 2_147_483_647) return undefined;
  const row = await db.selectFrom('proposals').select('channel_id').where('numero', '=', numero).executeTakeFirst();
  return row?.channel_id;
}
