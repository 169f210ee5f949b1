// "Webhooks": the webhook's address and events (a form), its health, the secret, the
// deliveries and one delivery's attempts with the receiver's answers as the API keeps
// them (the body truncated to what is stored), and the actions' forms.
import { html, type SafeHtml } from '../../http/html.ts';
import { PROPOSAL_EVENT_TYPES } from '../../events/event-body.ts';
import type { EndpointHealth, WebhookResource } from '../../webhooks/webhooks.service.ts';
import type { AttemptResource, DeliveryResource } from '../../webhooks/deliveries.service.ts';
import { DELIVERY_STATUSES } from '../../webhooks/deliveries.service.ts';
import { dataTable, dateTime, integer, notice, panel, percent, postForm, type Cell } from './components.ts';
import { DELIVERY_STATUS_LABELS } from './links.ts';

export const WEBHOOK_CHANGE_LABELS: Readonly<Record<string, string>> = {
  'webhook.configuracao_alterada': 'URL ou eventos alterados',
  'webhook.segredo_rotacionado': 'Novo segredo gerado',
  'webhook.teste_enviado': 'Evento de teste enviado',
  'webhook.entregas_recuperadas': 'Entregas que falharam reenfileiradas',
  'entrega.reenviada': 'Entrega reenviada',
};

/** Success and latency over the latest finished deliveries (the API keeps no running rate). */
export interface RecentFigures {
  /** Deliveries looked at (the most recent ones). */
  olhadas: number;
  entregues: number;
  falharam: number;
  /** Median of each one's last attempt's latency, in ms. */
  latenciaMedianaMs?: number;
}

const ms = (n: number): string => `${integer(n)} ms`;
const when = (iso: string | undefined): Cell => (iso ? dateTime(new Date(iso)) : '—');

export function configForm(options: { csrf: string; url: string; eventos: readonly string[]; error?: string }): SafeHtml {
  const { csrf, url, eventos, error } = options;
  const fields = html`<div class="campo"><label for="w-url">URL que recebe os eventos</label><input id="w-url" name="url" type="url" required maxlength="2048" value="${url}"${error ? html` aria-invalid="true" aria-describedby="w-erro"` : ''}></div>
${error ? html`<p class="erro" id="w-erro">${error}</p>` : ''}
<fieldset class="campo"><legend>Eventos enviados (nenhum marcado: todos)</legend>${PROPOSAL_EVENT_TYPES.map(
    (tipo) =>
      html`<label><input type="checkbox" name="${`eventos.${tipo}`}" value="1"${eventos.includes(tipo) ? html` checked` : ''}> <code>${tipo}</code></label>`,
  )}</fieldset>`;
  return postForm({ action: '/portal/webhooks/configuracao', csrf, button: 'Salvar URL e eventos', fields });
}

export function healthPanel(health: EndpointHealth, figures: RecentFigures): SafeHtml {
  const finished = figures.entregues + figures.falharam;
  const state = health.contido
    ? notice(
        html`Envios <strong>contidos</strong> desde ${when(health.contidoDesde)}: o endereço falhou ${integer(health.falhasSeguidas)} vezes seguidas, e as entregas esperam até ele voltar a responder.`,
        'erro',
      )
    : notice(`Envios normais: ${integer(health.falhasSeguidas)} falhas seguidas agora.`, 'info');
  return panel(
    'Saúde do endereço',
    html`${state}${dataTable({
      caption: 'Saúde do webhook',
      columns: [{ title: 'Medida' }, { title: 'Valor', numeric: true }],
      rows: [
        [
          `Taxa de sucesso (últimas ${integer(figures.olhadas)} entregas concluídas)`,
          finished > 0 ? percent(figures.entregues, finished) : '—',
        ],
        ['Latência mediana da última tentativa', figures.latenciaMedianaMs !== undefined ? ms(figures.latenciaMedianaMs) : '—'],
        ['Entregas pendentes', integer(health.pendentes)],
        ['Entregas que falharam', integer(health.falhas)],
        ['Último sucesso', when(health.ultimoSucessoEm)],
        ['Última falha', when(health.ultimaFalhaEm)],
        ['Motivo da última falha', health.ultimaFalhaMotivo ?? '—'],
      ],
    })}`,
    'saude',
  );
}

export function secretPanel(csrf: string, webhook: WebhookResource): SafeHtml {
  return panel(
    'Segredo de assinatura',
    html`<p>O segredo assina cada entrega (cabeçalho de assinatura). Ao gerar um novo, ele aparece uma única vez; o anterior continua valendo por 24 horas, para você trocar sem perder entregas.</p>
${webhook.segredoAnteriorValidoAte ? html`<p class="discreto">O segredo anterior vale até ${dateTime(new Date(webhook.segredoAnteriorValidoAte))}.</p>` : ''}
${postForm({ action: '/portal/webhooks/segredo', csrf, button: 'Gerar novo segredo', secondary: true })}`,
    'segredo',
  );
}

export function actionsPanel(csrf: string): SafeHtml {
  return panel(
    'Ações',
    html`<p>Envie agora um evento <code>webhook.teste</code> assinado (não entra na fila nem é reenviado).</p>
${postForm({ action: '/portal/webhooks/teste', csrf, button: 'Enviar evento de teste', secondary: true })}
<h3>Recuperar entregas que falharam</h3>
<form class="formulario filtros" method="get" action="/portal/webhooks/recuperar">
<div class="campo"><label for="r-desde">Criadas desde (dia, opcional)</label><input id="r-desde" name="desde" type="date"></div>
<div class="campo"><label for="r-ate">Criadas até (dia, inclusive, opcional)</label><input id="r-ate" name="ate" type="date"></div>
<button type="submit" class="botao secundario">Ver quantas serão reenfileiradas</button>
</form>`,
    'acoes',
  );
}

export const deliveryHref = (id: string): string => `/portal/webhooks/entregas/${encodeURIComponent(id)}`;

export function deliveryFilterForm(status: string | undefined): SafeHtml {
  const option = (value: string, label: string) =>
    html`<option value="${value}"${value === (status ?? '') ? html` selected` : ''}>${label}</option>`;
  return html`<form class="formulario filtros" method="get" action="/portal/webhooks/entregas" role="search" aria-label="Filtrar entregas">
<div class="campo"><label for="e-status">Status da entrega</label><select id="e-status" name="status">${option('', 'Todas')}${DELIVERY_STATUSES.map(
    (s) => option(s, DELIVERY_STATUS_LABELS[s] ?? s),
  )}</select></div>
<button type="submit" class="botao">Filtrar</button>
</form>`;
}

export function deliveriesTable(deliveries: readonly DeliveryResource[], caption: string): SafeHtml {
  if (deliveries.length === 0) return html`<p class="discreto">Nenhuma entrega com este filtro.</p>`;
  return dataTable({
    caption,
    columns: [
      { title: 'Criada em' },
      { title: 'Evento' },
      { title: 'Status' },
      { title: 'Tentativas', numeric: true },
      { title: 'Última resposta' },
      { title: 'Detalhes' },
    ],
    rows: deliveries.map((d) => [
      dateTime(new Date(d.criadoEm)),
      html`<code>${d.tipo}</code>`,
      DELIVERY_STATUS_LABELS[d.status] ?? d.status,
      integer(d.tentativas),
      d.ultimoHttpStatus !== undefined ? `HTTP ${d.ultimoHttpStatus}` : (d.ultimoErro ?? '—'),
      html`<a href="${deliveryHref(d.id)}" aria-label="${`Entrega ${d.tipo} de ${d.criadoEm}: ${DELIVERY_STATUS_LABELS[d.status] ?? d.status}`}">Ver entrega</a>`,
    ]),
  });
}

export function attemptsTable(attempts: readonly AttemptResource[]): SafeHtml {
  if (attempts.length === 0) return html`<p class="discreto">Nenhuma tentativa ainda.</p>`;
  return dataTable({
    caption: 'Tentativas, da mais antiga para a mais recente',
    columns: [
      { title: 'Nº' },
      { title: 'Quando' },
      { title: 'Resposta' },
      { title: 'Latência', numeric: true },
      { title: 'Corpo da resposta' },
    ],
    rows: attempts.map((a) => [
      integer(a.numero),
      dateTime(new Date(a.tentadaEm)),
      a.httpStatus !== undefined ? `HTTP ${a.httpStatus}` : (a.erro ?? '—'),
      ms(a.latenciaMs),
      a.corpoResposta !== undefined
        ? html`<pre class="corpo-resposta">${a.corpoResposta}</pre>${a.corpoRespostaTruncado ? html`<span class="discreto">(truncado)</span>` : ''}`
        : '—',
    ]),
  });
}

export function deliverySummary(d: DeliveryResource): SafeHtml {
  return dataTable({
    caption: 'Resumo da entrega',
    columns: [{ title: 'Campo' }, { title: 'Valor' }],
    rows: [
      ['Evento', html`<code>${d.tipo}</code> <span class="discreto">(${d.eventoId})</span>`],
      ['Status', DELIVERY_STATUS_LABELS[d.status] ?? d.status],
      ['Tentativas', integer(d.tentativas)],
      ['Próxima tentativa', when(d.proximaTentativaEm)],
      ['Entregue em', when(d.entregueEm)],
      ['Criada em', when(d.criadoEm)],
    ],
  });
}
