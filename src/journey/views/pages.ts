// One function per page of the journey. Accessible names are those of docs/rules.md §7
// (buttons, labels), so screen readers and browser tests find the same things.
import { html, type SafeHtml } from '../../http/html.ts';
import type { Offer } from '../../bank/bank-gateway.ts';
import { maskCelular } from '../../links/celular.ts';
import { SANDBOX_CODE } from '../../bank/sandbox-bank.ts';
import { fieldError, invalidAttrs, layout } from './layout.ts';
import type { PageBrand } from '../../brand/brand.service.ts';
import { CONSENT_TEXTS, CONSENT_VERSION } from '../consent.ts';
import { money, percent } from './format.ts';

export interface PageContext {
  action: (name: string) => string;
  sandbox: boolean;
  errors: Record<string, string>;
  values: Record<string, string>;
  /** Who offers the credit (the channel's brand, or its name); unknown only when the link is. */
  brand?: PageBrand;
  /** The channel's return URL: final pages offer "Voltar para <canal>". */
  back?: string;
}

/** What every page frame needs of the context: steps carry the brand, final pages the way back too. */
type Frame = Pick<PageContext, 'sandbox' | 'brand' | 'back'>;
const step = (ctx: Frame) => ({ sandbox: ctx.sandbox, ...(ctx.brand ? { brand: ctx.brand } : {}) });
const final = (ctx: Frame) => ({ ...step(ctx), ...(ctx.back ? { back: ctx.back } : {}) });

const STEPS = 6;

export function startPage(ctx: PageContext, cpfMascarado: string): SafeHtml {
  return layout(
    { title: 'Contrate seu consignado', ...step(ctx) },
    html`<h1>Contrate seu empréstimo consignado</h1>
<p class="lead">Crédito com desconto direto no seu salário (CLT), com taxas menores que as do empréstimo pessoal.</p>
<p>Esta contratação é para o CPF <strong>${cpfMascarado}</strong>. Leva poucos minutos:</p>
<ol class="passos">
  <li>Confirmamos seu celular com um código por SMS.</li>
  <li>Consultamos no banco as ofertas disponíveis para você.</li>
  <li>Você escolhe a oferta, informa seus dados e envia a proposta.</li>
</ol>
<form method="post" action="${ctx.action('comecar')}"><button type="submit">Começar</button></form>`,
  );
}

export function phonePage(ctx: PageContext, suggested: string | undefined): SafeHtml {
  const value = ctx.values.celular ?? (suggested ? maskCelular(suggested) : '');
  return layout(
    { title: 'Seu celular', ...step(ctx), progress: { step: 1, of: STEPS } },
    html`<h1>Confirme seu celular</h1>
<p>Enviaremos um código por SMS para confirmar que é você.</p>
<form method="post" action="${ctx.action('celular')}" novalidate>
  <label for="celular">Celular</label>
  <input id="celular" name="celular" type="tel" inputmode="tel" autocomplete="tel-national" placeholder="(11) 98765-4321" value="${value}"${invalidAttrs('celular', ctx.errors)}>
  ${suggested ? html`<p class="dica">Sugerimos o número informado por quem enviou este link. Para usar outro, apague e digite o seu.</p>` : ''}
  ${fieldError('celular', ctx.errors)}
  <button type="submit">Enviar código</button>
</form>`,
  );
}

export function codePage(ctx: PageContext, celularMasked: string, locked: boolean): SafeHtml {
  return layout(
    { title: 'Código de verificação', ...step(ctx), progress: { step: 2, of: STEPS } },
    html`<h1>Digite o código recebido</h1>
<p>Enviamos um código de 6 dígitos por SMS para <strong>${celularMasked}</strong>.</p>
${ctx.sandbox ? html`<p class="dica destaque">No sandbox nenhum SMS é enviado: o código é sempre <strong>${SANDBOX_CODE}</strong>.</p>` : ''}
<form method="post" action="${ctx.action('codigo')}" novalidate>
  <label for="codigo">Código de verificação</label>
  <input id="codigo" name="codigo" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" value=""${invalidAttrs('codigo', ctx.errors)}${locked ? html` disabled` : ''}>
  ${fieldError('codigo', ctx.errors)}
  ${locked ? html`<p class="erro" id="codigo-bloqueado">Você errou o código 5 vezes. Peça um novo código para continuar.</p>` : html`<button type="submit">Confirmar</button>`}
</form>
<form method="post" action="${ctx.action('reenviar')}" class="secundario">
  <button type="submit" class="link">${locked ? 'Pedir novo código' : 'Não recebi o código / alterar celular'}</button>
</form>`,
  );
}

export function consentPage(ctx: PageContext): SafeHtml {
  return layout(
    { title: 'Consulta ao banco', ...step(ctx), progress: { step: 3, of: STEPS } },
    html`<h1>Consulte suas ofertas</h1>
<p>Para mostrar as ofertas, o banco parceiro precisa consultar seu vínculo de trabalho (CLT) e sua margem consignável.</p>
<form method="post" action="${ctx.action('consulta')}" novalidate>
  <div class="opcao">
    <input id="autorizo" name="autorizo" type="checkbox" value="sim"${invalidAttrs('autorizo', ctx.errors)}>
    <label for="autorizo">${CONSENT_TEXTS[CONSENT_VERSION]}</label>
  </div>
  <p class="dica">Termo de autorização, versão ${CONSENT_VERSION}. Guardamos a data, a hora e o endereço de onde você autorizou.</p>
  ${fieldError('autorizo', ctx.errors)}
  <button type="submit">Consultar ofertas</button>
</form>`,
  );
}

export function offersPage(ctx: PageContext, offers: Offer[], chosen: string | null): SafeHtml {
  return layout(
    { title: 'Ofertas', ...step(ctx), progress: { step: 4, of: STEPS } },
    html`<h1>Escolha sua oferta</h1>
<p>Valores para crédito consignado privado, com parcelas descontadas do seu salário.</p>
<form method="post" action="${ctx.action('oferta')}" novalidate>
  <fieldset${invalidAttrs('oferta', ctx.errors)}>
    <legend>Ofertas disponíveis</legend>
    ${offers.map(
      (offer) => html`<div class="oferta">
      <input id="${offer.id}" name="oferta" type="radio" value="${offer.id}"${offer.id === chosen ? html` checked` : ''}>
      <label for="${offer.id}">
        <span class="valor">${money(offer.valor)}</span>
        <span class="detalhe">${offer.parcelas} parcelas de ${money(offer.valorParcela)}</span>
        <span class="detalhe">Taxa de ${percent(offer.taxaMensal)} ao mês · CET ${percent(offer.cetMensal)} ao mês (${percent(offer.cetAnual)} ao ano)</span>
      </label>
    </div>`,
    )}
  </fieldset>
  ${fieldError('oferta', ctx.errors)}
  <p class="dica">CET é o Custo Efetivo Total: juros mais tarifas e impostos da operação.</p>
  <button type="submit">Continuar</button>
</form>`,
  );
}

export function dataPage(ctx: PageContext, stored: Record<string, string>): SafeHtml {
  const v = (name: string) => ctx.values[name] ?? stored[name] ?? '';
  const field = (name: string, label: string, type: string, autocomplete: string, extra = '') => html`<div class="campo">
    <label for="${name}">${label}</label>
    <input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" value="${v(name)}"${invalidAttrs(name, ctx.errors)}>
    ${extra ? html`<p class="dica">${extra}</p>` : ''}
    ${fieldError(name, ctx.errors)}
  </div>`;
  return layout(
    { title: 'Seus dados', ...step(ctx), progress: { step: 5, of: STEPS } },
    html`<h1>Seus dados</h1>
<form method="post" action="${ctx.action('dados')}" novalidate>
  ${field('nome', 'Nome completo', 'text', 'name')}
  ${field('dataNascimento', 'Data de nascimento', 'date', 'bday')}
  ${field('email', 'E-mail', 'email', 'email')}
  ${field('chavePix', 'Chave Pix', 'text', 'off', 'O valor do empréstimo será depositado nesta chave: CPF, e-mail, celular ou chave aleatória.')}
  <button type="submit">Continuar</button>
</form>
<form method="post" action="${ctx.action('voltar')}" class="secundario"><button type="submit" class="link">Trocar a oferta</button></form>`,
  );
}

export function reviewPage(
  ctx: PageContext,
  offer: Offer,
  customer: { nome: string; email: string; chavePix: string },
  failure: string | null,
): SafeHtml {
  return layout(
    { title: 'Revise sua proposta', ...step(ctx), progress: { step: 6, of: STEPS } },
    html`<h1>Revise e envie sua proposta</h1>
${failure ? html`<div class="alerta" role="alert"><p><strong>O banco não aceitou a proposta.</strong> ${failure}</p><p>Você pode tentar novamente.</p></div>` : ''}
<dl class="resumo">
  <dt>Valor</dt><dd>${money(offer.valor)}</dd>
  <dt>Parcelas</dt><dd>${offer.parcelas} × ${money(offer.valorParcela)}</dd>
  <dt>Taxa de juros</dt><dd>${percent(offer.taxaMensal)} ao mês</dd>
  <dt>CET</dt><dd>${percent(offer.cetMensal)} ao mês (${percent(offer.cetAnual)} ao ano)</dd>
  <dt>Nome</dt><dd>${customer.nome}</dd>
  <dt>E-mail</dt><dd>${customer.email}</dd>
  <dt>Chave Pix</dt><dd>${customer.chavePix}</dd>
</dl>
<form method="post" action="${ctx.action('proposta')}"><button type="submit">${failure ? 'Tentar novamente' : 'Enviar proposta'}</button></form>
<form method="post" action="${ctx.action('voltar')}" class="secundario"><button type="submit" class="link">Alterar meus dados</button></form>`,
  );
}

export function sendingPage(ctx: PageContext): SafeHtml {
  return layout(
    { title: 'Enviando proposta', ...step(ctx), refreshSeconds: 2 },
    html`<h1>Enviando sua proposta…</h1><p role="status">Aguarde alguns segundos; esta página se atualiza sozinha.</p>`,
  );
}

/** `erased`: the link's personal data is gone (retention), the signing link with it. */
export function resultPage(ctx: PageContext, numero: number, signingUrl: string | null, erased = false): SafeHtml {
  return layout(
    { title: `Proposta nº ${numero}`, ...final(ctx) },
    html`<h1>Proposta nº ${numero}</h1>
<p class="lead">Sua proposta foi criada no banco.</p>
${
  erased
    ? html`<p role="status">Por segurança, os seus dados pessoais já foram apagados deste link. Para acompanhar a proposta, fale com quem enviou este link.</p>`
    : signingUrl
      ? html`<p>Falta só assinar o contrato. A assinatura é digital e leva um minuto.</p>
<p><a class="botao" href="${signingUrl}" rel="noreferrer">Assinar contrato</a></p>`
      : html`<p role="status">O link de assinatura ainda não está pronto. Você o receberá em breve pelo canal que enviou este link.</p>`
}
<p class="dica">Guarde o número da proposta para acompanhar a contratação.</p>`,
  );
}

export function messagePage(ctx: Frame, title: string, heading: string, text: string): SafeHtml {
  return layout({ title, ...final(ctx) }, html`<h1>${heading}</h1><p>${text}</p>`);
}
