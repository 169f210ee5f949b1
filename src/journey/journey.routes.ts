// The hosted journey at {base_url}/c/{token}: plain HTML forms with POST-redirect-GET,
// so it works with JavaScript off. Validation errors re-render the step (422).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { setPageHeaders } from '../http/security-headers.ts';
import { sameOrigin } from '../http/same-origin.ts';
import { pageTextFor, reportError } from '../http/error-handler.ts';
import type { SafeHtml } from '../http/html.ts';
import { maskCelular } from '../links/celular.ts';
import type { CustomerData } from '../bank/bank-gateway.ts';
import * as journey from './journey.service.ts';
import { hashLinkToken } from '../links/links.service.ts';
import { hitPathToken, type RateLimiter } from '../http/rate-limit.ts';
import * as pages from './views/pages.ts';
import { channelOfProposal, proposalNumberOfLink } from '../proposals/proposals.repository.ts';
import { pageBrand } from '../brand/brand.service.ts';
import { cleanUserAgent } from './consent.ts';
import { signingUrlOf } from './signing-url.ts';
import { proposalOfSigningPage, SIGNING_PAGE_PATH } from '../bank/sandbox-signing.ts';

const TOKEN = /^[A-Za-z0-9]{43}$/;
const FORM = 'application/x-www-form-urlencoded';

type Params = { token: string };
/** Who submitted the form, for the evidence of consent. */
type Sender = { ip: string; userAgent: string | undefined };
type Action = (
  deps: journey.Deps,
  token: string,
  input: Record<string, string | undefined>,
  sender: Sender,
) => Promise<journey.ActionResult>;

const ACTIONS: Record<string, Action> = {
  comecar: (d, t) => journey.start(d, t),
  celular: (d, t, i) => journey.sendCode(d, t, i),
  codigo: (d, t, i) => journey.confirmCode(d, t, i),
  reenviar: (d, t) => journey.changePhone(d, t),
  consulta: (d, t, i, s) =>
    journey.consultOffers(d, t, i, {
      origem: 'pagina',
      ip: s.ip,
      ...(s.userAgent ? { userAgent: cleanUserAgent(s.userAgent) } : {}),
    }),
  oferta: (d, t, i) => journey.chooseOffer(d, t, i),
  dados: (d, t, i) => journey.submitCustomerData(d, t, i),
  voltar: (d, t) => journey.goBack(d, t),
  proposta: (d, t) => journey.sendProposal(d, t),
};

export function registerJourneyRoutes(app: App, ctx: Context, limiter: RateLimiter): void {
  const sandbox = ctx.config.ambiente === 'SANDBOX';
  const publicOrigin = new URL(ctx.config.publicBaseUrl).origin;

  // Per link token, shared across processes: bounds scripted abuse of one link. A token
  // that does not exist counts against the source address instead (guessing).
  const { journey: tokenLimit, unknownToken } = ctx.config.rateLimits;
  /** `key` names what a known token reaches; undefined: an unknown token, counted per source IP. */
  const limitedBy = (key: string | undefined, request: FastifyRequest, reply: FastifyReply): boolean => {
    const decision = hitPathToken(limiter, key, request.ip, { token: tokenLimit, unknownToken });
    if (decision.allowed) return false;
    reply.header('retry-after', String(decision.reset));
    send(
      reply,
      429,
      pages.messagePage(
        { sandbox },
        'Muitas tentativas',
        'Muitas tentativas',
        `Aguarde ${decision.reset} segundos e tente novamente.`,
      ),
    );
    return true;
  };
  const limited = (token: string, known: boolean, request: FastifyRequest, reply: FastifyReply): boolean =>
    limitedBy(known ? `journey:${hashLinkToken(ctx, token).toString('base64url')}` : undefined, request, reply);

  void app.register(async (scope) => {
    // A failure here answers with a page like every other answer of the journey.
    scope.setErrorHandler((error, request, reply) => {
      const appError = reportError(error as Error, request);
      const { title, text } = pageTextFor(appError, request.id);
      return send(reply.headers(appError.headers), appError.status, pages.messagePage({ sandbox }, title, title, text));
    });
    scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 8192 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    scope.get<{ Params: Params }>('/c/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      const page: journey.Page = TOKEN.test(token) ? await journey.loadPage(ctx, token) : { kind: 'invalido' };
      if (limited(token, page.kind !== 'invalido', request, reply)) return reply;
      return render(ctx, reply, token, page, { errors: {}, values: {} });
    });

    scope.post<{ Params: Params & { action: string }; Body: Record<string, string> }>(
      '/c/:token/:action',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token, action } = request.params;
        const run = ACTIONS[action];
        const known = run !== undefined && TOKEN.test(token) && (await journey.linkExists(ctx, token));
        if (limited(token, known, request, reply)) return reply;
        if (!run || !known) return send(reply, 404, invalidLinkPage(sandbox));
        if (!sameOrigin(request, publicOrigin)) {
          return send(
            reply,
            403,
            pages.messagePage({ sandbox }, 'Acesso negado', 'Envio não permitido', 'Abra o link recebido e tente novamente.'),
          );
        }
        const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
        const result = await run(ctx, token, body, { ip: request.ip, userAgent: request.headers['user-agent'] });
        if (result.kind === 'done') return reply.code(303).header('location', `/c/${token}`).send();
        reply.code(422);
        return render(ctx, reply, token, await journey.loadPage(ctx, token), { errors: result.errors, values: result.values });
      },
    );

    // The fictitious signing page of the sandbox: signing is simulated through the API.
    // Reached by the signing link's own token only (docs/rules.md §6.1): a number, an
    // unknown or an erased token is the same 404.
    scope.get<{ Params: { token: string } }>(`${SIGNING_PAGE_PATH}:token`, { schema: { hide: true } }, async (request, reply) => {
      const numero = await proposalOfSigningPage(ctx, request.params.token);
      // Guesses count per source IP, like unknown link tokens (docs/rules.md §8.3).
      if (limitedBy(numero !== undefined ? `signing:${numero}` : undefined, request, reply)) return reply;
      const channelId = numero !== undefined ? await channelOfProposal(ctx.database.db, numero) : undefined;
      if (numero === undefined || channelId === undefined) {
        return send(
          reply,
          404,
          pages.messagePage(
            { sandbox },
            'Página não encontrada',
            'Link de assinatura inválido',
            'Confira se o endereço foi copiado por inteiro. Se a proposta já teve os dados pessoais apagados, o link de assinatura foi apagado com eles.',
          ),
        );
      }
      const brand = await pageBrand(ctx, channelId);
      return send(
        reply,
        200,
        pages.messagePage(
          { sandbox, ...(brand ? { brand } : {}) },
          'Assinatura (simulação)',
          `Assinatura da proposta nº ${numero}`,
          'Esta é uma página fictícia do sandbox: nenhum contrato é assinado aqui. Para simular a assinatura, o canal usa POST /v1/links/{id}/proposta/simular com o status FORMALIZADA.',
        ),
      );
    });
  });
}

function send(reply: FastifyReply, status: number, page: SafeHtml): FastifyReply {
  return setPageHeaders(reply.code(status)).send(page.value);
}

const invalidLinkPage = (sandbox: boolean) =>
  pages.messagePage(
    { sandbox },
    'Link inválido',
    'Link inválido',
    'Este link de contratação não existe. Confira se você abriu o link completo que recebeu.',
  );

async function render(
  ctx: Context,
  reply: FastifyReply,
  token: string,
  page: journey.Page,
  form: { errors: Record<string, string>; values: Record<string, string> },
) {
  const sandbox = ctx.config.ambiente === 'SANDBOX';
  if (page.kind === 'invalido') return send(reply, 404, invalidLinkPage(sandbox));
  // Every page of a known link says whose it is; its final pages lead back to the channel.
  const brand = await pageBrand(ctx, page.link.channel_id);
  const frame = { sandbox, brand, ...(page.link.return_url ? { back: page.link.return_url } : {}) };
  if (page.kind === 'expirado') {
    return send(
      reply,
      410,
      pages.messagePage(
        frame,
        'Link expirado',
        'Este link expirou',
        'O prazo para contratar por este link terminou. Peça um novo link a quem o enviou.',
      ),
    );
  }
  if (page.kind === 'cancelado') {
    const reason = (page.reason && journey.END_REASONS[page.reason]) ?? 'Esta contratação foi encerrada.';
    return send(
      reply,
      200,
      pages.messagePage(frame, 'Contratação encerrada', 'Não foi possível continuar', `${reason} Este link foi encerrado.`),
    );
  }
  const pc: pages.PageContext = { action: (name) => `/c/${token}/${name}`, ...frame, errors: form.errors, values: form.values };
  const { link, journey: j } = page;
  const status = reply.statusCode === 422 ? 422 : 200;
  switch (page.step) {
    case 'inicio':
      return send(reply, status, pages.startPage(pc, link.cpf_masked));
    case 'celular':
      return send(reply, status, pages.phonePage(pc, journey.suggestedCelular(ctx, link)));
    case 'codigo':
      return send(
        reply,
        status,
        pages.codePage(pc, maskCelular(ctx.keys.open(j.celular_sealed!)), j.code_attempts >= journey.MAX_CODE_ATTEMPTS),
      );
    case 'consulta':
      return send(reply, status, pages.consentPage(pc));
    case 'ofertas':
      return send(reply, status, pages.offersPage(pc, journey.offersOf(j), j.chosen_offer_id));
    case 'dados':
      return send(reply, status, pages.dataPage(pc, customerOf(ctx, j) ?? {}));
    case 'revisao': {
      const offer = journey.offersOf(j).find((o) => o.id === j.chosen_offer_id)!;
      return send(reply, status, pages.reviewPage(pc, offer, customerOf(ctx, j)!, j.last_failure));
    }
    case 'enviando':
      return send(reply, 200, pages.sendingPage(pc));
    case 'resultado': {
      const numero = await proposalNumberOfLink(ctx.database.db, link.id);
      const erased = link.personal_data_erased_at !== null;
      return send(reply, 200, pages.resultPage(pc, numero, erased ? null : signingUrlOf(ctx.keys, j), erased));
    }
    default:
      return send(
        reply,
        200,
        pages.messagePage(frame, 'Contratação encerrada', 'Contratação encerrada', 'Este link foi encerrado.'),
      );
  }
}

function customerOf(
  ctx: Context,
  j: { customer_sealed: Uint8Array | null },
): (CustomerData & Record<string, string>) | undefined {
  return j.customer_sealed ? (JSON.parse(ctx.keys.open(j.customer_sealed)) as CustomerData & Record<string, string>) : undefined;
}
