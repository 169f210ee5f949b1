// Deeply nested JSON sent to the test inbox (issue 13, finding 1). Once, an 8 KB body
// of 4,000 nested arrays rendered as a 32 MB viewer page, two or three of them killed
// the process (heap out of memory), and 4,500 levels made every read of the inbox a
// 500 (stack overflow). Against a real `consigna serve`, on either database: the
// process stays alive, every read answers, with a size in proportion to what is
// stored, and what is too deep is shown as text, marked as such.
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, serveWithChannel } from '../helpers/processes.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { MAX_JSON_DEPTH } from '../../src/text/json.ts';
import { PREVIEW_CHARS, VIEWER_PAGE_SIZE } from '../../src/sandbox/inbox.service.ts';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('deeply nested JSON in the inbox (real process)', () => {
  afterAll(() => killAll());

  it('keeps the process alive, answers every read in proportion, and shows what is too deep as text', async () => {
    // Depth, not load shedding, is under test: a busy machine must not turn a post into a 503.
    const { serve, bearer, close } = await serveWithChannel({ CONSIGNA_SHED_EVENT_LOOP_DELAY_MS: '0' });
    try {
      const inbox = (await (
        await fetch(`${serve.url}/v1/sandbox/receptor`, { method: 'PUT', headers: { authorization: bearer } })
      ).json()) as { url: string };
      const token = inbox.url.split('/').pop()!;
      rememberSecret(token);
      const post = (body: string) =>
        fetch(`${serve.url}/v1/sandbox/receptor/${token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });

      // 64 levels around 20,000 numbers: 40 KB of JSON whose indented form is 2.6 MB.
      const wide = '['.repeat(MAX_JSON_DEPTH - 1) + Array(20_000).fill(1).join(',') + ']'.repeat(MAX_JSON_DEPTH - 1);
      const sent = [nested(4000), nested(4000), nested(4000), nested(4500), wide];
      for (const body of sent) expect((await post(body)).status).toBe(200);
      const storedBytes = sent.reduce((sum, body) => sum + body.length, 0);

      for (let read = 0; read < 5; read++) {
        const page = await fetch(`${serve.url}/sandbox/receptor/${token}`);
        const html = await page.text();
        expect(page.status).toBe(200);
        // A page of previews: its size depends on the page, not on what was stored.
        expect(html.length).toBeLessThan(VIEWER_PAGE_SIZE * (2 * PREVIEW_CHARS + 2_000) + 20_000);
        expect(html).toContain(`JSON com mais de ${MAX_JSON_DEPTH} níveis de aninhamento: mostrado como texto`);
        expect(html).toContain('Prévia: só o início do corpo');

        const events = await fetch(`${serve.url}/v1/sandbox/receptor/${token}/eventos`);
        expect(events.status).toBe(200);
        const text = await events.text();
        expect(text.length).toBeLessThan(2 * storedBytes + 20_000);
        const { eventos } = JSON.parse(text) as { eventos: { corpo: unknown; corpoAviso?: string }[] };
        const newestFirst = sent.toReversed();
        eventos.forEach((event, i) => {
          if (newestFirst[i] === wide) {
            expect(event.corpo).toEqual(JSON.parse(wide));
            expect(event.corpoAviso).toBeUndefined();
          } else {
            expect(event.corpo).toBe(newestFirst[i]);
            expect(event.corpoAviso).toMatch(/mostrado como texto/);
          }
        });
      }

      expect(serve.alive(), serve.output().slice(-2000)).toBe(true);
      expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
      expect(serve.output()).not.toMatch(/heap out of memory|Maximum call stack/);
    } finally {
      await close();
    }
  }, 120_000);
});
