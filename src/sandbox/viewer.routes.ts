// {base_url}/sandbox/receptor/{token}: the inbox viewer, with form fallbacks for
// its controls (POST-redirect-GET) when JavaScript is off. Every answer here is an
// HTML page, errors included (not found, too many requests, invalid status).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { AppError, badRequest } from '../errors.ts';
import { setPageHeaders } from '../http/security-headers.ts';
import { sendPage } from '../http/page-encoding.ts';
import { pageTextFor, reportError } from '../http/error-handler.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { clearReceived, inboxUrlOf, previewsOf, setResponderStatus, viewerPageOf } from './inbox.service.ts';
import { inboxOfRequest } from './inbox-guard.ts';
import { eventItem, viewerMessagePage, viewerPage, type Notice } from './views/viewer.ts';
import { raw, type SafeHtml } from '../http/html.ts';
import { LRUCache } from 'lru-cache';

type Params = { token: string };

/** `?antes=` of an older page: an event id (absent: the newest page). */
function pagePosition(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value) || Number(value) > 2_147_483_647) {
    throw badRequest('pagina_invalida', 'O parâmetro antes deve ser o id de um evento recebido.');
  }
  return Number(value);
}
const NOTICES: readonly string[] = ['modo', 'limpo'] satisfies Notice[];

/** Rendered events kept by id (a stored event never changes): a few hundred previews. */
const RENDERED_BYTES = 4 * 1024 * 1024;

export function registerViewerRoutes(app: App, ctx: Context, limiter: RateLimiter): void {
  // The page is asked for again on every pushed event: each event is rendered once.
  const rendered = new LRUCache<number, string>({ maxSize: RENDERED_BYTES, sizeCalculation: (item) => item.length });
  const inboxOf = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) =>
    inboxOfRequest(ctx, limiter, request, reply);
  const viewerPath = (token: string) => `/sandbox/receptor/${encodeURIComponent(token)}`;

  /** Runs a handler, answering the errors it can meet with a page instead of JSON. */
  const asPage = async (reply: FastifyReply, token: string, fn: () => Promise<FastifyReply>) => {
    try {
      return await fn();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const page = (heading: string, text: string, back?: string) =>
        setPageHeaders(reply.code(error.status).headers(error.headers)).send(viewerMessagePage(heading, text, back).value);
      if (error.status === 404)
        return page('Receptor não encontrado', 'Confira a URL: ela vem no campo visualizacaoUrl de PUT /v1/sandbox/receptor.');
      if (error.status === 429)
        return page(
          'Muitas requisições',
          `Este receptor recebeu requisições demais. Aguarde ${error.headers['retry-after'] ?? 'alguns'} segundos e tente novamente.`,
          viewerPath(token),
        );
      if (error.code === 'status_invalido') return page('Status inválido', error.message, viewerPath(token));
      if (error.code === 'pagina_invalida') return page('Página inválida', error.message, viewerPath(token));
      throw error;
    }
  };
  const backToViewer = (reply: FastifyReply, token: string, notice: Notice) =>
    reply
      .code(303)
      .header('location', `${viewerPath(token)}?aviso=${notice}`)
      .send();

  void app.register(async (scope) => {
    // Whatever else fails still answers with a page.
    scope.setErrorHandler((error, request, reply) => {
      const appError = reportError(error as Error, request);
      const { title, text } = pageTextFor(appError, request.id);
      return setPageHeaders(reply.code(appError.status).headers(appError.headers)).send(viewerMessagePage(title, text).value);
    });
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    scope.get<{ Params: Params; Querystring: { aviso?: string; antes?: string } }>(
      '/sandbox/receptor/:token',
      { config: { expensive: 'request' }, schema: { hide: true } },
      async (request, reply) =>
        asPage(reply, request.params.token, async () => {
          const { token } = request.params;
          const inbox = await inboxOf(request, reply);
          const antes = pagePosition(request.query.antes);
          const page = await viewerPageOf(ctx, inbox, antes);
          for (const event of await previewsOf(
            ctx,
            inbox,
            page.ids.filter((id) => !rendered.has(id)),
          )) {
            rendered.set(event.id, eventItem(token, event).value);
          }
          const items = page.ids.flatMap((id): SafeHtml[] => {
            const item = rendered.get(id);
            return item === undefined ? [] : [raw(item)];
          });
          const notice = NOTICES.includes(request.query.aviso ?? '') ? (request.query.aviso as Notice) : undefined;
          return sendPage(
            request,
            setPageHeaders(reply),
            viewerPage(token, { ...page, items }, inboxUrlOf(ctx, token), notice, antes).value,
          );
        }),
    );

    scope.post<{ Params: Params; Body: Record<string, string> | undefined }>(
      '/sandbox/receptor/:token/modo',
      { schema: { hide: true } },
      async (request, reply) =>
        asPage(reply, request.params.token, async () => {
          const inbox = await inboxOf(request, reply);
          const value = request.body?.responderStatus;
          // Only whole numbers as typed; Number('') would be 0 and Number(' 200 ') 200.
          await setResponderStatus(ctx, inbox, typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value);
          return backToViewer(reply, request.params.token, 'modo');
        }),
    );

    scope.post<{ Params: Params }>('/sandbox/receptor/:token/limpar', { schema: { hide: true } }, async (request, reply) =>
      asPage(reply, request.params.token, async () => {
        await clearReceived(ctx, await inboxOf(request, reply));
        return backToViewer(reply, request.params.token, 'limpo');
      }),
    );
  });
}
