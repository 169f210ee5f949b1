// GET /v1/relatorios/funil (docs/rules.md §3.12): how far a channel's links got, by the
// São Paulo day they were created on or by their reference. A cohort: the links created
// in the period, each counted by how far it got up to now.
//   criados     the links created
//   abertos     of them, opened by the customer at least once (abertoEm), whatever came next
//   emAndamento of them, EM_ANDAMENTO now: phone confirmed, no proposal yet, not expired
//   concluidos  of them, CONCLUIDO: a proposal was created at the bank
//   cancelados, expirados: ended without a proposal (EXPIRADO as reads report it)
//   propostas   the proposals of those links by their status now (they add up to concluidos)
import type { Context } from '../context.ts';
import { badRequest } from '../errors.ts';
import { FIELD_MESSAGES } from '../text/messages.ts';
import type { LinkStatus } from '../db/tables.ts';
import { PROPOSAL_STATUSES, type ProposalStatus } from '../db/tables.ts';
import { dayPeriod, TIME_ZONE } from './days.ts';
import {
  countsByDay,
  countsOfReferences,
  expiredUnswept,
  topReferences,
  LINK_COLUMNS,
  PROPOSAL_COLUMNS,
  type Counts,
} from './funnel.repository.ts';

type Deps = Pick<Context, 'database' | 'clock'>;

export const GROUPINGS = ['dia', 'referenciaExterna'] as const;
export type Grouping = (typeof GROUPINGS)[number];
export const REFERENCE_GROUPS = { default: 20, max: 100 } as const;

export interface FunnelQuery {
  de?: string;
  ate?: string;
  agruparPor?: string;
  limite?: number;
}

export interface FunnelCounts {
  criados: number;
  abertos: number;
  emAndamento: number;
  concluidos: number;
  cancelados: number;
  expirados: number;
  propostas: Record<ProposalStatus, number>;
}

export interface Funnel {
  de: string;
  ate: string;
  fusoHorario: string;
  agruparPor: Grouping;
  geradoEm: string;
  total: FunnelCounts;
  grupos: ((FunnelCounts & { dia: string }) | (FunnelCounts & { referenciaExterna: string }))[];
  semReferencia?: FunnelCounts;
  outros?: FunnelCounts & { referencias: number };
}

export async function funnel(deps: Deps, channelId: string, query: FunnelQuery): Promise<Funnel> {
  const period = dayPeriod(query);
  const agruparPor = (query.agruparPor ?? 'dia') as Grouping;
  if (!GROUPINGS.includes(agruparPor)) throw badRequest('agrupar_por_invalido', FIELD_MESSAGES.agrupar_por_invalido!);
  const top = query.limite ?? REFERENCE_GROUPS.default;
  if (!Number.isInteger(top) || top < 1 || top > REFERENCE_GROUPS.max) {
    throw badRequest('limite_invalido', FIELD_MESSAGES.limite_invalido!);
  }
  const now = deps.clock.now();
  // One snapshot for every read: the groups, the total and `outros` (the total less the
  // groups shown) then add up, however many links change state meanwhile. Read only, it
  // takes no lock and never waits for a writer (on PGlite, a transaction is exclusive).
  const { byDay, late, ranking, references } = await deps.database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const byDay = await countsByDay(tx, channelId, period);
      const late = await expiredUnswept(tx, channelId, period, now);
      if (agruparPor !== 'referenciaExterna') return { byDay, late, ranking: undefined, references: [] };
      const ranking = await topReferences(tx, channelId, period, top);
      const references = await countsOfReferences(tx, channelId, period, ['', ...ranking.shown]);
      return { byDay, late, ranking, references };
    });
  const head = { de: period.de, ate: period.ate, fusoHorario: TIME_ZONE, geradoEm: now.toISOString() };
  const total = zero();
  for (const row of byDay) add(total, row);
  for (const { status, n } of late) expire(total, status, n);

  if (!ranking) {
    const days = new Map<string, Counts>(byDay.map((row) => [row.dia, { ...row }]));
    for (const { dia, status, n } of late) {
      if (!days.has(dia)) days.set(dia, zero());
      expire(days.get(dia)!, status, n);
    }
    return {
      ...head,
      agruparPor,
      total: present(total),
      grupos: period.days.map((dia) => ({ dia, ...present(days.get(dia) ?? zero()) })),
    };
  }

  const { shown, others } = ranking;
  const rows = new Map(references.map((r) => [r.referencia_externa, r]));
  for (const { referencia_externa, status, n } of late) {
    const row = rows.get(referencia_externa);
    if (row) expire(row, status, n);
  }
  // The references not shown: the period's total less those shown and the links without one.
  const rest = { ...total };
  for (const row of rows.values()) subtract(rest, row);
  const none = rows.get('');
  return {
    ...head,
    agruparPor,
    total: present(total),
    grupos: shown.map((referenciaExterna) => ({ referenciaExterna, ...present(rows.get(referenciaExterna) ?? zero()) })),
    ...(none && none.criados > 0 ? { semReferencia: present(none) } : {}),
    ...(others > 0 ? { outros: { referencias: others, ...present(rest) } } : {}),
  };
}

const zero = (): Counts =>
  Object.fromEntries([...LINK_COLUMNS, ...PROPOSAL_COLUMNS].map((column) => [column, 0])) as unknown as Counts;

function add(into: Counts, row: Counts): void {
  for (const column of [...LINK_COLUMNS, ...PROPOSAL_COLUMNS]) into[column] += row[column];
}

function subtract(from: Counts, row: Counts): void {
  for (const column of [...LINK_COLUMNS, ...PROPOSAL_COLUMNS]) from[column] -= row[column];
}

const STORED: Partial<Record<LinkStatus, 'criado' | 'aberto' | 'em_andamento'>> = {
  CRIADO: 'criado',
  ABERTO: 'aberto',
  EM_ANDAMENTO: 'em_andamento',
};

/** `n` links counted by a live status whose time is up: EXPIRADO, as reads report them. */
function expire(counts: Counts, status: LinkStatus, n: number): void {
  const column = STORED[status];
  if (column === undefined) return;
  counts[column] -= n;
  counts.expirado += n;
}

function present(counts: Counts): FunnelCounts {
  return {
    criados: counts.criados,
    abertos: counts.abertos,
    emAndamento: counts.em_andamento,
    concluidos: counts.concluido,
    cancelados: counts.cancelado,
    expirados: counts.expirado,
    propostas: Object.fromEntries(PROPOSAL_STATUSES.map((status) => [status, counts[proposalColumn(status)]])) as Record<
      ProposalStatus,
      number
    >,
  };
}

const proposalColumn = (status: ProposalStatus): (typeof PROPOSAL_COLUMNS)[number] =>
  status.toLowerCase() as (typeof PROPOSAL_COLUMNS)[number];
