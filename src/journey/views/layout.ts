import { html, type SafeHtml } from '../../http/html.ts';
import { journeyAssets } from './assets.ts';

export interface LayoutOptions {
  title: string;
  /** 1-based position in the progress bar, when the page is a numbered step. */
  progress?: { step: number; of: number };
  sandbox: boolean;
  /** Seconds before the browser reloads the page by itself (no script needed). */
  refreshSeconds?: number;
}

/** The head every page we host shares (journey, signing page, inbox viewer), then `extra`. */
export function documentHead(title: string, extra: SafeHtml | '' = ''): SafeHtml {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title} · Consigna</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${journeyAssets.url('journey.css')}">
${extra}
</head>`;
}

export function layout(options: LayoutOptions, body: SafeHtml): SafeHtml {
  const { title, progress, sandbox, refreshSeconds } = options;
  return html`<!doctype html>
<html lang="pt-BR">
${documentHead(title, refreshSeconds ? html`<meta http-equiv="refresh" content="${refreshSeconds}">` : '')}
<body>
<header class="topo">
  <span class="marca" aria-label="Consigna">Consigna</span>
  <span class="produto">Crédito consignado privado</span>
</header>
${sandbox ? html`<p class="faixa-sandbox" role="note">Ambiente de testes (sandbox): nenhum dado é enviado a um banco.</p>` : ''}
<main class="cartao">
${progress ? html`<p class="progresso" aria-label="Etapa ${progress.step} de ${progress.of}"><span class="barra"><span class="preenchido p${progress.step}-${progress.of}"></span></span><span class="texto">Etapa ${progress.step} de ${progress.of}</span></p>` : ''}
${body}
</main>
<footer class="rodape">
  <p>Seus dados são usados somente para esta contratação e trafegam protegidos.</p>
</footer>
</body>
</html>`;
}

/** A field's error message, linked to its input by id (aria-describedby). */
export function fieldError(name: string, errors: Record<string, string>): SafeHtml {
  const message = errors[name];
  return message ? html`<p class="erro" id="${name}-erro">${message}</p>` : html``;
}

export function invalidAttrs(name: string, errors: Record<string, string>): SafeHtml {
  return errors[name] ? html` aria-invalid="true" aria-describedby="${name}-erro"` : html``;
}
