// The sandbox's fictitious signing page (docs/rules.md §6.1) is reached by the signing
// link's own unguessable token, never by the proposal number: numbers are sequential,
// and a page by number told anyone which channel held which proposal. The number-only
// path, a wrong token and a token altered by one character are the same 404; the
// issued link works and shows the proposal's channel. The token is stored only as a
// keyed hash; the link on the customer's result page is stored sealed; guesses are
// rate-limited per source address. Both databases.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { rememberSecret } from '../helpers/secrets.ts';

let service: TestService;
beforeAll(async () => {
  // Few guesses per source address, so the limit is reached within the file.
  service = await startTestService({ env: { CONSIGNA_RATE_LIMIT_UNKNOWN_TOKEN: '12/60' } });
});
afterAll(() => service?.close());

const SIGNING = new RegExp(`href="(http://127\\.0\\.0\\.1:3000/sandbox/assinatura/([A-Za-z0-9]{43}))"`);

describe('the sandbox signing page', () => {
  let numero: number;
  let linkId: string;
  let signingUrl: string;
  let token: string;

  beforeAll(async () => {
    const channel = await service.createChannel({ name: 'Promotora Assinatura' });
    const auth = await service.bearer(channel);
    const link = (await createLinkVia(service, auth, { cpf: VALID_CPFS[0] })).json<{ id: string; url: string }>();
    linkId = link.id;
    const journey = new JourneyClient(service, link.url);
    await journey.upToReview();
    expect((await journey.post('proposta')).status).toBe(303);
    const result = await journey.page();
    numero = Number(/Proposta nº (\d+)/.exec(result.body)![1]);
    const match = SIGNING.exec(result.body);
    expect(match, result.body.slice(0, 2000)).not.toBeNull();
    [, signingUrl, token] = match as unknown as [string, string, string];
    rememberSecret(token);
  });

  const get = (path: string) => service.inject({ method: 'GET', url: path });

  it('answers the issued link with the proposal and its channel', async () => {
    const page = await get(new URL(signingUrl).pathname);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Assinatura da proposta nº ${numero}`);
    expect(page.body).toContain('Promotora Assinatura');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });

  it('is 404 by the proposal number, a wrong token or an altered one, and says nothing about the proposal', async () => {
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [
      `/sandbox/assinatura/${numero}`,
      `/sandbox/assinatura/${String(numero).padStart(43, '0')}`,
      `/sandbox/assinatura/${'A'.repeat(43)}`,
      `/sandbox/assinatura/${altered}`,
      `/sandbox/assinatura/${token}x`,
      `/sandbox/assinatura/${token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase()}`,
    ]) {
      const page = await get(path);
      expect(page.statusCode, path).toBe(404);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).not.toContain(String(numero));
      expect(page.body).not.toContain('Promotora Assinatura');
    }
  });

  it('counts guesses per source address: 429 with Retry-After once over the limit, and the issued link still opens', async () => {
    let limited: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 0; i < 20 && !limited; i++) {
      const guess = await get(`/sandbox/assinatura/${String(i).padStart(43, 'x')}`);
      if (guess.statusCode === 429) limited = guess;
      else expect(guess.statusCode).toBe(404);
    }
    expect(limited?.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited?.body).toContain('Muitas tentativas');
    expect((await get(new URL(signingUrl).pathname)).statusCode).toBe(200);
  });

  it('keeps the token only as a keyed hash, and the result page’s link sealed', async () => {
    const pages = await sql<{ token_hash: Uint8Array }>`
      select token_hash from sandbox_signing_pages where numero = ${numero}`.execute(service.ctx.database.db);
    expect(pages.rows).toHaveLength(1);
    expect(Buffer.from(pages.rows[0]!.token_hash).toString('latin1')).not.toContain(token);
    const journey = await sql<{ signing_url: string | null; signing_url_sealed: Uint8Array | null }>`
      select signing_url, signing_url_sealed from journeys where link_id = ${linkId}`.execute(service.ctx.database.db);
    expect(journey.rows[0]!.signing_url).toBeNull();
    expect(Buffer.from(journey.rows[0]!.signing_url_sealed!).toString('latin1')).not.toContain(token);
  });
});
