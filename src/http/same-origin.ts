// Form posts of the pages we host come from our own pages only.
import type { FastifyRequest } from 'fastify';

/**
 * Browsers send Origin on form posts; a post from another site is refused. Origin is
 * any text a client chooses (two headers arrive joined by a comma): anything that is
 * not exactly a serialized origin is treated as another site's.
 */
export function sameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (!origin || origin === 'null' || origin === publicOrigin) return true;
  const host = request.headers.host;
  if (host === undefined || !URL.canParse(origin)) return false;
  const parsed = new URL(origin);
  return parsed.origin === origin && parsed.host === host;
}
