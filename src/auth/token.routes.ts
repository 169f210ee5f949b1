import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { AppError } from '../errors.ts';
import { readCredentials } from './credentials.ts';
import { issueToken } from './token.service.ts';
import { FORM, issueTokenSchema } from './token.schemas.ts';

const invalidRequest = (message: string) => new AppError(400, 'invalid_request', message, { oauth: true });

export function registerTokenRoutes(app: App, ctx: Context): void {
  void app.register(async (scope) => {
    // Only this route understands form bodies; the JSON API refuses them.
    scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      const params = new URLSearchParams(body as string);
      const form: Record<string, string> = {};
      for (const [key, value] of params) {
        if (key in form) return done(invalidRequest(`Parâmetro repetido: ${key}.`), undefined);
        form[key] = value;
      }
      done(null, form);
    });

    scope.post(
      '/v1/oauth/token',
      {
        config: { oauth: true },
        schema: issueTokenSchema,
        onRequest: async (_request, reply) => {
          reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        },
      },
      async (request) => {
        if (!request.headers['content-type']?.toLowerCase().startsWith(FORM)) {
          throw invalidRequest(`Envie o corpo como ${FORM}.`);
        }
        const form = (request.body ?? {}) as Record<string, string | undefined>;
        const credentials = readCredentials(request.headers.authorization, form);
        if (!form.grant_type) throw invalidRequest('Parâmetro grant_type ausente.');
        if (form.grant_type !== 'client_credentials') {
          throw new AppError(400, 'unsupported_grant_type', 'grant_type não suportado: use client_credentials.', { oauth: true });
        }
        return issueToken(ctx, { ...credentials, ip: request.ip });
      },
    );
  });
}
