// The portal's page frame: the channel's brand in the header, the nav, "Sair", a skip
// link, one h1, pt-BR. No inline script or style (the pages' CSP forbids both); works
// without JavaScript; the stylesheet is portal.css, then the channel's accent colour.
import { html, type SafeHtml } from '../../http/html.ts';
import type { PageBrand } from '../../brand/brand.service.ts';
import { portalAssets } from './assets.ts';
import { csrfField } from './components.ts';

export interface NavEntry {
  label: string;
  path: string;
}

export interface PortalFrame {
  title: string;
  sandbox: boolean;
  /** The channel's brand (its name at least); absent before anyone is signed in to a channel. */
  brand?: PageBrand;
  /** The nav, with the entry of the current page; absent outside a session. */
  nav?: { entries: readonly NavEntry[]; current: string | undefined };
  /** The session's CSRF token, for the "Sair" form; absent outside a session. */
  csrf?: string;
}

export function portalLayout(frame: PortalFrame, body: SafeHtml): SafeHtml {
  const { title, sandbox, brand, nav, csrf } = frame;
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title} · Portal${brand ? html` · ${brand.nome}` : ''}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${portalAssets.url('portal.css')}">
${brand?.css ? html`<link rel="stylesheet" href="${brand.css}">` : ''}
</head>
<body>
<a class="pular" href="#conteudo">Pular para o conteúdo</a>
<header class="topo">
  <p class="identidade">
    ${brand?.logo ? html`<img class="logo" src="${brand.logo.url}" alt="" width="${brand.logo.width}" height="${brand.logo.height}">` : ''}
    <span class="marca">${brand?.nome ?? 'Consigna'}</span>
    <span class="produto">Portal do canal</span>
  </p>
  ${csrf ? html`<form class="sair" method="post" action="/portal/sair">${csrfField(csrf)}<button type="submit">Sair</button></form>` : ''}
</header>
${nav ? navigation(nav.entries, nav.current) : ''}
${sandbox ? html`<p class="faixa-sandbox" role="note">Ambiente de testes (sandbox): nenhum dado é enviado a um banco.</p>` : ''}
<main id="conteudo" class="conteudo" tabindex="-1">
<h1>${title}</h1>
${body}
</main>
<footer class="rodape">
  <p>Portal do canal na Consigna. Nenhum dado pessoal além do que a API mostra: CPF sempre mascarado.</p>
</footer>
</body>
</html>`;
}

function navigation(entries: readonly NavEntry[], current: string | undefined): SafeHtml {
  return html`<nav class="menu" aria-label="Seções do portal"><ul>${entries.map(
    (entry) =>
      html`<li><a href="${entry.path}"${entry.path === current ? html` aria-current="page"` : ''}>${entry.label}</a></li>`,
  )}</ul></nav>`;
}
