// Attacker with one inbox token (issue 32), one row per database: does what anyone
// holding a sandbox inbox token can ask for slow another channel's API?
//
// One `consigna serve` at its defaults, two channels. The victim (B) calls
// GET /v1/ping in a loop, one call at a time, 10 ms apart. The attacker (A), in a
// process of its own (bench/lib/inbox-attacker.ts), has only its inbox token and, all
// at once: 50 streams opened on the inbox that never read (10 are accepted), 64 KB
// bodies posted 4 at a time, and the viewer asked 40 times at once, again and again,
// over 50 stored bodies of wide JSON, as fast as the answers and the inbox's rate limit
// (Retry-After) allow. Phases alternate, alone
// then beside, twice, each --duration seconds, so that neither order nor the machine's
// drift decides the ratio. Reported: B's ping latency beside ÷ alone (p99), target ≤ 2×,
// and what the attacker got (answers by status) and the service's peak RSS.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { deriveKeys } from '../src/crypto/keys.ts';
import { systemClock } from '../src/clock.ts';
import type { Config } from '../src/config/config.ts';
import { createChannel } from '../src/channels/channels.service.ts';
import { onCleanup } from './lib/cleanup.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { BenchError, freePort, runCommand, sleep, startService, withoutServiceSettings } from './lib/process.ts';
import { formatMiB, readRss } from './lib/rss.ts';
import type { BenchSuite, SuiteContext, SuitePart, SuiteRow } from './lib/types.ts';
import { percentiles, type Percentiles } from './lib/webhooks/noisy.ts';

const MAX_P99_RATIO = 2;
const TARGET = `B's ping p99 beside ≤ ${MAX_P99_RATIO}× alone`;

const PARTS: SuitePart[] = [
  { id: 'attacker-embedded', name: 'B ping beside an inbox attacker (embedded)', target: TARGET },
  { id: 'attacker-postgres', name: 'B ping beside an inbox attacker (PostgreSQL)', target: TARGET },
  { id: 'attacker-calibration', name: 'B ping beside a GET /healthz flood (PostgreSQL)', target: '– (the harness)' },
];

export const suites: BenchSuite[] = [
  { id: 'attacker', name: 'Attacker with one inbox token', backends: ['postgres', 'embedded'], parts: PARTS, run },
];

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const text = (p: Percentiles) => `p50 ${ms(p.p50)} · p95 ${ms(p.p95)} · p99 ${ms(p.p99)} ms (${p.count})`;

/** JSON of about 64 KB that is wide rather than deep. */
const wideBody = (n: number): string =>
  n % 2 === 0
    ? `[${Array(32_767)
        .fill(n % 10)
        .join(',')}]`
    : `{${Array.from({ length: 5_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;

interface Service {
  url: string;
  victim: string;
  attacker: string;
  token: string;
  pid: number;
  stop(): Promise<void>;
}

async function startServing(ctx: SuiteContext, backend: 'embedded' | 'postgres'): Promise<Service> {
  const masterKey = randomBytes(32);
  const env = withoutServiceSettings(ctx.env);
  env.CONSIGNA_MASTER_KEY = masterKey.toString('hex');
  env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
  let cleanup: () => Promise<void>;
  let database;
  if (backend === 'postgres') {
    const benchDb = await createBenchDatabase(ctx.adminUrl);
    env.DATABASE_URL = benchDb.url;
    database = await openDatabase({ databaseUrl: benchDb.url, poolSize: 2 });
    cleanup = () => benchDb.drop();
  } else {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'consigna-bench-attacker-'));
    env.CONSIGNA_DATA_DIR = dataDir;
    database = await openDatabase({ databaseUrl: undefined, dataDir: path.join(dataDir, 'pglite') });
    cleanup = () => rm(dataDir, { recursive: true, force: true });
  }
  const removeData = onCleanup('remove the attacker bench data', cleanup);
  await migrate(database);
  const deps = { database, keys: deriveKeys(masterKey), clock: systemClock, config: { ambiente: 'SANDBOX' } as Config };
  const [a, b] = [await createChannel(deps, { name: 'Atacante' }), await createChannel(deps, { name: 'Vitima' })];
  await database.close();

  const port = await freePort();
  Object.assign(env, { PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
  const serve = await startService({
    label: `consigna serve (${backend})`,
    args: ['bin/consigna.js', 'serve'],
    cwd: ctx.root,
    env,
    port,
  });
  const token = async (c: { clientId: string; clientSecret: string }) => {
    const r = await fetch(`${serve.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    return `Bearer ${((await r.json()) as { access_token: string }).access_token}`;
  };
  const attacker = await token(a);
  const inbox = (await (
    await fetch(`${serve.url}/v1/sandbox/receptor`, { method: 'PUT', headers: { authorization: attacker } })
  ).json()) as {
    url: string;
  };
  return {
    url: serve.url,
    victim: await token(b),
    attacker,
    token: inbox.url.split('/').pop()!,
    pid: serve.pid,
    async stop() {
      await serve.stop();
      await removeData();
    },
  };
}

/** B's pings, one at a time, until `until`. */
async function pings(service: Service, until: number): Promise<number[]> {
  const durations: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    const r = await fetch(`${service.url}/v1/ping`, { headers: { authorization: service.victim } });
    await r.arrayBuffer();
    if (r.status !== 200) throw new BenchError(`the victim's ping answered ${r.status}`);
    durations.push(performance.now() - started);
    await sleep(10);
  }
  return durations;
}

/** The attacker's process (bench/lib/inbox-attacker.ts) for `seconds`; its answers by status. */
async function attack(ctx: SuiteContext, service: Service, seconds: number, mode: string): Promise<Record<string, number>> {
  const out = await runCommand(
    'the inbox attacker',
    [path.join(ctx.root, 'bench/lib/inbox-attacker.ts'), service.url, service.token, String(seconds), mode],
    { cwd: ctx.root, env: ctx.env, timeoutMs: (seconds + 60) * 1000 },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, number>;
}

async function run(ctx: SuiteContext, parts: SuitePart[]) {
  const rows: SuiteRow[] = [];
  const notes: string[] = [];
  const raw: Record<string, unknown> = {};
  for (const part of parts) {
    const backend = part.id === 'attacker-embedded' ? 'embedded' : 'postgres';
    const mode = part.id === 'attacker-calibration' ? 'healthz' : 'inbox';
    ctx.log(`${backend}: starting consigna serve…`);
    const service = await startServing(ctx, backend);
    try {
      // The wide bodies the viewer renders, and one of each path warmed.
      for (let n = 0; n < 50; n++) {
        await (
          await fetch(`${service.url}/v1/sandbox/receptor/${service.token}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: wideBody(n),
          })
        ).arrayBuffer();
      }
      await pings(service, Date.now() + ctx.warmup * 1000);
      const alone: number[] = [];
      const beside: number[] = [];
      const attacker: Record<string, number> = {};
      let peakRss = readRss(service.pid) ?? 0;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, readRss(service.pid) ?? 0)), 100);
      for (let round = 0; round < 2; round++) {
        ctx.log(`${backend}: round ${round + 1}, B alone…`);
        alone.push(...(await pings(service, Date.now() + ctx.duration * 1000)));
        ctx.log(`${backend}: round ${round + 1}, B beside the attacker…`);
        const until = Date.now() + ctx.duration * 1000;
        const [measured, answers] = await Promise.all([pings(service, until), attack(ctx, service, ctx.duration, mode)]);
        beside.push(...measured);
        for (const [k, v] of Object.entries(answers)) attacker[k] = (attacker[k] ?? 0) + v;
        await sleep(2000);
      }
      clearInterval(sampler);
      const [a, b] = [percentiles(alone), percentiles(beside)];
      const ratio = b.p99 / a.p99;
      rows.push({
        part: part.id,
        name: part.name,
        figure: text(b),
        baseline: `B alone: ${text(a)}`,
        ratio,
        target: part.target,
        verdicts: mode === 'inbox' ? { [`p99 ≤ ${MAX_P99_RATIO}×`]: ratio <= MAX_P99_RATIO } : {},
      });
      notes.push(
        `${part.id}: attacker's answers ${Object.entries(attacker)
          .toSorted()
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}; service RSS peak ${formatMiB(peakRss)}`,
      );
      raw[part.id] = { alone: a, beside: b, attacker, peakRss };
    } finally {
      await service.stop();
    }
  }
  notes.push(
    `load average at the end: ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
  return { title: 'Attacker with one inbox token (B: GET /v1/ping, one at a time)', rows, notes, raw };
}
