// "Sandbox": the test inbox (its viewer, the status it answers with) and the simulators
// (the journey of a link; its proposal's status), each a form on a link picked from the
// channel's latest links.
import { html, type SafeHtml } from '../../http/html.ts';
import type { Inbox } from '../../sandbox/inbox.service.ts';
import type { LinkResource } from '../../links/link-resource.ts';
import { csrfField, dataTable, dateTime, notice, panel } from './components.ts';

export interface SandboxView {
  inbox?: Inbox;
  statuses: readonly number[];
  simulatable: readonly string[];
  links: readonly LinkResource[];
  selected?: LinkResource;
  csrf: string;
  /** A success message after an action, or the simulator's refusal (pt-BR). */
  message?: { text: string; kind: 'sucesso' | 'erro' };
}

const shortId = (id: string) => `…${id.slice(-8)}`;

function linkOption(link: LinkResource, selected: string | undefined): SafeHtml {
  const parts = [
    new Date(link.criadoEm).toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', timeStyle: 'short' }),
    shortId(link.id),
    link.status,
    link.proposta ? `proposta ${link.proposta.status}` : 'sem proposta',
    ...(link.referenciaExterna ? [link.referenciaExterna] : []),
  ];
  return html`<option value="${link.id}"${link.id === selected ? html` selected` : ''}>${parts.join(' · ')}</option>`;
}

const linkSelect = (id: string, view: SandboxView): SafeHtml =>
  html`<div class="campo"><label for="${id}">Link</label><select id="${id}" name="link">${view.links.map((l) =>
    linkOption(l, view.selected?.id),
  )}</select></div>`;

function inboxPanel(view: SandboxView): SafeHtml {
  const { inbox } = view;
  if (!inbox) {
    return panel(
      'Receptor de testes',
      html`<p>O receptor de testes recebe os webhooks do canal e mostra cada evento, com a verificação da assinatura. Ainda não foi criado.</p>
<form class="formulario" method="post" action="/portal/sandbox/receptor">${csrfField(view.csrf)}<input type="hidden" name="status" value="200"><button type="submit" class="botao">Criar receptor de testes</button></form>`,
      'receptor',
    );
  }
  return panel(
    'Receptor de testes',
    html`<p>Cadastre este endereço como URL do webhook para ver os eventos chegarem: <code class="quebra">${inbox.url}</code></p>
<p><a href="${inbox.visualizacaoUrl}">Ver os eventos recebidos</a></p>
<form class="formulario" method="post" action="/portal/sandbox/receptor">${csrfField(view.csrf)}
<div class="campo"><label for="status">Status HTTP com que o receptor responde</label><select id="status" name="status">${view.statuses.map(
      (s) => html`<option value="${s}"${s === inbox.responderStatus ? html` selected` : ''}>${s}</option>`,
    )}</select></div>
<button type="submit" class="botao">Salvar status</button></form>`,
    'receptor',
  );
}

function simulatorPanel(view: SandboxView): SafeHtml {
  if (view.links.length === 0) {
    return panel(
      'Simuladores',
      html`<p>Nenhum link ainda: crie um link pela API (<code>POST /v1/links</code>) para simular a jornada e a proposta.</p>`,
      'simuladores',
    );
  }
  return panel(
    'Simuladores',
    html`<p class="discreto">Os ${view.links.length} links mais recentes do canal.</p>
<form class="formulario" method="post" action="/portal/sandbox/jornada">${csrfField(view.csrf)}${linkSelect('jornada-link', view)}
<p class="discreto">Percorre a jornada do cliente até o envio da proposta, com dados fictícios.</p>
<button type="submit" class="botao">Simular a jornada</button></form>
<form class="formulario" method="post" action="/portal/sandbox/proposta">${csrfField(view.csrf)}${linkSelect('proposta-link', view)}
<div class="campo"><label for="proposta-status">Novo status da proposta</label><select id="proposta-status" name="status">${view.simulatable.map(
      (s) => html`<option value="${s}">${s}</option>`,
    )}</select></div>
<button type="submit" class="botao">Mudar o status da proposta</button></form>`,
    'simuladores',
  );
}

function selectedPanel(link: LinkResource): SafeHtml {
  return panel(
    'Link escolhido',
    dataTable({
      caption: `Link ${shortId(link.id)}`,
      columns: [{ title: 'Campo' }, { title: 'Valor' }],
      rows: [
        ['Status do link', link.status],
        ['CPF', link.cpfMascarado],
        ['Criado em', dateTime(new Date(link.criadoEm))],
        ['Proposta', link.proposta ? `nº ${link.proposta.numero}: ${link.proposta.status}` : 'ainda não enviada'],
      ],
    }),
    'link-escolhido',
  );
}

export function sandboxBody(view: SandboxView, changes: SafeHtml): SafeHtml {
  return html`${view.message ? notice(view.message.text, view.message.kind) : ''}
<div class="colunas">${inboxPanel(view)}${simulatorPanel(view)}</div>
${view.selected ? selectedPanel(view.selected) : ''}
${changes}`;
}
