// Static assets of the pages (CSS, the viewer's script), read once at start-up and
// served from memory with a content hash, so pages can reference them immutably.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { App } from './app.ts';

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const assets = new Map<string, Asset>();

/** Registers every file of a folder under /assets/<name>. */
export function addAssetDir(dir: string): void {
  for (const file of fs.readdirSync(dir)) {
    const type = TYPES[path.extname(file)];
    if (!type) continue;
    const body = fs.readFileSync(path.join(dir, file));
    assets.set(file, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` });
  }
}

/** `/assets/journey.css?v=<hash>`: the query changes whenever the file does. */
export function assetUrl(name: string): string {
  const asset = assets.get(name);
  if (!asset) throw new Error(`unknown asset ${name}`);
  return `/assets/${name}?v=${asset.etag.slice(1, 9)}`;
}

export function registerAssetRoutes(app: App): void {
  app.get<{ Params: { name: string } }>('/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('não encontrado');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply
      .headers({
        'content-type': asset.type,
        etag: asset.etag,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      })
      .send(asset.body);
  });
}
