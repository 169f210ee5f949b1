// Static assets of the pages (CSS, the viewer's script), read when their domain's
// module loads and served from memory with a content hash, so pages can reference
// them immutably. Each domain owns its folder (AssetFolder); the application serves
// every folder it was given under /assets/ (registerAssetRoutes).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { App } from './fastify.ts';

interface Asset {
  body: Buffer;
  /** Compressed once, when the folder is read: on a slow phone the bytes are the wait. Absent for images (already compressed). */
  br?: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
}

/** Already compressed: brotli at quality 11 would cost start-up time (~0.1 s for a 30 KB PNG) to save nothing. */
const COMPRESSED = new Set(['.png']);

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export class AssetFolder {
  readonly files = new Map<string, Asset>();

  /** Every file of `dir` with a known type, read now. */
  constructor(dir: string) {
    for (const file of fs.readdirSync(dir)) {
      const type = TYPES[path.extname(file)];
      if (!type) continue;
      const body = fs.readFileSync(path.join(dir, file));
      const compress = !COMPRESSED.has(path.extname(file));
      this.files.set(file, {
        body,
        ...(compress
          ? {
              br: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
              gzip: zlib.gzipSync(body, { level: 9 }),
            }
          : {}),
        type,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`,
      });
    }
  }

  /** `/assets/journey.css?v=<hash>`: the query changes whenever the file does. */
  url(name: string): string {
    const asset = this.files.get(name);
    if (!asset) throw new Error(`unknown asset ${name}`);
    return `/assets/${name}?v=${asset.etag.slice(1, 9)}`;
  }
}

/** Serves the files of every folder under /assets/<name> (names are unique across folders). */
export function registerAssetRoutes(app: App, folders: readonly AssetFolder[]): void {
  const assets = new Map<string, Asset>();
  for (const folder of folders) {
    for (const [name, asset] of folder.files) {
      if (assets.has(name)) throw new Error(`asset ${name} is in two folders`);
      assets.set(name, asset);
    }
  }
  app.get<{ Params: { name: string } }>('/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('não encontrado');
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = asset.br && /\bbr\b/.test(accepted) ? 'br' : asset.gzip && /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    // One ETag per representation: a cache must not answer a gzip request with brotli bytes.
    const etag = encoding ? `${asset.etag.slice(0, -1)}-${encoding}"` : asset.etag;
    const headers = {
      etag,
      vary: 'accept-encoding',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    };
    if (request.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send();
    return reply
      .headers({ ...headers, 'content-type': asset.type, ...(encoding ? { 'content-encoding': encoding } : {}) })
      .send(encoding ? asset[encoding] : asset.body);
  });
}
