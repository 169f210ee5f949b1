import type { App } from '../http/fastify.ts';
import type { Context } from '../context.ts';
import { accentStylesheet, getBrand, logoBytes, putBrand, removeBrand } from './brand.service.ts';
import { deleteBrandSchema, getBrandSchema, putBrandSchema } from './brand.schemas.ts';

const IMMUTABLE = { 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' };

export function registerBrandRoutes(app: App, ctx: Context): void {
  const bearer = { auth: 'bearer' as const };

  app.put(
    '/v1/marca',
    {
      config: { ...bearer, fieldCodes: { nome: 'nome_invalido', cor: 'cor_invalida', logo: 'logo_invalido' } },
      schema: putBrandSchema,
    },
    async (request, reply) => {
      const { created, brand } = await putBrand(ctx, request.channel!.id, request.body);
      if (created) reply.code(201);
      return brand;
    },
  );

  app.get('/v1/marca', { config: bearer, schema: getBrandSchema }, async (request) => getBrand(ctx, request.channel!.id));

  app.delete('/v1/marca', { config: bearer, schema: deleteBrandSchema }, async (request, reply) => {
    await removeBrand(ctx, request.channel!.id);
    return reply.code(204).send();
  });

  // What the hosted pages load: the logo by its content hash, the accent as a stylesheet
  // (the pages' CSP allows no inline style). Both addresses name their content: cached for good.
  app.get<{ Params: { hash: string } }>('/marca/logo/:hash', { schema: { hide: true } }, async (request, reply) => {
    const logo = await logoBytes(ctx, request.params.hash);
    if (!logo) return reply.code(404).type('text/plain; charset=utf-8').send('não encontrado');
    return reply
      .headers({ ...IMMUTABLE, 'content-type': logo.logo_type, 'content-security-policy': "default-src 'none'" })
      .send(Buffer.from(logo.logo));
  });

  app.get<{ Params: { file: string } }>('/marca/cor/:file', { schema: { hide: true } }, async (request, reply) => {
    const css = request.params.file.endsWith('.css') ? accentStylesheet(request.params.file.slice(0, -4)) : undefined;
    if (!css) return reply.code(404).type('text/plain; charset=utf-8').send('não encontrado');
    return reply.headers({ ...IMMUTABLE, 'content-type': 'text/css; charset=utf-8' }).send(css);
  });

  // The portal's preview of a colour not saved yet (docs/rules.md §10.7): the same accent as --previa-marca.
  app.get<{ Params: { file: string } }>('/marca/previa/:file', { schema: { hide: true } }, async (request, reply) => {
    const file = request.params.file;
    const css = file.endsWith('.css') ? accentStylesheet(file.slice(0, -4), 'previa-marca') : undefined;
    if (!css) return reply.code(404).type('text/plain; charset=utf-8').send('não encontrado');
    return reply.headers({ ...IMMUTABLE, 'content-type': 'text/css; charset=utf-8' }).send(css);
  });
}
