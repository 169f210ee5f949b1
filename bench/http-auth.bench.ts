// Authentication hot paths: issuing a token (client credentials, Basic auth) and a
// Bearer-authenticated call that reads the database (GET /v1/ping).
import type { BenchCase } from './lib/types.ts';
import { BenchError } from './lib/process.ts';

export const cases: BenchCase[] = [
  {
    id: 'token',
    name: 'POST /v1/oauth/token',
    target: 'p99 < 20 ms',
    goals: { p99BelowMs: 20 },
    baseline: 'bare-fastify',
    // Every request succeeds: the brute-force guard counts failures only. Each one
    // inserts an access_tokens row, so this is a write-path benchmark.
    async setup(ctx) {
      await ctx.accessToken(); // fails loudly if the credentials do not work
      return {
        method: 'POST',
        path: '/v1/oauth/token',
        headers: { authorization: ctx.basicAuth, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
        expectStatus: [200],
      };
    },
  },
  {
    id: 'ping',
    name: 'GET /v1/ping',
    target: '≥ 0.15× bare, p99 < 20 ms',
    goals: { minRatio: 0.15, p99BelowMs: 20 },
    baseline: 'bare-fastify',
    // One token for the whole run, obtained first; each request looks it up and
    // runs `select now()`.
    async setup(ctx) {
      const token = await ctx.accessToken();
      const headers = { authorization: `Bearer ${token}` };
      const check = await ctx.http('GET', '/v1/ping', { headers });
      if (check.status !== 200) throw new BenchError(`GET /v1/ping answered ${check.status}: ${JSON.stringify(check.body)}`);
      return { method: 'GET', path: '/v1/ping', headers, expectStatus: [200] };
    },
  },
];
