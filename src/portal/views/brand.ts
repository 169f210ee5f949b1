// "Marca": the form (name, colour, logo; multipart), the contrast correction explained,
// and a miniature of the customer's first page (the journey's start page: its header,
// card and footer, drawn with the accent the customers get).
import { html, type SafeHtml } from '../../http/html.ts';
import { logoBox, previewAccentPath, type BrandDraft, type BrandResource, type PageBrand } from '../../brand/brand.service.ts';
import { contrast, DEFAULT_ACCENT, MIN_CONTRAST } from '../../brand/colour.ts';
import { MAX_LOGO_BYTES } from '../../brand/logo.ts';
import { csrfField, notice, panel } from './components.ts';

export interface BrandView {
  brand?: BrandResource;
  /** What the customer's pages show now (name, logo, accent stylesheet). */
  page: PageBrand;
  sandbox: boolean;
  csrf: string;
  /** The form's values and errors when it is shown again (422). */
  values?: { nome: string; cor: string };
  errors?: Record<string, string>;
  done?: 'salvo' | 'removido';
  /** "Pré-visualizar": the form's brand, checked and not saved; the preview and the contrast show it. */
  draft?: BrandDraft;
}

const ratio = (value: number) => `${value.toFixed(2).replace('.', ',')}:1`;

const fieldError = (name: string, errors: Record<string, string>): SafeHtml =>
  errors[name] ? html`<p class="erro" id="${name}-erro">${errors[name]}</p>` : html``;

const described = (name: string, errors: Record<string, string>, hint?: string): SafeHtml => {
  const ids = [hint, errors[name] ? `${name}-erro` : undefined].filter(Boolean).join(' ');
  return html`${errors[name] ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}`;
};

/** A colour sample: an SVG square (a fill attribute, not inline style, which the CSP forbids). */
const swatch = (hex: string): SafeHtml =>
  html`<svg class="amostra" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect width="24" height="24" rx="4" fill="${hex}" stroke="#8a94a3"></rect></svg>`;

function brandForm(view: BrandView): SafeHtml {
  const errors = view.errors ?? {};
  const values = view.values ?? { nome: view.brand?.nome ?? '', cor: view.brand?.cor ?? '' };
  const logo = view.brand?.logo;
  return html`<form class="formulario" method="post" action="/portal/marca" enctype="multipart/form-data" novalidate>${csrfField(view.csrf)}
<div class="campo"><label for="nome">Nome mostrado ao cliente</label>
<input id="nome" name="nome" type="text" maxlength="60" required value="${values.nome}"${described('nome', errors)}>${fieldError('nome', errors)}</div>
<div class="campo"><label for="cor">Cor (#RRGGBB)</label>
<input id="cor" name="cor" type="text" inputmode="text" autocomplete="off" spellcheck="false" maxlength="7" placeholder="#1A73E8" value="${values.cor}"${described('cor', errors, 'cor-dica')}>
<p class="discreto" id="cor-dica">Vazio: as cores da Consigna. Uma cor com pouco contraste é escurecida (veja abaixo).</p>${fieldError('cor', errors)}</div>
<div class="campo"><label for="logo">Logo (PNG, JPEG ou WebP, até ${Math.round(MAX_LOGO_BYTES / 1024)} KB)</label>
<input id="logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp"${described('logo', errors, 'logo-dica')}>
<p class="discreto" id="logo-dica">${logo ? `Logo atual: ${logo.largura} × ${logo.altura} px, ${logo.bytes} bytes. Sem arquivo novo, ele continua.` : 'Nenhum logo: as páginas mostram só o nome.'}</p>${fieldError('logo', errors)}</div>
${logo ? html`<div class="campo-marcar"><input id="removerLogo" name="removerLogo" type="checkbox" value="sim"><label for="removerLogo">Remover o logo atual</label></div>` : ''}
<div class="botoes"><button type="submit" class="botao">Salvar marca</button>
<button type="submit" class="botao secundario" formaction="/portal/marca/previa">Pré-visualizar</button></div></form>`;
}

function contrastPanel(brand: Pick<BrandResource, 'cor' | 'corAplicada'> | undefined): SafeHtml {
  const rule = html`<p>No topo e nos botões das páginas do cliente o texto é branco sobre a cor, e os links têm a cor sobre o fundo claro (#f3f5f8). Para que todos leiam, o WCAG 2.1 (critério 1.4.3, nível AA) pede contraste de pelo menos ${ratio(MIN_CONTRAST)} contra os dois fundos. Uma cor que não chega lá é escurecida, mantendo o tom, até chegar: é a cor usada (<code>corAplicada</code> na API).</p>`;
  if (!brand?.cor) {
    return panel(
      'Contraste da cor',
      html`${rule}<p>${swatch(DEFAULT_ACCENT)} Sem cor definida: as páginas usam a cor da Consigna, <code>${DEFAULT_ACCENT}</code>.</p>`,
      'contraste',
    );
  }
  const asked = brand.cor;
  const used = brand.corAplicada;
  const outcome =
    asked === used
      ? html`<p>A cor pedida já tem contraste suficiente: é usada como está.</p>`
      : html`<p>A cor pedida tem pouco contraste com o branco (${ratio(contrast(asked, '#ffffff'))}); por isso as páginas usam <code>${used}</code>, a mesma cor escurecida (${ratio(contrast(used, '#ffffff'))} com o branco, ${ratio(contrast(used, '#f3f5f8'))} com o fundo claro).</p>`;
  return panel(
    'Contraste da cor',
    html`<dl class="cores">
<div><dt>Cor pedida</dt><dd>${swatch(asked)} <code>${asked}</code> (${ratio(contrast(asked, '#ffffff'))} com o branco)</dd></div>
<div><dt>Cor usada</dt><dd>${swatch(used)} <code>${used}</code> (${ratio(contrast(used, '#ffffff'))} com o branco)</dd></div>
</dl>${outcome}${rule}`,
    'contraste',
  );
}

/** The journey's start page in miniature: the same parts and texts, the channel's accent (var(--marca)). */
function preview(page: PageBrand, sandbox: boolean, draft: BrandDraft | undefined): SafeHtml {
  return html`<figure class="previa">
${draft ? html`<link rel="stylesheet" href="${previewAccentPath(draft.corAplicada)}">` : ''}
<figcaption class="discreto">${draft ? 'Como o cliente veria a primeira página do link com a marca do formulário, ainda não salva (o CPF é um exemplo).' : 'Como o cliente vê a primeira página do link (o CPF é um exemplo).'}</figcaption>
<div class="previa-tela">
<div class="previa-topo">${page.logo ? html`<img class="previa-logo" src="${page.logo.url}" alt="" width="${page.logo.width}" height="${page.logo.height}">` : ''}<span class="previa-marca">${page.nome}</span><span>Crédito consignado privado</span></div>
${sandbox ? html`<p class="previa-faixa">Ambiente de testes (sandbox): nenhum dado é enviado a um banco.</p>` : ''}
<div class="previa-cartao">
<p class="previa-titulo">Contrate seu empréstimo consignado</p>
<p>Crédito com desconto direto no seu salário (CLT), com taxas menores que as do empréstimo pessoal.</p>
<p>Esta contratação é para o CPF <strong>***.456.789-**</strong>. Leva poucos minutos.</p>
<span class="previa-botao">Começar</span>
</div>
<p class="previa-rodape">Oferecido por <strong>${page.nome}</strong>. O crédito é concedido e contratado com o banco parceiro; a Consigna opera esta página para ${page.nome}.</p>
</div>
</figure>`;
}

/** What the preview draws of a draft: its name, its logo inline (a data: URL: it is stored nowhere). */
const draftPage = (draft: BrandDraft): PageBrand => ({
  nome: draft.nome,
  ...(draft.logo
    ? {
        logo: {
          url: `data:${draft.logo.tipo};base64,${draft.logo.bytes.toString('base64')}`,
          ...logoBox(draft.logo.largura, draft.logo.altura),
        },
      }
    : {}),
});

export function brandBody(view: BrandView, changes: SafeHtml): SafeHtml {
  const errors = view.errors ?? {};
  const { draft } = view;
  return html`${view.done === 'salvo' ? notice('Marca salva: as páginas do cliente já mostram a nova marca.', 'sucesso') : ''}${
    view.done === 'removido'
      ? notice('Marca removida: as páginas do cliente usam o nome do canal e as cores da Consigna.', 'sucesso')
      : ''
  }${Object.keys(errors).length > 0 ? notice('A marca não foi salva: corrija o que está indicado abaixo.', 'erro') : ''}${
    draft
      ? notice(
          `Prévia: nada foi salvo. Para usar esta marca, clique em Salvar marca${draft.logo ? ' (escolha o arquivo do logo de novo: o navegador não o guarda)' : ''}.`,
        )
      : ''
  }
<div class="colunas">
${panel(
  'Nome, cor e logo',
  html`${brandForm(view)}${
    view.brand
      ? html`<form class="formulario" method="post" action="/portal/marca/remover">${csrfField(view.csrf)}<button type="submit" class="botao secundario">Remover a marca</button></form>`
      : ''
  }`,
  'marca',
)}
${panel('Prévia', preview(draft ? draftPage(draft) : view.page, view.sandbox, draft), 'previa')}
</div>
${contrastPanel(draft ?? view.brand)}
${changes}`;
}
