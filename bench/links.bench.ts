// Links: creating one (POST /v1/links, a write: link row + idempotency-key row in one
// transaction) and reading one (GET /v1/links/{id}).
import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import type { BenchCase, BenchContext } from './lib/types.ts';
import { BenchError } from './lib/process.ts';

/** The sandbox bank picks a scenario by CPF (src/bank/sandbox-bank.ts): never use these. */
const SANDBOX_SCENARIO_CPFS = new Set(['00000000191', '00000000272', '00000000353', '00000000434', '00000000515', '00000000604']);

function checkDigit(digits: number[], length: number): number {
  let sum = 0;
  for (let i = 0; i < length; i++) sum += digits[i]! * (length + 1 - i);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

/** A valid CPF (correct check digits) from its first nine digits. */
function cpfFrom(base: string): string {
  const digits = [...base].map(Number);
  digits.push(checkDigit(digits, 9));
  digits.push(checkDigit(digits, 10));
  return digits.join('');
}

/** 64 distinct valid CPFs, the same on every run; none is a sandbox scenario or a repeated digit. */
const CPFS: string[] = (() => {
  const cpfs = new Set<string>();
  for (let i = 0; cpfs.size < 64; i++) {
    const cpf = cpfFrom(String(100_000_000 + ((i * 7_919_333) % 899_999_999)).padStart(9, '0'));
    if (!SANDBOX_SCENARIO_CPFS.has(cpf) && !/^(\d)\1{10}$/.test(cpf)) cpfs.add(cpf);
  }
  return [...cpfs];
})();

/** Makes every Idempotency-Key of the process unique, across cases, runs and tables. */
const RUN_TAG = randomBytes(4).toString('hex');
let sequence = 0;

function nextCreation(): { key: string; body: string } {
  const n = ++sequence;
  return {
    key: `bench-${n}-${RUN_TAG}`,
    body: JSON.stringify({ cpf: CPFS[n % CPFS.length], referenciaExterna: `bench-${n}` }),
  };
}

async function createOne(ctx: BenchContext, token: string): Promise<string> {
  const { key, body } = nextCreation();
  const answer = await ctx.http('POST', '/v1/links', {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body,
  });
  const id = (answer.body as { id?: unknown } | undefined)?.id;
  if (answer.status !== 201 || typeof id !== 'string') {
    throw new BenchError(`POST /v1/links answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return id;
}

const READ_LINKS = 100;

export const cases: BenchCase[] = [
  {
    id: 'links-create',
    name: 'POST /v1/links',
    target: '≥ 0.05× bare, p99 < 20 ms',
    goals: { minRatio: 0.05, p99BelowMs: 20 },
    baseline: 'bare-fastify',
    // Each request has its own Idempotency-Key, so each one creates a link (201):
    // a replay (200) or a conflict (409) would mark the case broken.
    async setup(ctx) {
      const token = await ctx.accessToken();
      await createOne(ctx, token); // fails loudly if creation does not work
      const request: autocannon.Request = {
        setupRequest(req) {
          const { key, body } = nextCreation();
          return { ...req, headers: { ...req.headers, 'idempotency-key': key }, body };
        },
      };
      return {
        method: 'POST',
        path: '/v1/links',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        requests: [request],
        expectStatus: [201],
      };
    },
  },
  {
    id: 'links-get',
    name: 'GET /v1/links/{id}',
    target: '≥ 0.15× bare, p99 < 20 ms',
    goals: { minRatio: 0.15, p99BelowMs: 20 },
    baseline: 'bare-fastify',
    // 100 links created first; the requests cycle through them.
    async setup(ctx) {
      const token = await ctx.accessToken();
      const ids: string[] = [];
      while (ids.length < READ_LINKS) {
        const batch = Math.min(10, READ_LINKS - ids.length);
        ids.push(...(await Promise.all(Array.from({ length: batch }, () => createOne(ctx, token)))));
      }
      const headers = { authorization: `Bearer ${token}` };
      const check = await ctx.http('GET', `/v1/links/${ids[0]}`, { headers });
      if (check.status !== 200)
        throw new BenchError(`GET /v1/links/{id} answered ${check.status}: ${JSON.stringify(check.body)}`);
      let next = 0;
      const request: autocannon.Request = {
        setupRequest(req) {
          const id = ids[next++ % ids.length]!;
          return { ...req, path: `/v1/links/${id}` };
        },
      };
      return { method: 'GET', path: `/v1/links/${ids[0]}`, headers, requests: [request], expectStatus: [200] };
    },
  },
];
