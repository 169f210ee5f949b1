// The events API: a page of a channel's events (GET /v1/eventos), at the head and deep
// in the history through a cursor. The channel gets its events the way channels do:
// links whose journeys are simulated to a proposal (two events each).
import type autocannon from 'autocannon';
import type { BenchCase, BenchContext } from './lib/types.ts';
import { BenchError } from './lib/process.ts';

/** Journeys simulated before the cases: twice as many events. */
const JOURNEYS = 500;
const CONCURRENCY = 10;
const PAGE = 20;

const prepared = new WeakMap<BenchContext, Promise<{ token: string; cursors: string[] }>>();

/** Once per table: the journeys, then the cursors of every page of the history. */
function prepare(ctx: BenchContext): Promise<{ token: string; cursors: string[] }> {
  let ready = prepared.get(ctx);
  if (!ready) {
    ready = (async () => {
      const token = await ctx.accessToken();
      const headers = { authorization: `Bearer ${token}` };
      let next = 0;
      const journey = async () => {
        for (let n = next++; n < JOURNEYS; n = next++) {
          const created = await ctx.http('POST', '/v1/links', {
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ cpf: '12345678909', referenciaExterna: `eventos-${n}` }),
          });
          const id = (created.body as { id?: string }).id;
          if (created.status !== 201 || !id) throw new BenchError(`POST /v1/links answered ${created.status}`);
          const simulated = await ctx.http('POST', `/v1/links/${id}/jornada/simular`, { headers });
          if (simulated.status !== 200) throw new BenchError(`jornada/simular answered ${simulated.status}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, journey));
      const cursors: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await ctx.http('GET', `/v1/eventos?limite=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`, { headers });
        if (page.status !== 200) throw new BenchError(`GET /v1/eventos answered ${page.status}`);
        cursor = (page.body as { proximoCursor?: string }).proximoCursor;
        if (cursor) cursors.push(cursor);
      } while (cursor);
      if (cursors.length < (JOURNEYS * 2) / PAGE - 2) throw new BenchError(`only ${cursors.length} pages of events listed`);
      return { token, cursors };
    })();
    prepared.set(ctx, ready);
  }
  return ready;
}

export const cases: BenchCase[] = [
  {
    id: 'events-head',
    name: `GET /v1/eventos (newest ${PAGE})`,
    target: '≥ 0.1× bare, p99 < 20 ms',
    goals: { minRatio: 0.1, p99BelowMs: 20 },
    baseline: 'bare-fastify',
    async setup(ctx) {
      const { token } = await prepare(ctx);
      return {
        method: 'GET',
        path: `/v1/eventos?limite=${PAGE}`,
        headers: { authorization: `Bearer ${token}` },
        expectStatus: [200],
      };
    },
  },
  {
    id: 'events-cursor',
    name: `GET /v1/eventos?cursor= (any page of ${JOURNEYS * 2})`,
    target: '≥ 0.1× bare, p99 < 20 ms',
    goals: { minRatio: 0.1, p99BelowMs: 20 },
    baseline: 'bare-fastify',
    // The requests cycle through every page of the history, the deepest included.
    async setup(ctx) {
      const { token, cursors } = await prepare(ctx);
      let next = 0;
      const request: autocannon.Request = {
        setupRequest(req) {
          return { ...req, path: `/v1/eventos?limite=${PAGE}&cursor=${cursors[next++ % cursors.length]}` };
        },
      };
      return {
        method: 'GET',
        path: `/v1/eventos?limite=${PAGE}&cursor=${cursors[0]}`,
        headers: { authorization: `Bearer ${token}` },
        requests: [request],
        expectStatus: [200],
      };
    },
  },
];
