// Reading the funnel's counts (migrations 0020 and 0023 keep them: one row per channel
// and São Paulo day, per day and reference, and running totals per month and reference).
// A period's funnel by day reads one row per day, whatever the number of links behind it;
// by reference, the ranking reads a row per month and reference used that month, then the
// rows by day of the references it shows.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { LinkFunnelCounts, LinkStatus, ProposalFunnelCounts } from '../db/tables.ts';
import { TIME_ZONE, type DayPeriod } from './days.ts';

/** Links by stored status; abertos: opened at least once (the columns of link_funnel_counts). */
export type LinkCounts = Omit<LinkFunnelCounts, 'channel_id' | 'dia'>;

/** Proposals by status (the columns of proposal_funnel_counts). */
export type ProposalCounts = Omit<ProposalFunnelCounts, 'channel_id' | 'dia'>;

export type Counts = LinkCounts & ProposalCounts;

export const LINK_COLUMNS = [
  'criados',
  'abertos',
  'criado',
  'aberto',
  'em_andamento',
  'concluido',
  'cancelado',
  'expirado',
] as const;
export const PROPOSAL_COLUMNS = [
  'criada',
  'aguardando_formalizacao',
  'formalizada',
  'aprovada',
  'recusada',
  'cancelada',
] as const;

const sums = (alias: string, columns: readonly string[]) =>
  sql.join(columns.map((c) => sql`coalesce(sum(${sql.ref(`${alias}.${c}`)}), 0)::int as ${sql.ref(c)}`));

/** The channel's counts per day of the period (days without links are absent). */
export async function countsByDay(db: DB, channelId: string, period: DayPeriod): Promise<(Counts & { dia: string })[]> {
  const { rows } = await sql<Counts & { dia: string }>`
    with l as (
      select dia, ${sums('d', LINK_COLUMNS)}
      from link_funnel_days d
      where d.channel_id = ${channelId} and d.dia >= ${period.de}::date and d.dia <= ${period.ate}::date
      group by dia
    ),
    p as (
      select dia, ${sums('d', PROPOSAL_COLUMNS)}
      from proposal_funnel_days d
      where d.channel_id = ${channelId} and d.dia >= ${period.de}::date and d.dia <= ${period.ate}::date
      group by dia
    )
    select to_char(l.dia, 'YYYY-MM-DD') as dia, ${sql.join(LINK_COLUMNS.map((c) => sql.ref(`l.${c}`)))},
           ${sql.join(PROPOSAL_COLUMNS.map((c) => sql`coalesce(${sql.ref(`p.${c}`)}, 0)::int as ${sql.ref(c)}`))}
    from l left join p on p.dia = l.dia
  `.execute(db);
  return rows;
}

/** The first day of the date's month and the date's day in it (AAAA-MM-DD). */
const monthDay = (day: string) => ({ mes: `${day.slice(0, 7)}-01`, dia: Number(day.slice(8, 10)) });

/**
 * The `top` references of the period with the most links created (ties by reference, in
 * byte order), and how many other references had links: from the running totals of
 * each month of the period (migration 0023), at most a row per month and reference.
 * A month's element d counts its days 1 to d: the period's share of a month is the
 * element of its last day in the period less the element of the day before its first.
 */
export async function topReferences(
  db: DB,
  channelId: string,
  period: DayPeriod,
  top: number,
): Promise<{ shown: string[]; others: number }> {
  const de = monthDay(period.de);
  const ate = monthDay(period.ate);
  const { rows } = await sql<{ referencia_externa: string; refs: number }>`
    with r as (
      select referencia_externa,
             sum(criados_ate_dia[case when mes = ${ate.mes}::date then ${ate.dia}::int else 31 end]
                 - case when mes = ${de.mes}::date and ${de.dia}::int > 1 then criados_ate_dia[${de.dia}::int - 1] else 0 end)
               as criados
      from link_funnel_reference_months
      where channel_id = ${channelId} and mes >= ${de.mes}::date and mes <= ${ate.mes}::date
      group by referencia_externa
    )
    select referencia_externa, count(*) over ()::int as refs
    from r
    where criados > 0
    order by criados desc, referencia_externa collate "C"
    limit ${top}
  `.execute(db);
  return { shown: rows.map((r) => r.referencia_externa), others: (rows[0]?.refs ?? 0) - rows.length };
}

/** The counts over the period of each of `references` ('' for the links without one). */
export async function countsOfReferences(
  db: DB,
  channelId: string,
  period: DayPeriod,
  references: string[],
): Promise<(Counts & { referencia_externa: string })[]> {
  const within = sql`channel_id = ${channelId} and referencia_externa = any(${references}::text[])
    and dia >= ${period.de}::date and dia <= ${period.ate}::date`;
  const { rows } = await sql<Counts & { referencia_externa: string }>`
    with l as (
      select referencia_externa, ${sums('d', LINK_COLUMNS)} from link_funnel_references d where ${within} group by 1
    ),
    p as (
      select referencia_externa, ${sums('d', PROPOSAL_COLUMNS)} from proposal_funnel_references d where ${within} group by 1
    )
    select l.*, ${sql.join(PROPOSAL_COLUMNS.map((c) => sql`coalesce(${sql.ref(`p.${c}`)}, 0)::int as ${sql.ref(c)}`))}
    from l left join p on p.referencia_externa = l.referencia_externa
  `.execute(db);
  return rows;
}

/**
 * Live links of the period whose time is up but which the sweeper has not marked yet
 * (few: the sweeper marks them within its interval), by day, reference and stored
 * status: the reader counts them EXPIRADO, as every read reports them.
 */
export async function expiredUnswept(
  db: DB,
  channelId: string,
  period: DayPeriod,
  now: Date,
): Promise<{ dia: string; referencia_externa: string; status: LinkStatus; n: number }[]> {
  // All of the channel's first, through the sweeper's partial index (links_expiring),
  // then the period's: planned with the period, the walk would be the channel's live links.
  const { rows } = await sql<{ dia: string; referencia_externa: string; status: LinkStatus; n: number }>`
    with late as materialized (
      select l.criado_em, l.referencia_externa, l.status from links l
      where l.status in ('CRIADO', 'ABERTO', 'EM_ANDAMENTO') and l.expira_em <= ${now} and l.channel_id = ${channelId}
    )
    select to_char((criado_em at time zone ${TIME_ZONE})::date, 'YYYY-MM-DD') as dia,
           coalesce(referencia_externa, '') as referencia_externa, status, count(*)::int as n
    from late
    where criado_em >= (${period.de}::date)::timestamp at time zone ${TIME_ZONE}
      and criado_em < (${period.ate}::date + 1)::timestamp at time zone ${TIME_ZONE}
    group by 1, 2, 3
  `.execute(db);
  return rows;
}
