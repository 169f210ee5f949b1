// /docs: the pt-BR integration guide (docs/guia-integracao.md, rendered once at
// start-up) beside the API reference (/docs/referencia), all served locally.
import fs from 'node:fs';
import path from 'node:path';
import { marked } from 'marked';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { html, raw } from '../http/html.ts';
import { AssetFolder } from '../http/assets.ts';
import { setPageHeaders } from '../http/security-headers.ts';
import { journeyAssets } from '../journey/views/assets.ts';

const GUIDE = path.join(import.meta.dirname, '../../docs/guia-integracao.md');

export const docsAssets = new AssetFolder(path.join(import.meta.dirname, 'assets'));

/** The guide's text: `{base_url}` is the service's address, `{asset:NAME}` a file of src/docs/assets (versioned URL). */
export function guideMarkdown(baseUrl: string): string {
  return fs
    .readFileSync(GUIDE, 'utf8')
    .replaceAll('{base_url}', baseUrl)
    .replace(/\{asset:([\w.-]+)\}/g, (_match, name: string) => `${baseUrl}${docsAssets.url(name)}`);
}

export function renderGuide(baseUrl: string): string {
  const markdown = guideMarkdown(baseUrl);
  const body = marked.parse(markdown, { async: false, gfm: true });
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Guia de integração · Consigna</title>
<link rel="stylesheet" href="${journeyAssets.url('journey.css')}">
<link rel="stylesheet" href="${docsAssets.url('docs.css')}">
</head>
<body>
<header class="topo"><span class="marca">Consigna</span><span class="produto">Documentação para canais</span>
<nav class="nav-docs" aria-label="Documentação"><a href="/docs">Guia</a><a href="/docs/referencia/">Referência da API</a><a href="/openapi.yaml">openapi.yaml</a></nav></header>
<main class="cartao docs">${raw(body)}</main>
</body>
</html>`.value;
}

export function registerDocsRoutes(app: App, ctx: Context): void {
  const page = renderGuide(ctx.config.publicBaseUrl);
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) =>
    setPageHeaders(reply).header('cache-control', 'public, max-age=300').send(page),
  );
  app.get('/docs/guia.md', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/markdown; charset=utf-8').send(guideMarkdown(ctx.config.publicBaseUrl)),
  );
}
