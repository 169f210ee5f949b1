// The inbox viewer page. Server-rendered (it works without JavaScript, with forms for
// the controls); viewer.js then keeps the list fresh without reloading. Times are
// shown in Brasília time, on the page and in the script alike.
import { html, type SafeHtml } from '../../http/html.ts';
import { documentHead } from '../../journey/views/layout.ts';
import { viewerAssets } from './assets.ts';
import type { ReceivedEvent } from '../inbox.service.ts';
import { ALLOWED_STATUSES } from '../inbox.service.ts';
import { PRETTY_SIZE_FACTOR, prettyJsonWithin } from '../../text/json.ts';

const time = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'America/Sao_Paulo' });

export const EMPTY_TEXT = 'Nenhum evento recebido ainda. Envie um teste com POST /v1/webhooks/teste.';

/** Confirmations shown after a form fallback (POST, 303, GET ?aviso=…). */
export type Notice = 'modo' | 'limpo';

export function badge(event: Pick<ReceivedEvent, 'assinaturaValida' | 'motivo'>): SafeHtml {
  if (event.assinaturaValida === true) return html`<span class="selo valido">Assinatura válida</span>`;
  if (event.assinaturaValida === false) return html`<span class="selo invalido">Assinatura inválida</span>`;
  return html`<span class="selo nao-verificado">Não verificada: ${event.motivo ?? 'motivo desconhecido'}</span>`;
}

export const COMPACT_NOTICE = 'Formatação omitida: o corpo formatado ficaria grande demais; mostrado em JSON compacto.';

/**
 * The body as the page shows it: JSON formatted, unless the formatted text would pass
 * PRETTY_SIZE_FACTOR times the compact text (deep nesting multiplies indentation);
 * then compact, with a note. viewer.js applies the same rule in the browser.
 */
export function bodyText(event: Pick<ReceivedEvent, 'corpo' | 'corpoAviso'>): { text: string; notice?: string } {
  if (typeof event.corpo === 'string') return { text: event.corpo, ...(event.corpoAviso ? { notice: event.corpoAviso } : {}) };
  const compact = JSON.stringify(event.corpo) ?? 'null';
  const pretty = prettyJsonWithin(event.corpo, PRETTY_SIZE_FACTOR * compact.length);
  return pretty === undefined ? { text: compact, notice: COMPACT_NOTICE } : { text: pretty };
}

function eventItem(event: ReceivedEvent): SafeHtml {
  const { text: body, notice } = bodyText(event);
  const ok = event.respondeuStatus >= 200 && event.respondeuStatus < 300;
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
  <details><summary>Corpo</summary>${notice ? html`<p class="aviso-corpo">${notice}</p>` : ''}<pre>${body === '' ? '(vazio)' : body}</pre></details>
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

export function viewerPage(
  token: string,
  responderStatus: number,
  events: ReceivedEvent[],
  inboxUrl: string,
  notice?: Notice,
): SafeHtml {
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
  <p class="status-atualizacao" id="atualizacao">Mais recentes primeiro, horário de Brasília. <a href="/sandbox/receptor/${token}">Recarregue a página</a> para ver eventos novos.</p>
  <ol class="eventos" id="eventos" aria-label="Eventos recebidos, mais recentes primeiro">
    ${events.length ? events.map(eventItem) : html`<li class="vazio">${EMPTY_TEXT}</li>`}
  </ol>`,
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
