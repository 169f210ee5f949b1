// {base_url}/sandbox/receptor/{token}: the inbox viewer, with form fallbacks for
// its controls (POST-redirect-GET) when JavaScript is off.
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { App } from '../http/app.ts';
import type { Context } from '../context.ts';
import { AppError } from '../errors.ts';
import { setPageHeaders } from '../http/security-headers.ts';
import { addAssetDir } from '../http/assets.ts';
import { enforce, type RateLimiter } from '../http/rate-limit.ts';
import { messagePage } from '../journey/views/pages.ts';
import { clearReceived, inboxUrlOf, hashInboxToken, listReceived, setResponderStatus } from './inbox.service.ts';
import { viewerPage } from './views/viewer.ts';

type Params = { token: string };

export function registerViewerRoutes(app: App, ctx: Context, limiter: RateLimiter): void {
  addAssetDir(path.join(import.meta.dirname, 'assets'));
  const notFoundPage = (reply: FastifyReply) =>
    setPageHeaders(reply.code(404)).send(messagePage({ sandbox: true }, 'Receptor não encontrado', 'Receptor não encontrado', 'Confira a URL: ela vem no campo visualizacaoUrl de PUT /v1/sandbox/receptor.').value);
  const limit = (token: string, reply: FastifyReply) =>
    enforce(reply, limiter.hit(`inbox:${hashInboxToken(ctx, token).toString('base64url')}`, ctx.config.rateLimits.inbox));
  const orNotFound = async (reply: FastifyReply, fn: () => Promise<FastifyReply>) => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return notFoundPage(reply);
      throw error;
    }
  };

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    scope.get<{ Params: Params }>('/sandbox/receptor/:token', { schema: { hide: true } }, async (request, reply) =>
      orNotFound(reply, async () => {
        const { token } = request.params;
        limit(token, reply);
        const { responderStatus, eventos } = await listReceived(ctx, token);
        return setPageHeaders(reply).send(viewerPage(token, responderStatus, eventos, inboxUrlOf(ctx, token)).value);
      }),
    );

    scope.post<{ Params: Params; Body: Record<string, string> }>('/sandbox/receptor/:token/modo', { schema: { hide: true } }, async (request, reply) =>
      orNotFound(reply, async () => {
        limit(request.params.token, reply);
        await setResponderStatus(ctx, request.params.token, Number(request.body?.responderStatus));
        return reply.code(303).header('location', `/sandbox/receptor/${request.params.token}`).send();
      }),
    );

    scope.post<{ Params: Params }>('/sandbox/receptor/:token/limpar', { schema: { hide: true } }, async (request, reply) =>
      orNotFound(reply, async () => {
        limit(request.params.token, reply);
        await clearReceived(ctx, { token: request.params.token });
        return reply.code(303).header('location', `/sandbox/receptor/${request.params.token}`).send();
      }),
    );
  });
}
