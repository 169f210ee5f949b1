// The pages' static assets (src/http/assets.ts): compressed once at start, served in the
// encoding the browser accepts, each representation with its own ETag, cached for good.
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { journeyAssets } from '../../src/journey/views/assets.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

describe('GET /assets/{name}', () => {
  it('answers brotli, gzip or identity as accepted, the same bytes underneath, each with its own ETag', async () => {
    const url = journeyAssets.url('journey.css');
    const get = (encoding?: string, etag?: string) =>
      service.inject({
        method: 'GET',
        url,
        headers: { ...(encoding ? { 'accept-encoding': encoding } : {}), ...(etag ? { 'if-none-match': etag } : {}) },
      });
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const br = await get('gzip, deflate, br');
    const gzip = await get('gzip');
    expect([br.headers['content-encoding'], gzip.headers['content-encoding']]).toEqual(['br', 'gzip']);
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(zlib.gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
    // Smaller on the wire: what a phone on a slow link waits for.
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const etags = new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]);
    expect(etags.size).toBe(3);
    expect((await get('br', br.headers.etag as string)).statusCode).toBe(304);
    expect((await get('gzip', br.headers.etag as string)).statusCode).toBe(200);
  });
});
