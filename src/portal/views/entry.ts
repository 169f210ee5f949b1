// The portal's pages outside a session: the entry link's page and the messages
// (invalid link, session ended, signed out, refusals, failures).
import { html, type SafeHtml } from '../../http/html.ts';
import type { PageBrand } from '../../brand/brand.service.ts';
import { portalLayout } from './layout.ts';

/**
 * GET /portal/entrar/{token}: only a button. Opening the link changes nothing, so a chat
 * app's or a mail scanner's preview does not use it up; the POST does.
 */
export function entryPage(sandbox: boolean, brand: PageBrand, action: string): SafeHtml {
  return portalLayout(
    { title: 'Entrar no portal', sandbox, brand },
    html`<p>Este link de acesso ao portal de <strong>${brand.nome}</strong> vale uma única vez e por poucos minutos.</p>
<form class="formulario" method="post" action="${action}"><button type="submit" class="botao">Entrar no portal</button></form>
<p class="discreto">A sessão dura até 8 horas, ou até você sair.</p>`,
  );
}

/** A page with a heading and a paragraph (and the brand when the channel is known). */
export function messagePage(sandbox: boolean, title: string, text: string, brand?: PageBrand): SafeHtml {
  return portalLayout({ title, sandbox, ...(brand ? { brand } : {}) }, html`<p>${text}</p>`);
}

export const INVALID_LINK = {
  title: 'Link de acesso inválido',
  text: 'Este link de acesso não vale mais: ele pode ter sido usado, ter expirado ou estar incompleto. Peça um novo link a quem administra a integração do seu canal.',
};

export const SESSION_ENDED = {
  title: 'Sessão encerrada',
  text: 'Sua sessão no portal terminou ou não existe. Para entrar de novo, peça um novo link de acesso a quem administra a integração do seu canal.',
};

export const SIGNED_OUT = {
  title: 'Você saiu do portal',
  text: 'Sua sessão foi encerrada. Para entrar de novo, use um novo link de acesso.',
};

export const FORM_REFUSED = {
  title: 'Envio recusado',
  text: 'Este formulário não pôde ser aceito: ele expirou ou não veio desta página. Volte, recarregue a página e tente novamente.',
};

export const READ_ONLY = {
  title: 'Somente leitura',
  text: 'Esta sessão pode ver tudo, mas não alterar nada. Para alterar, entre com um link de acesso completo (leitura e escrita).',
};
