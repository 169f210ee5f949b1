// The inbox viewer page. Server-rendered (it works without JavaScript, with forms for
// the controls); viewer.js then keeps the list fresh without reloading.
import { html, type SafeHtml } from '../../http/html.ts';
import { assetUrl } from '../../http/assets.ts';
import type { ReceivedEvent } from '../inbox.service.ts';
import { ALLOWED_STATUSES } from '../inbox.service.ts';

const time = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'America/Sao_Paulo' });

export function badge(event: Pick<ReceivedEvent, 'assinaturaValida' | 'motivo'>): SafeHtml {
  if (event.assinaturaValida === true) return html`<span class="selo valido">Assinatura válida</span>`;
  if (event.assinaturaValida === false) return html`<span class="selo invalido">Assinatura inválida</span>`;
  return html`<span class="selo nao-verificado">Não verificada: ${event.motivo ?? 'motivo desconhecido'}</span>`;
}

function eventItem(event: ReceivedEvent): SafeHtml {
  const body = typeof event.corpo === 'string' ? event.corpo : JSON.stringify(event.corpo, null, 2);
  return html`<li class="evento" data-id="${event.id}">
  <div class="linha">
    <span class="tipo">${event.tipo ?? '(sem tipo)'}</span>
    ${badge(event)}
  </div>
  <div class="meta">
    <time datetime="${event.recebidoEm}">${time.format(new Date(event.recebidoEm))}</time>
    <span>Tentativa ${event.tentativa ?? '–'}</span>
    <span>Respondeu ${event.respondeuStatus}</span>
    ${event.eventoId ? html`<span class="id">${event.eventoId}</span>` : ''}
  </div>
  <details><summary>Corpo</summary><pre>${body}</pre></details>
  <details><summary>Cabeçalhos</summary><pre>${Object.entries(event.headers).map(([k, v]) => `${k}: ${v}\n`).join('')}</pre></details>
</li>`;
}

export function viewerPage(token: string, responderStatus: number, events: ReceivedEvent[], inboxUrl: string): SafeHtml {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Receptor de testes · Consigna</title>
<link rel="stylesheet" href="${assetUrl('journey.css')}">
<link rel="stylesheet" href="${assetUrl('viewer.css')}">
<script src="${assetUrl('viewer.js')}" defer></script>
</head>
<body data-token="${token}">
<header class="topo"><span class="marca">Consigna</span><span class="produto">Receptor de testes (sandbox)</span></header>
<main class="cartao largo">
  <h1>Eventos recebidos</h1>
  <p class="dica">Registre esta URL como webhook do sandbox: <code class="url">${inboxUrl}</code></p>
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
  <p class="status-atualizacao" id="atualizacao" role="status" aria-live="polite">Atualiza sozinho a cada 2 segundos.</p>
  <ol class="eventos" id="eventos" aria-label="Eventos recebidos, mais recentes primeiro">
    ${events.length ? events.map(eventItem) : html`<li class="vazio">Nenhum evento recebido ainda. Envie um teste com POST /v1/webhooks/teste.</li>`}
  </ol>
</main>
</body>
</html>`;
}
