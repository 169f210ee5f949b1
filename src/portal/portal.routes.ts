// The channel portal's pages (docs/rules.md §10): the entry link, "Sair", and the
// plumbing every section's pages go through (portal-pages.ts says what it promises).
// Every answer is a page with the pages' headers (strict CSP, no-store), never JSON.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import type { SafeHtml } from '../http/html.ts';
import { html } from '../http/html.ts';
import { setPageHeaders } from '../http/security-headers.ts';
import { sameOrigin } from '../http/same-origin.ts';
import { pageTextFor, reportError } from '../http/error-handler.ts';
import { enforce, hitPathToken, type RateLimiter } from '../http/rate-limit.ts';
import { pageBrand, type PageBrand } from '../brand/brand.service.ts';
import {
  csrfMatches,
  csrfTokenOf,
  endSession,
  ENTRY_PATH,
  linkLimitKey,
  PORTAL_SESSION_TTL_SECONDS,
  redeemPortalLink,
  sessionOfToken,
  usableLinkChannel,
  type PortalSession,
} from './sessions.service.ts';
import { recordChange } from './changes.service.ts';
import type { PortalActionResult, PortalPage, PortalRoutes, PortalSection } from './portal-pages.ts';
import { acceptUploads, MULTIPART, readUpload, type Upload } from './upload.plugin.ts';
import { PORTAL_SECTIONS } from './sections.ts';
import { portalLayout, type NavEntry } from './views/layout.ts';
import { entryPage, FORM_REFUSED, INVALID_LINK, messagePage, READ_ONLY, SESSION_ENDED, SIGNED_OUT } from './views/entry.ts';

export const SESSION_COOKIE = 'consigna_portal';
const FORM = 'application/x-www-form-urlencoded';
/** Where a portal action may send the browser: a portal page, never another site. */
const PORTAL_PATH = /^\/portal(?:[/?]|$)/;

/** A request inside a live session. */
interface SignedIn {
  session: PortalSession;
  token: string;
  csrf: string;
  brand: PageBrand;
}

export function registerPortalRoutes(
  app: App,
  ctx: Context,
  limiter: RateLimiter,
  sections: readonly PortalSection[] = PORTAL_SECTIONS,
): void {
  const sandbox = ctx.config.ambiente === 'SANDBOX';
  const publicOrigin = new URL(ctx.config.publicBaseUrl).origin;
  const cookieAttributes = `Path=/portal; HttpOnly; SameSite=Strict${ctx.config.publicBaseUrl.startsWith('https:') ? '; Secure' : ''}`;
  const shown = sections.filter((section) => sandbox || !section.sandboxOnly);
  const nav: NavEntry[] = shown.map(({ label, path }) => ({ label, path }));
  /** The session of requests that got that far, for the pages of their failures. */
  const signedRequests = new WeakMap<FastifyRequest, SignedIn>();

  const send = (reply: FastifyReply, status: number, page: SafeHtml) => setPageHeaders(reply.code(status)).send(page.value);
  const inFrame = (signed: SignedIn, current: string | undefined, page: PortalPage) =>
    portalLayout(
      { title: page.title, sandbox, brand: signed.brand, nav: { entries: nav, current }, csrf: signed.csrf },
      page.body,
    );
  const signedMessage = (signed: SignedIn, current: string | undefined, { title, text }: { title: string; text: string }) =>
    inFrame(signed, current, { title, body: html`<p>${text}</p>` });

  /** The live session of the request's cookie, rate-limited per channel; undefined once the 401 page is sent. */
  async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | undefined> {
    const token = cookieValue(request.headers.cookie, SESSION_COOKIE);
    const session = await sessionOfToken(ctx, token);
    if (!session) {
      if (token !== undefined) {
        // A cookie that names no live session: counted per source, like a guessed path token.
        enforce(
          reply,
          hitPathToken(limiter, undefined, request.ip, {
            token: ctx.config.rateLimits.api,
            unknownToken: ctx.config.rateLimits.unknownToken,
          }),
        );
        reply.header('set-cookie', `${SESSION_COOKIE}=; Max-Age=0; ${cookieAttributes}`);
      }
      send(reply, 401, messagePage(sandbox, SESSION_ENDED.title, SESSION_ENDED.text));
      return undefined;
    }
    enforce(reply, limiter.hit(`portal:${session.channelId}`, ctx.config.rateLimits.api));
    const signed = { session, token: token!, csrf: csrfTokenOf(ctx, token!), brand: await pageBrand(ctx, session.channelId) };
    signedRequests.set(request, signed);
    return signed;
  }

  /** A form post that may change something: same origin, a form (of `type`), the session's `_csrf`. */
  const formAccepted = (
    request: FastifyRequest,
    signed: SignedIn,
    type = FORM,
    fields = request.body as Record<string, string> | undefined,
  ): boolean =>
    sameOrigin(request, publicOrigin) &&
    String(request.headers['content-type'] ?? '').startsWith(type) &&
    csrfMatches(ctx, signed.token, fields?._csrf);

  /** An accepted action's answer: a page, or its change recorded then a 303 to a portal page. */
  async function answer(reply: FastifyReply, signed: SignedIn, current: string, path: string, result: PortalActionResult) {
    if (!('redirect' in result)) return send(reply, result.status ?? 422, inFrame(signed, current, result));
    if (!PORTAL_PATH.test(result.redirect)) throw new Error(`portal action ${path} redirects outside the portal`);
    if (result.change) await recordChange(ctx.database.db, signed.session, result.change, ctx.clock.now());
    return reply.code(303).header('location', result.redirect).send();
  }

  type RouteRequest = FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, string | undefined> }>;
  /** What a page or action handler is given about its request. */
  const portalRequest = (signed: SignedIn, request: RouteRequest) => ({
    session: signed.session,
    params: request.params,
    query: single(request.query),
    csrf: signed.csrf,
  });
  /** The 403 page of a change refused (not this session's form, or a read-only session); undefined when allowed. */
  const writeRefusal = (signed: SignedIn, section: PortalSection, accepted: boolean): SafeHtml | undefined =>
    !accepted
      ? signedMessage(signed, section.path, FORM_REFUSED)
      : !signed.session.canWrite
        ? signedMessage(signed, section.path, READ_ONLY)
        : undefined;

  const routesOf = (scope: App, section: PortalSection): PortalRoutes => {
    const under = (path: string) => {
      if (!path.startsWith('/portal')) throw new Error(`portal route ${path} must be under /portal`);
    };
    return {
      ctx,
      page(path, handler) {
        under(path);
        scope.get<{ Params: Record<string, string>; Querystring: Record<string, string | undefined> }>(
          path,
          { schema: { hide: true } },
          async (request, reply) => {
            const signed = await signedIn(request, reply);
            if (!signed) return reply;
            const page = await handler(portalRequest(signed, request));
            return send(reply, page.status ?? 200, inFrame(signed, section.path, page));
          },
        );
      },
      action(path, handler) {
        under(path);
        scope.post<{ Params: Record<string, string>; Querystring: Record<string, string | undefined> }>(
          path,
          { schema: { hide: true } },
          async (request, reply) => {
            const signed = await signedIn(request, reply);
            if (!signed) return reply;
            const refusal = writeRefusal(signed, section, formAccepted(request, signed));
            if (refusal) return send(reply, 403, refusal);
            const { _csrf: _checked, ...form } = request.body as Record<string, string>;
            const result = await handler({ ...portalRequest(signed, request), form });
            return answer(reply, signed, section.path, path, result);
          },
        );
      },
      upload(path, spec, handler) {
        under(path);
        // Its own scope, so that multipart bodies are parsed on this route and no other.
        void scope.register(async (child) => {
          await acceptUploads(child, spec);
          child.post<{ Params: Record<string, string>; Querystring: Record<string, string | undefined> }>(
            path,
            { schema: { hide: true } },
            async (request, reply) => {
              const signed = await signedIn(request, reply);
              if (!signed) return reply;
              const upload: Upload = request.isMultipart() ? await readUpload(request, spec) : { fields: {} };
              const refusal = writeRefusal(signed, section, formAccepted(request, signed, MULTIPART, upload.fields));
              if (refusal) return send(reply, 403, refusal);
              const { _csrf: _checked, ...form } = upload.fields;
              const result = await handler({
                ...portalRequest(signed, request),
                form,
                ...(upload.file ? { file: upload.file } : {}),
                ...(upload.problem ? { problem: upload.problem } : {}),
              });
              return answer(reply, signed, section.path, path, result);
            },
          );
        });
      },
    };
  };

  void app.register(async (scope) => {
    scope.setErrorHandler((error, request, reply) => {
      const appError = reportError(error as Error, request);
      const text =
        appError.status === 404
          ? { title: 'Não encontrado', text: 'Esta página não existe, ou não é do seu canal.' }
          : appError.status === 400
            ? { title: 'Pedido inválido', text: appError.message }
            : pageTextFor(appError, request.id);
      const signed = signedRequests.get(request);
      reply.headers(appError.headers);
      return send(
        reply,
        appError.status,
        signed ? signedMessage(signed, undefined, text) : messagePage(sandbox, text.title, text.text),
      );
    });
    scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 8192 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    /** Entry-link tokens that exist are counted per token, guesses per source address. */
    const entryLimited = (token: string, known: boolean, request: FastifyRequest, reply: FastifyReply) =>
      enforce(
        reply,
        hitPathToken(limiter, known ? linkLimitKey(ctx, token) : undefined, request.ip, {
          token: ctx.config.rateLimits.journey,
          unknownToken: ctx.config.rateLimits.unknownToken,
        }),
      );
    const invalidLink = (reply: FastifyReply) => send(reply, 404, messagePage(sandbox, INVALID_LINK.title, INVALID_LINK.text));

    scope.get<{ Params: { token: string } }>(`${ENTRY_PATH}:token`, { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      const channelId = await usableLinkChannel(ctx, token);
      entryLimited(token, channelId !== undefined, request, reply);
      if (channelId === undefined) return invalidLink(reply);
      return send(reply, 200, entryPage(sandbox, await pageBrand(ctx, channelId), `${ENTRY_PATH}${token}`));
    });

    scope.post<{ Params: { token: string } }>(`${ENTRY_PATH}:token`, { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      if (!sameOrigin(request, publicOrigin))
        return send(reply, 403, messagePage(sandbox, FORM_REFUSED.title, FORM_REFUSED.text));
      entryLimited(token, (await usableLinkChannel(ctx, token)) !== undefined, request, reply);
      const redeemed = await redeemPortalLink(ctx, token);
      if (!redeemed) return invalidLink(reply);
      return reply
        .code(303)
        .header(
          'set-cookie',
          `${SESSION_COOKIE}=${redeemed.sessionToken}; Max-Age=${PORTAL_SESSION_TTL_SECONDS}; ${cookieAttributes}`,
        )
        .header('location', '/portal')
        .send();
    });

    scope.post('/portal/sair', { schema: { hide: true } }, async (request, reply) => {
      const token = cookieValue(request.headers.cookie, SESSION_COOKIE);
      const session = await sessionOfToken(ctx, token);
      if (session) {
        const signed = { session, token: token!, csrf: csrfTokenOf(ctx, token!), brand: await pageBrand(ctx, session.channelId) };
        if (!formAccepted(request, signed)) return send(reply, 403, signedMessage(signed, undefined, FORM_REFUSED));
        await endSession(ctx, session.id);
      }
      return reply
        .code(303)
        .header('set-cookie', `${SESSION_COOKIE}=; Max-Age=0; ${cookieAttributes}`)
        .header('location', '/portal/saiu')
        .send();
    });

    scope.get('/portal/saiu', { schema: { hide: true } }, async (_request, reply) =>
      send(reply, 200, messagePage(sandbox, SIGNED_OUT.title, SIGNED_OUT.text)),
    );

    for (const section of shown) section.register(routesOf(scope, section));

    // Any other /portal path: the portal's own 404 page, not the API's JSON.
    scope.route({
      method: ['GET', 'POST'],
      url: '/portal/*',
      schema: { hide: true },
      handler: async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        return send(
          reply,
          404,
          signedMessage(signed, undefined, { title: 'Não encontrado', text: 'Esta página não existe no portal.' }),
        );
      },
    });
  });
}

/** A repeated query parameter (`?status=A&status=B`) counts once, as its first value: handlers see text only. */
function single(query: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    const first: unknown = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[key] = first;
  }
  return out;
}

/** One cookie's value from a Cookie header (the last one wins if it repeats: none of ours does). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  let value: string | undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) value = part.slice(eq + 1).trim();
  }
  return value;
}
