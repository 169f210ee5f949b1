// "Links": the list with its filters (a GET form: works without JavaScript, and the
// address keeps the filters) and one link's timeline. Only what GET /v1/links shows:
// the masked CPF, never the link's URL, a phone or a name.
import { html, type SafeHtml } from '../../http/html.ts';
import { LINK_STATUSES } from '../../links/link-states.ts';
import { PROPOSAL_STATUSES } from '../../db/tables.ts';
import type { LinkResource } from '../../links/link-resource.ts';
import type { LinkTimeline } from '../link-timeline.service.ts';
import { dataTable, dateTime, integer, notice, panel } from './components.ts';

export const LINK_STATUS_LABELS: Readonly<Record<string, string>> = {
  CRIADO: 'Criado',
  ABERTO: 'Aberto',
  EM_ANDAMENTO: 'Em andamento',
  CONCLUIDO: 'Concluído',
  CANCELADO: 'Cancelado',
  EXPIRADO: 'Expirado',
};

export const PROPOSAL_STATUS_LABELS: Readonly<Record<string, string>> = {
  CRIADA: 'Criada',
  AGUARDANDO_FORMALIZACAO: 'Aguardando formalização',
  FORMALIZADA: 'Formalizada',
  APROVADA: 'Aprovada',
  RECUSADA: 'Recusada',
  CANCELADA: 'Cancelada',
};

export const DELIVERY_STATUS_LABELS: Readonly<Record<string, string>> = {
  PENDENTE: 'Pendente',
  ENTREGUE: 'Entregue',
  FALHOU: 'Falhou',
};

const STEP_LABELS: Readonly<Record<string, string>> = {
  inicio: 'Início',
  celular: 'Celular',
  codigo: 'Código por SMS',
  consulta: 'Autorização da consulta',
  ofertas: 'Ofertas',
  dados: 'Dados para a proposta',
  revisao: 'Revisão',
  enviando: 'Enviando a proposta',
  resultado: 'Resultado',
  encerrado: 'Encerrada',
};

/** The list's filters as the form holds them (days as AAAA-MM-DD, São Paulo). */
export interface LinkFilters {
  status?: string;
  propostaStatus?: string;
  referenciaExterna?: string;
  desde?: string;
  ate?: string;
}

const option = (value: string, label: string, selected: string | undefined): SafeHtml =>
  html`<option value="${value}"${value === (selected ?? '') ? html` selected` : ''}>${label}</option>`;

function select(
  name: string,
  label: string,
  labels: Readonly<Record<string, string>>,
  values: readonly string[],
  selected?: string,
) {
  return html`<div class="campo"><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">${option('', 'Todos', selected)}${values.map(
    (v) => option(v, labels[v] ?? v, selected),
  )}</select></div>`;
}

export function linkFilterForm(filters: LinkFilters): SafeHtml {
  return html`<form class="formulario filtros" method="get" action="/portal/links" role="search" aria-label="Filtrar links">
${select('status', 'Status do link', LINK_STATUS_LABELS, LINK_STATUSES, filters.status)}
${select('propostaStatus', 'Status da proposta', PROPOSAL_STATUS_LABELS, PROPOSAL_STATUSES, filters.propostaStatus)}
<div class="campo"><label for="f-referenciaExterna">Referência externa</label><input id="f-referenciaExterna" name="referenciaExterna" maxlength="100" value="${filters.referenciaExterna ?? ''}"></div>
<div class="campo"><label for="f-desde">Criados desde (dia)</label><input id="f-desde" name="desde" type="date" value="${filters.desde ?? ''}"></div>
<div class="campo"><label for="f-ate">Criados até (dia, inclusive)</label><input id="f-ate" name="ate" type="date" value="${filters.ate ?? ''}"></div>
<button type="submit" class="botao">Filtrar</button> <a href="/portal/links">Limpar filtros</a>
</form>`;
}

export const linkHref = (id: string): string => `/portal/links/${encodeURIComponent(id)}`;

function proposalCell(link: LinkResource): string {
  return link.proposta
    ? `nº ${link.proposta.numero}: ${PROPOSAL_STATUS_LABELS[link.proposta.status] ?? link.proposta.status}`
    : '—';
}

export function linkListBody(options: {
  filters: LinkFilters;
  links?: readonly LinkResource[];
  nextHref?: string;
  error?: string;
  paged: boolean;
}): SafeHtml {
  const { filters, links, nextHref, error, paged } = options;
  const list =
    links === undefined
      ? ''
      : links.length === 0
        ? html`<p class="discreto">Nenhum link ${paged ? 'mais antigo ' : ''}com estes filtros.</p>`
        : dataTable({
            caption: paged ? 'Links, continuação (mais novos primeiro)' : 'Links do canal, mais novos primeiro',
            columns: [
              { title: 'Criado em' },
              { title: 'Link' },
              { title: 'Status' },
              { title: 'CPF' },
              { title: 'Referência externa' },
              { title: 'Proposta' },
            ],
            rows: links.map((l) => [
              dateTime(new Date(l.criadoEm)),
              html`<a href="${linkHref(l.id)}" aria-label="${`Linha do tempo do link ${l.id}`}">…${l.id.slice(-12)}</a>`,
              LINK_STATUS_LABELS[l.status] ?? l.status,
              l.cpfMascarado,
              l.referenciaExterna ?? '—',
              proposalCell(l),
            ]),
          });
  return html`${panel('Filtros', linkFilterForm(filters), 'filtros')}
${error ? notice(error, 'erro') : ''}
${list}
${paged ? html`<p><a href="${'/portal/links'}">Voltar aos mais novos</a></p>` : ''}
${nextHref ? html`<p><a class="botao secundario" href="${nextHref}">Mais antigos</a></p>` : ''}`;
}

interface Moment {
  at: Date;
  what: SafeHtml | string;
}

/** The timeline, oldest first: what the link, its journey and its events say happened. */
export function timelineBody(t: LinkTimeline): SafeHtml {
  const { link, jornada } = t;
  const moments: Moment[] = [{ at: new Date(link.criadoEm), what: 'Link criado' }];
  if (link.abertoEm) moments.push({ at: new Date(link.abertoEm), what: 'Aberto pelo cliente' });
  if (jornada?.codigoEnviadoEm) moments.push({ at: jornada.codigoEnviadoEm, what: 'Código de confirmação enviado por SMS' });
  if (link.consentimento)
    moments.push({ at: new Date(link.consentimento.concedidoEm), what: 'Consentimento dado para a consulta' });
  for (const e of t.eventos) {
    const status = e.propostaStatus ? ` (${PROPOSAL_STATUS_LABELS[e.propostaStatus] ?? e.propostaStatus})` : '';
    const delivery = e.entrega
      ? html` · webhook: <a href="${`/portal/webhooks/entregas/${e.entrega.id}`}">${DELIVERY_STATUS_LABELS[e.entrega.status] ?? e.entrega.status}, ${integer(e.entrega.tentativas)} ${e.entrega.tentativas === 1 ? 'tentativa' : 'tentativas'}</a>`
      : html` · <span class="discreto">sem entrega de webhook</span>`;
    moments.push({
      at: new Date(e.ocorridoEm),
      what: html`Evento <code>${e.tipo}</code>${status}${e.motivo ? `: ${e.motivo}` : ''}${delivery}`,
    });
  }
  if (jornada) {
    const ended = jornada.motivoEncerramento ? ` (motivo: ${jornada.motivoEncerramento})` : '';
    moments.push({
      at: jornada.atualizadaEm,
      what: `Jornada na etapa “${STEP_LABELS[jornada.etapa] ?? jornada.etapa}”${ended}: última mudança registrada`,
    });
  }
  if (link.dadosPessoaisRemovidosEm)
    moments.push({ at: new Date(link.dadosPessoaisRemovidosEm), what: 'Dados pessoais removidos' });
  moments.sort((a, b) => a.at.getTime() - b.at.getTime());

  const summary = dataTable({
    caption: 'Resumo do link',
    columns: [{ title: 'Campo' }, { title: 'Valor' }],
    rows: [
      ['Status', LINK_STATUS_LABELS[link.status] ?? link.status],
      ['CPF', link.cpfMascarado],
      ['Referência externa', link.referenciaExterna ?? '—'],
      ['Expira em', dateTime(new Date(link.expiraEm))],
      ['Proposta', proposalCell(link)],
    ],
  });
  return html`<p class="discreto">Link <code>${link.id}</code></p>
${panel('Resumo', summary, 'resumo')}
${panel(
  'Linha do tempo',
  html`<ol class="linha-do-tempo">${moments.map((m) => html`<li>${dateTime(m.at)}: ${m.what}</li>`)}</ol>${
    t.maisEventos ? html`<p class="discreto">Mostrando só os eventos mais recentes deste link.</p>` : ''
  }<p class="discreto">A jornada guarda só a etapa em que está agora, não cada passagem por etapa.</p>`,
  'linha-do-tempo',
)}
<p><a href="/portal/links">Voltar à lista de links</a></p>`;
}
