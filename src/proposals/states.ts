// The proposal state machine (docs/rules.md §4).
import type { ProposalStatus } from '../db/tables.ts';

// Active states only move forward: CRIADA < AGUARDANDO_FORMALIZACAO < FORMALIZADA < APROVADA.
// RECUSADA and CANCELADA are final and reachable from any active state.

export const ACTIVE = [
  'CRIADA',
  'AGUARDANDO_FORMALIZACAO',
  'FORMALIZADA',
  'APROVADA',
] as const satisfies readonly ProposalStatus[];
export const FINAL = ['RECUSADA', 'CANCELADA'] as const satisfies readonly ProposalStatus[];
export const SIMULATABLE = ['FORMALIZADA', 'APROVADA', 'RECUSADA', 'CANCELADA'] as const satisfies readonly ProposalStatus[];

export type { ProposalStatus };
export type SimulatableStatus = (typeof SIMULATABLE)[number];

export type Transition = { kind: 'unchanged' } | { kind: 'move' } | { kind: 'invalid'; reason: string };

const isFinal = (status: string): boolean => (FINAL as readonly string[]).includes(status);

export function transition(from: string, to: SimulatableStatus): Transition {
  if (from === to) return { kind: 'unchanged' };
  if (isFinal(from)) return { kind: 'invalid', reason: `A proposta está em ${from}, um estado final.` };
  switch (to) {
    case 'FORMALIZADA':
      return from === 'CRIADA' || from === 'AGUARDANDO_FORMALIZACAO'
        ? { kind: 'move' }
        : { kind: 'invalid', reason: `Não é possível voltar de ${from} para FORMALIZADA.` };
    case 'APROVADA':
      return from === 'FORMALIZADA'
        ? { kind: 'move' }
        : { kind: 'invalid', reason: `APROVADA só é possível a partir de FORMALIZADA (a proposta está em ${from}).` };
    case 'RECUSADA':
    case 'CANCELADA':
      return { kind: 'move' };
  }
}

export const EVENT_FOR: Record<
  SimulatableStatus,
  'proposta.formalizada' | 'proposta.aprovada' | 'proposta.recusada' | 'proposta.cancelada'
> = {
  FORMALIZADA: 'proposta.formalizada',
  APROVADA: 'proposta.aprovada',
  RECUSADA: 'proposta.recusada',
  CANCELADA: 'proposta.cancelada',
};
