// The link state machine (docs/rules.md §3). Every change of a link's status goes
// through `moveLink` (or the sweeper's expiry), which only moves a link from a state
// that may reach the new one: a late or repeated move finds the status already changed
// and does nothing.
//
//   CRIADO ──first open──▶ ABERTO ──phone confirmed──▶ EM_ANDAMENTO ──proposal created──▶ CONCLUIDO
//      └────────────┴── journey ended (SMS or bank refused) ──▶ CANCELADO ◀───┘
//   any live state ── expiraEm passed ──▶ EXPIRADO (read so at once; stored by the sweeper)
import type { DB, Tx } from '../db/database.ts';
import type { LinkStatus } from '../db/tables.ts';

export type { LinkStatus };
export const LINK_STATUSES = [
  'CRIADO',
  'ABERTO',
  'EM_ANDAMENTO',
  'CONCLUIDO',
  'CANCELADO',
  'EXPIRADO',
] as const satisfies readonly LinkStatus[];

/** The states a customer can still act in; they expire with time. */
export const LIVE_STATUSES = ['CRIADO', 'ABERTO', 'EM_ANDAMENTO'] as const satisfies readonly LinkStatus[];

/** Where each status may go (EXPIRADO only by time, see `expireLinks`). */
const NEXT: Record<LinkStatus, readonly LinkStatus[]> = {
  CRIADO: ['ABERTO', 'CANCELADO', 'EXPIRADO'],
  ABERTO: ['EM_ANDAMENTO', 'CANCELADO', 'EXPIRADO'],
  EM_ANDAMENTO: ['CONCLUIDO', 'CANCELADO', 'EXPIRADO'],
  CONCLUIDO: [],
  CANCELADO: [],
  EXPIRADO: [],
};

/** The statuses from which a link may move to `to`. */
export function statusesBefore(to: LinkStatus): LinkStatus[] {
  return LINK_STATUSES.filter((from) => NEXT[from].includes(to));
}

export function canMove(from: LinkStatus, to: LinkStatus): boolean {
  return NEXT[from].includes(to);
}

/** The status a reader sees: a live link whose time is up is EXPIRADO even before the sweeper stores it. */
export function effectiveStatus(status: LinkStatus, expiraEm: Date, now: Date): LinkStatus {
  return (LIVE_STATUSES as readonly LinkStatus[]).includes(status) && expiraEm <= now ? 'EXPIRADO' : status;
}

/**
 * Moves a link to `to` if its status may go there; true when it moved. The journey's
 * moves run in the transaction of the event they cause.
 */
export async function moveLink(
  db: DB | Tx,
  linkId: string,
  to: Exclude<LinkStatus, 'CRIADO' | 'EXPIRADO'>,
  now: Date,
  extra: { aberto_em?: Date } = {},
): Promise<boolean> {
  const result = await db
    .updateTable('links')
    .set({ status: to, updated_at: now, ...extra })
    .where('id', '=', linkId)
    .where('status', 'in', statusesBefore(to))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
