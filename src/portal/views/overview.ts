// "Visão geral": each period's funnel as an inline SVG bar chart (role="img", its text
// alternative saying every figure) and a table that says the same, then the promoters.
import { html, type SafeHtml } from '../../http/html.ts';
import type { Overview, PeriodFunnel, Promoter } from '../overview.service.ts';
import { dataTable, integer, panel, percent } from './components.ts';

const WIDTH = 320;
const ROW = 44;

const dayText = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** "Abertos: 95 (79,2% da etapa anterior)" for each step after the first. */
function describeSteps(period: PeriodFunnel): string {
  return period.steps
    .map((step, i) => {
      const before = period.steps[i - 1];
      return before
        ? `${step.label}: ${integer(step.count)} (${percent(step.count, before.count)} da etapa anterior)`
        : `${step.label}: ${integer(step.count)}`;
    })
    .join('; ');
}

export function funnelChart(period: PeriodFunnel): SafeHtml {
  const max = Math.max(...period.steps.map((s) => s.count));
  const height = period.steps.length * ROW;
  return html`<svg class="grafico" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" focusable="false" aria-label="${`Funil dos últimos ${period.days} dias. ${describeSteps(period)}.`}">${period.steps.map(
    (step, i) => {
      const width = max > 0 ? Math.round((step.count / max) * WIDTH) : 0;
      return html`<text x="0" y="${i * ROW + 14}">${step.label}: ${integer(step.count)}</text><rect class="grafico-fundo" x="0" y="${i * ROW + 20}" width="${WIDTH}" height="16" rx="3"></rect>${
        width > 0 ? html`<rect class="grafico-barra" x="0" y="${i * ROW + 20}" width="${width}" height="16" rx="3"></rect>` : ''
      }`;
    },
  )}</svg>`;
}

export function funnelTable(period: PeriodFunnel): SafeHtml {
  return dataTable({
    caption: `Funil dos últimos ${period.days} dias, por etapa`,
    columns: [{ title: 'Etapa' }, { title: 'Links', numeric: true }, { title: 'Conversão da etapa anterior', numeric: true }],
    rows: period.steps.map((step, i) => {
      const before = period.steps[i - 1];
      return [step.label, integer(step.count), before ? percent(step.count, before.count) : '—'];
    }),
  });
}

function periodPanel(period: PeriodFunnel): SafeHtml {
  const first = period.steps[0]!.count;
  const last = period.steps[period.steps.length - 1]!.count;
  return panel(
    `Últimos ${period.days} dias`,
    html`<p class="discreto">De ${dayText(period.de)} a ${dayText(period.ate)}. Conversão total (criados → concluídos): <strong>${percent(last, first)}</strong>.</p>
${funnelChart(period)}
${funnelTable(period)}`,
    `funil-${period.days}`,
  );
}

function promotersPanel(promoters: readonly Promoter[], days: number): SafeHtml {
  const body =
    promoters.length === 0
      ? html`<p class="discreto">Nenhum link com <code>referenciaExterna</code> nos últimos ${days} dias.</p>`
      : dataTable({
          caption: `Referências com mais links nos últimos ${days} dias, da maior conversão para a menor`,
          columns: [
            { title: 'Referência' },
            { title: 'Criados', numeric: true },
            { title: 'Concluídos', numeric: true },
            { title: 'Conversão', numeric: true },
          ],
          rows: promoters.map((p) => [
            p.referenciaExterna,
            integer(p.criados),
            integer(p.concluidos),
            percent(p.concluidos, p.criados),
          ]),
        });
  return panel('Promotores que mais convertem', body, 'promotores');
}

export function overviewBody(overview: Overview): SafeHtml {
  const longest = overview.periods[overview.periods.length - 1]!.days;
  return html`<p>Até onde chegaram os links criados em cada período: cada link conta no dia em que foi criado (dias de São Paulo), pela etapa a que chegou até agora.</p>
<div class="colunas">${overview.periods.map(periodPanel)}</div>
${promotersPanel(overview.promoters, longest)}`;
}
