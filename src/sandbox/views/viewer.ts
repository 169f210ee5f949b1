// The inbox viewer page. Server-rendered (it works without JavaScript, with forms for
// the controls); viewer.js then keeps the list fresh without reloading. Times are
// shown in Brasília time, on the page and in the script alike.
import { html, type SafeHtml } from '../../http/html.ts';
import { documentHead } from '../../journey/views/layout.ts';
import { viewerAssets } from './assets.ts';
import type { EventPreview, PreviewPage, ReceivedEvent } from '../inbox.service.ts';
import { ALLOWED_STATUSES } from '../inbox.service.ts';

const time = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'America/Sao_Paulo' });

export const EMPTY_TEXT = 'Nenhum evento recebido ainda. Envie um teste com POST /v1/webhooks/teste.';

/** Confirmations shown after a form fallback (POST, 303, GET ?aviso=…). */
export type Notice = 'modo' | 'limpo';

export function badge(event: Pick<ReceivedEvent, 'assinaturaValida' | 'motivo'>): SafeHtml {
  if (event.assinaturaValida === true) return html`<span class="selo valido">Assinatura válida</span>`;
  if (event.assinaturaValida === false) return html`<span class="selo invalido">Assinatura inválida</span>`;
  return html`<span class="selo nao-verificado">Não verificada: ${event.motivo ?? 'motivo desconhecido'}</span>`;
}

const kilobytes = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
const sizeText = (bytes: number): string => (bytes < 1024 ? `${bytes} bytes` : `${kilobytes.format(bytes / 1024)} KB`);

/** Where the exact bytes of an event are (text/plain): the page shows a preview only. */
export const rawBodyPath = (token: string, id: number): string =>
  `/v1/sandbox/receptor/${encodeURIComponent(token)}/eventos/${id}/corpo`;

/** One event of the list. It never changes once stored, so the route keeps it rendered. */
export function eventItem(token: string, event: EventPreview): SafeHtml {
  const ok = event.respondeuStatus >= 200 && event.respondeuStatus < 300;
  const partial = event.completa
    ? ''
    : html`<p class="aviso-corpo">Prévia: só o início do corpo, que tem ${sizeText(event.bytes)}.</p>`;
  return html`<li class="evento" data-id="${event.id}">
  <div class="linha">
    <span class="tipo">${event.tipo ?? '(sem tipo)'}</span>
    ${badge(event)}
  </div>
  <div class="meta">
    <time datetime="${event.recebidoEm}">${time.format(new Date(event.recebidoEm))}</time>
    <span>Tentativa ${event.tentativa ?? '–'}</span>
    <span class="${ok ? 'resposta' : 'resposta falha'}">Respondeu ${event.respondeuStatus}</span>
    ${event.eventoId ? html`<span class="id">ID ${event.eventoId}</span>` : ''}
  </div>
  <details><summary>Corpo</summary>${event.previaAviso ? html`<p class="aviso-corpo">${event.previaAviso}</p>` : ''}${partial}<pre>${event.previa === '' ? '(vazio)' : event.previa}</pre>
  <p class="corpo-exato"><a href="${rawBodyPath(token, event.id)}" target="_blank" rel="noopener">Corpo exato como texto (${sizeText(event.bytes)})</a></p></details>
  <details><summary>Cabeçalhos</summary><pre>${Object.entries(event.headers)
    .map(([k, v]) => `${k}: ${v}\n`)
    .join('')}</pre></details>
</li>`;
}

function shell(title: string, body: SafeHtml, token?: string): SafeHtml {
  // The list needs the width; a message reads better in a narrow card.
  return html`<!doctype html>
<html lang="pt-BR">
${documentHead(
  title,
  html`<link rel="stylesheet" href="${viewerAssets.url('viewer.css')}">
${token ? html`<script src="${viewerAssets.url('viewer.js')}" defer></script>` : ''}`,
)}
<body${token ? html` data-token="${token}"` : ''}>
<header class="topo"><span class="marca">Consigna</span><span class="produto">Receptor de testes (sandbox)</span></header>
<main class="${token ? 'cartao largo' : 'cartao'}">
${body}
</main>
</body>
</html>`;
}

/**
 * `items`: the page's events, rendered by eventItem. `antes`: the page shows the events
 * older than this id (an older page is not live).
 */
export function viewerPage(
  token: string,
  page: Omit<PreviewPage, 'ids'> & { items: SafeHtml[] },
  inboxUrl: string,
  notice?: Notice,
  antes?: number,
): SafeHtml {
  const { responderStatus, items } = page;
  const first = antes === undefined;
  const self = `/sandbox/receptor/${token}`;
  const noticeText =
    notice === 'modo' ? `Agora respondendo com ${responderStatus}.` : notice === 'limpo' ? 'Eventos apagados.' : '';
  return shell(
    'Receptor de testes',
    html`<h1>Eventos recebidos</h1>
  <p class="dica">Registre esta URL como webhook do sandbox:</p>
  <p class="url-receptor"><code class="url">${inboxUrl}</code></p>
  <div class="controles">
    <form method="post" action="/sandbox/receptor/${token}/modo" id="form-modo">
      <label for="responderStatus">Responder com o status</label>
      <div class="em-linha">
        <select id="responderStatus" name="responderStatus">
          ${ALLOWED_STATUSES.map((s) => html`<option value="${s}"${s === responderStatus ? html` selected` : ''}>${s}</option>`)}
        </select>
        <button type="submit">Aplicar</button>
      </div>
    </form>
    <form method="post" action="/sandbox/receptor/${token}/limpar" id="form-limpar">
      <button type="submit" class="secundario-botao">Limpar eventos</button>
    </form>
  </div>
  <p class="aviso" id="aviso" role="status">${noticeText}</p>
  <p class="status-atualizacao" id="atualizacao"${first ? html` data-ao-vivo` : ''}>${
    first
      ? html`Mais recentes primeiro, horário de Brasília. <a href="${self}">Recarregue a página</a> para ver eventos novos.`
      : html`Eventos mais antigos, horário de Brasília. <a href="${self}">Voltar aos mais recentes</a>.`
  }</p>
  <ol class="eventos" id="eventos" aria-label="Eventos recebidos, mais recentes primeiro">
    ${items.length ? items : html`<li class="vazio">${first ? EMPTY_TEXT : 'Nenhum evento mais antigo.'}</li>`}
  </ol>
  <nav class="paginas" id="paginas" aria-label="Páginas de eventos">${
    page.maisAntigos !== undefined ? html`<a href="${self}?antes=${page.maisAntigos}">Eventos mais antigos</a>` : ''
  }</nav>`,
    token,
  );
}

/** Not found, too many requests, an invalid form value: same look, a way back when there is one. */
export function viewerMessagePage(heading: string, text: string, back?: string): SafeHtml {
  return shell(
    heading,
    html`<h1>${heading}</h1><p>${text}</p>${back ? html`<p><a class="voltar" href="${back}">Voltar aos eventos</a></p>` : ''}`,
  );
}
