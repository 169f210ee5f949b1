import { html, type SafeHtml } from '../../http/html.ts';
import { journeyAssets } from './assets.ts';
import type { PageBrand } from '../../brand/brand.service.ts';

export interface LayoutOptions {
  title: string;
  /** 1-based position in the progress bar, when the page is a numbered step. */
  progress?: { step: number; of: number };
  sandbox: boolean;
  /** Seconds before the browser reloads the page by itself (no script needed). */
  refreshSeconds?: number;
  /** Who offers the credit: named in the header, the title and the footer. */
  brand?: PageBrand;
  /** A final page's "Voltar para <canal>" (the link's urlRetorno). */
  back?: string;
}

/** The head every page we host shares (journey, signing page, inbox viewer), then `extra`. */
export function documentHead(title: string, extra: SafeHtml | '' = '', owner = 'Consigna'): SafeHtml {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title} · ${owner}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${journeyAssets.url('journey.css')}">
${extra}
</head>`;
}

export function layout(options: LayoutOptions, body: SafeHtml): SafeHtml {
  const { title, progress, sandbox, refreshSeconds, brand, back } = options;
  const head = html`${refreshSeconds ? html`<meta http-equiv="refresh" content="${refreshSeconds}">` : ''}${
    brand?.css ? html`<link rel="stylesheet" href="${brand.css}">` : ''
  }`;
  return html`<!doctype html>
<html lang="pt-BR">
${documentHead(title, head, brand?.nome)}
<body>
<header class="topo">
  ${brand?.logo ? html`<img class="logo" src="${brand.logo.url}" alt="" width="${brand.logo.width}" height="${brand.logo.height}">` : ''}
  <span class="marca">${brand?.nome ?? 'Consigna'}</span>
  <span class="produto">Crédito consignado privado</span>
</header>
${sandbox ? html`<p class="faixa-sandbox" role="note">Ambiente de testes (sandbox): nenhum dado é enviado a um banco.</p>` : ''}
<main class="cartao">
${progress ? html`<p class="progresso" aria-label="Etapa ${progress.step} de ${progress.of}"><span class="barra"><span class="preenchido p${progress.step}-${progress.of}"></span></span><span class="texto">Etapa ${progress.step} de ${progress.of}</span></p>` : ''}
${body}
${back && brand ? html`<p class="voltar"><a class="botao" href="${back}">Voltar para ${brand.nome}</a></p>` : ''}
</main>
<footer class="rodape">
  ${brand ? html`<p>Oferecido por <strong>${brand.nome}</strong>. O crédito é concedido e contratado com o banco parceiro; a Consigna opera esta página para ${brand.nome}.</p>` : ''}
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
