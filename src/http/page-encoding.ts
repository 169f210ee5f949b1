// Large HTML pages (the inbox viewer, with its events) go gzipped to browsers that accept
// it: on a slow phone the bytes are the wait. Small pages go as they are, where the
// compression would save less than a round trip's worth. No secret the sender cannot
// already read shares a compressed page with text a stranger controls (BREACH): the
// viewer shows only what was sent to an inbox whose address is its token.
// Compression runs on libuv's thread pool, not on the event loop every channel shares.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const WORTH_COMPRESSING = 1400;
const gzip = promisify(zlib.gzip);

export async function sendPage(request: FastifyRequest, reply: FastifyReply, html: string): Promise<FastifyReply> {
  reply.header('vary', 'accept-encoding');
  if (Buffer.byteLength(html) < WORTH_COMPRESSING || !/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    return reply.send(html);
  }
  return reply.header('content-encoding', 'gzip').send(await gzip(html, { level: 6 }));
}
