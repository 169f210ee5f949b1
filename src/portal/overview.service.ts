// "Visão geral" (docs/rules.md §10.6): the channel's funnel over the last 7 and 30 São
// Paulo days, from the funnel report (src/reports/funnel.service.ts), and the promoters
// (referenciaExterna) that convert best among those with the most links.
import type { Context } from '../context.ts';
import { funnel, type FunnelCounts } from '../reports/funnel.service.ts';
import { TIME_ZONE } from '../reports/days.ts';

type Deps = Pick<Context, 'database' | 'clock'>;

/** The periods shown, in days; the promoters are ranked over the longest. */
const LONGEST = 30;
export const PERIODS = [7, LONGEST] as const;
/** The references ranked: the funnel's most-created, re-ordered by conversion. */
const REFERENCES_RANKED = 20;
const PROMOTERS_SHOWN = 10;

export interface FunnelStep {
  label: string;
  count: number;
}

export interface PeriodFunnel {
  days: number;
  /** AAAA-MM-DD, both included. */
  de: string;
  ate: string;
  steps: FunnelStep[];
}

export interface Promoter {
  referenciaExterna: string;
  criados: number;
  concluidos: number;
}

export interface Overview {
  periods: PeriodFunnel[];
  promoters: Promoter[];
}

/** Each step counts the links that got at least that far: a cohort, so every step is within the one before. */
export const stepsOf = (c: FunnelCounts): FunnelStep[] => [
  { label: 'Criados', count: c.criados },
  { label: 'Abertos', count: c.abertos },
  { label: 'Em andamento ou concluídos', count: c.emAndamento + c.concluidos },
  { label: 'Concluídos (proposta criada)', count: c.concluidos },
];

const DAY = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The São Paulo day `n` days before `day` (AAAA-MM-DD). */
const daysBefore = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

export async function overviewOf(deps: Deps, channelId: string): Promise<Overview> {
  const today = DAY.format(deps.clock.now());
  const [periods, byReference] = await Promise.all([
    Promise.all(
      PERIODS.map(async (days): Promise<PeriodFunnel> => {
        const de = daysBefore(today, days - 1);
        const counts = await funnel(deps, channelId, { de, ate: today });
        return { days, de, ate: today, steps: stepsOf(counts.total) };
      }),
    ),
    funnel(deps, channelId, {
      de: daysBefore(today, LONGEST - 1),
      ate: today,
      agruparPor: 'referenciaExterna',
      limite: REFERENCES_RANKED,
    }),
  ]);
  const promoters = byReference.grupos
    .map((g) => ({
      referenciaExterna: 'referenciaExterna' in g ? g.referenciaExterna : '',
      criados: g.criados,
      concluidos: g.concluidos,
    }))
    .filter((p) => p.criados > 0)
    .sort((a, b) => b.concluidos / b.criados - a.concluidos / a.criados || b.criados - a.criados)
    .slice(0, PROMOTERS_SHOWN);
  return { periods, promoters };
}
