// Building blocks of portal pages, styled by portal.css (the classes named here). Values
// are escaped by `html`; nothing here shows personal data unless a caller passes it.
import { html, type SafeHtml } from '../../http/html.ts';
import { TIME_ZONE } from '../../reports/days.ts';
import type { RecentChange } from '../changes.service.ts';

/** The hidden `_csrf` field every form that changes something carries. */
export const csrfField = (csrf: string): SafeHtml => html`<input type="hidden" name="_csrf" value="${csrf}">`;

/**
 * A form that POSTs to a portal action: the CSRF field, `fields` (labelled inputs the
 * caller builds), and one submit button. `secondary` draws a quieter button.
 */
export function postForm(options: {
  action: string;
  csrf: string;
  button: string;
  fields?: SafeHtml;
  secondary?: boolean;
}): SafeHtml {
  return html`<form class="formulario" method="post" action="${options.action}">${csrfField(options.csrf)}${options.fields ?? ''}<button type="submit" class="${options.secondary ? 'botao secundario' : 'botao'}">${options.button}</button></form>`;
}

export type Cell = string | number | SafeHtml;

export interface Column {
  title: string;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
}

/**
 * A table with a caption, in a box that scrolls sideways on its own when a phone is
 * narrower than the table (focusable, so a keyboard can scroll it), never the page.
 */
export function dataTable(options: { caption: string; columns: readonly Column[]; rows: readonly Cell[][] }): SafeHtml {
  const { caption, columns, rows } = options;
  const cls = (column: Column | undefined) => (column?.numeric ? html` class="numero"` : '');
  return html`<div class="tabela-rolagem" role="region" aria-label="${caption}" tabindex="0"><table class="tabela">
<caption>${caption}</caption>
<thead><tr>${columns.map((c) => html`<th scope="col"${cls(c)}>${c.title}</th>`)}</tr></thead>
<tbody>${rows.map(
    (row) =>
      html`<tr>${row.map((cell, i) =>
        i === 0 ? html`<th scope="row">${cell}</th>` : html`<td${cls(columns[i])}>${cell}</td>`,
      )}</tr>`,
  )}</tbody>
</table></div>`;
}

/** A boxed part of a page with its h2. */
export const panel = (heading: string, body: SafeHtml, id?: string): SafeHtml =>
  html`<section class="painel"${id ? html` id="${id}"` : ''}><h2>${heading}</h2>${body}</section>`;

/** A short message: `sucesso` after an action, `erro` for a refusal, `info` otherwise. */
export const notice = (text: string | SafeHtml, kind: 'sucesso' | 'erro' | 'info' = 'info'): SafeHtml =>
  html`<p class="aviso aviso-${kind}" role="${kind === 'erro' ? 'alert' : 'status'}">${text}</p>`;

const DATE_TIME = new Intl.DateTimeFormat('pt-BR', {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** `29/11/2026, 14:03` in São Paulo time, inside a <time> with the exact instant. */
export const dateTime = (at: Date): SafeHtml => html`<time datetime="${at.toISOString()}">${DATE_TIME.format(at)}</time>`;

const PERCENT = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 1 });

/** `part / whole` as a pt-BR percentage; "—" when there is nothing to divide by. */
export const percent = (part: number, whole: number): string => (whole > 0 ? PERCENT.format(part / whole) : '—');

const INTEGER = new Intl.NumberFormat('pt-BR');
export const integer = (n: number): string => INTEGER.format(n);

/**
 * "Alterações recentes" of one target (recentChanges in changes.service.ts): when, what
 * (its label in `labels`, else the action code) and which session.
 */
export function recentChangesPanel(changes: readonly RecentChange[], labels: Readonly<Record<string, string>> = {}): SafeHtml {
  const body =
    changes.length === 0
      ? html`<p class="discreto">Nenhuma alteração feita pelo portal.</p>`
      : html`<ul class="alteracoes">${changes.map(
          (c) =>
            html`<li>${dateTime(c.criadoEm)}: ${labels[c.acao] ?? c.acao} <span class="discreto">(sessão …${c.sessaoId.slice(-8)})</span></li>`,
        )}</ul>`;
  return panel('Alterações recentes', body);
}
