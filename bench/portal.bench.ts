// The portal's reads at a channel's scale (PostgreSQL): GET /v1/links (a page, with and
// without each filter) and GET /v1/relatorios/funil (30 days, by day and by reference)
// with 1,000,000 links of one channel beside 5,000,000 of others, each answer's p50, p95
// and p99 over real HTTP against the 100 ms target and GET /v1/ping measured the same way
// in the same run. Also: the migrations from 0020 on applied to the filled tables (how
// long, and how long a read and a write of a link waited meanwhile), and what the
// funnel's triggers add to the writes they count.
//
// Sizes: BENCH_PORTAL_LINKS (the channel's, default 1,000,000), BENCH_PORTAL_OTHER_LINKS
// (default 5 × that), BENCH_PORTAL_DAYS (default 365). A quick run:
// BENCH_PORTAL_LINKS=100000 npm run bench -- --only portal --duration 3.
import os from 'node:os';
import { sql } from 'kysely';
import { LINK_STATUSES } from '../src/links/link-states.ts';
import { PROPOSAL_STATUSES } from '../src/db/tables.ts';
import { MAX_DAYS, TIME_ZONE } from '../src/reports/days.ts';
import { closedLoop, type LoopResult } from './lib/closed-loop.ts';
import { portalFixture, type PortalFixture, type PortalSize } from './lib/portal-fixture.ts';
import { measureWrites, WRITE_STEPS, type WriteCost } from './lib/portal-writes.ts';
import { createContext } from './lib/context.ts';
import { BenchError, freePort, startService, withoutServiceSettings, type ChildService } from './lib/process.ts';
import type { BenchSuite, SuiteContext, SuitePart, SuiteRow } from './lib/types.ts';

const TARGET_MS = 100;
/** Requests in flight: the time one answer takes, then with a few portal users at once. */
const IN_FLIGHT = [1, 4] as const;
const DAY_MS = 86_400_000;
const PERIOD_DAYS = 30;

const PARTS = {
  list: { id: 'portal-list', name: 'GET /v1/links, a page of 20', target: `p99 ≤ ${TARGET_MS} ms` },
  funnel: { id: 'portal-funnel', name: 'GET /v1/relatorios/funil', target: `p99 ≤ ${TARGET_MS} ms` },
  writes: { id: 'portal-writes', name: 'what the funnel triggers add to a link’s writes', target: 'reported' },
} satisfies Record<string, SuitePart>;

export const suites: BenchSuite[] = [
  {
    id: 'portal',
    name: 'Portal reads at scale',
    backends: ['postgres'],
    parts: Object.values(PARTS),
    run: (ctx, parts) => measure(ctx, parts),
  },
];

const int = (v: number) => Math.round(v).toLocaleString('en-US');
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const loadText = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');

function sizeFromEnv(env: NodeJS.ProcessEnv): PortalSize {
  const positive = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw.replace(/[_,]/g, ''));
    if (!Number.isInteger(value) || value < 1) throw new BenchError(`${name}: expected a positive integer, got "${raw}"`);
    return value;
  };
  const links = positive('BENCH_PORTAL_LINKS', 1_000_000);
  const days = positive('BENCH_PORTAL_DAYS', 365);
  if (days <= PERIOD_DAYS) throw new BenchError(`BENCH_PORTAL_DAYS: more than ${PERIOD_DAYS}`);
  return { links, otherLinks: positive('BENCH_PORTAL_OTHER_LINKS', links * 5), otherChannels: 20, days };
}

interface Variant {
  part: keyof typeof PARTS;
  name: string;
  /** Beyond the target's scope: measured and reported, not judged. */
  informational?: boolean;
  next(i: number): string;
  read?(body: string): void;
}

/** São Paulo's calendar day of an instant, AAAA-MM-DD. */
const spDay = (at: Date) => at.toLocaleDateString('en-CA', { timeZone: TIME_ZONE });

/** The requests measured: each rotates over values spread across the channel's history. */
async function variants(fixture: PortalFixture, days: number): Promise<Variant[]> {
  const { rows: references } = await sql<{ referencia_externa: string }>`
    select referencia_externa from links where channel_id = ${fixture.channel.canalId} and referencia_externa is not null
    group by 1 order by count(*) desc, 1
  `.execute(fixture.database.db);
  const ranked = references.map((r) => r.referencia_externa);
  // The most used, a few in the middle and the rarest: a rare one's walk is its own index.
  const picks = [0, 1, 2, 10, 100, 500, 1000, ranked.length - 1].filter((n) => n < ranked.length).map((n) => ranked[n]!);
  // Half the windows end at the newest link (today's rows are the ones being written),
  // the other half anywhere in the history.
  const windowEnd = (i: number) => (i % 2 === 0 ? 0 : 1 + ((i * 7919) % (days - PERIOD_DAYS)));
  const newest = fixture.newest.getTime();
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const pick = <T>(values: readonly T[], i: number) => values[i % values.length]!;
  let cursor: string | undefined;
  let depth = 0;
  return [
    { part: 'list', name: 'no filter', next: () => '/v1/links' },
    {
      part: 'list',
      name: 'pages 1–10 through the cursor',
      next() {
        if (cursor && depth < 10) return `/v1/links?${query({ cursor })}`;
        depth = 0;
        return '/v1/links';
      },
      read(body) {
        cursor = (JSON.parse(body) as { proximoCursor?: string }).proximoCursor;
        depth += 1;
      },
    },
    { part: 'list', name: `status (each of ${LINK_STATUSES.length})`, next: (i) => `/v1/links?status=${pick(LINK_STATUSES, i)}` },
    {
      part: 'list',
      name: `propostaStatus (each of ${PROPOSAL_STATUSES.length})`,
      next: (i) => `/v1/links?propostaStatus=${pick(PROPOSAL_STATUSES, i)}`,
    },
    {
      part: 'list',
      name: `referenciaExterna (${picks.length}, most to least used)`,
      next: (i) => `/v1/links?${query({ referenciaExterna: pick(picks, i) })}`,
    },
    {
      part: 'list',
      name: `creation period (${PERIOD_DAYS} days, across the history)`,
      next(i) {
        const ate = newest - windowEnd(i) * DAY_MS;
        return `/v1/links?${query({ desde: new Date(ate - PERIOD_DAYS * DAY_MS).toISOString(), ate: new Date(ate).toISOString() })}`;
      },
    },
    {
      part: 'list',
      name: 'referenciaExterna and status (a walk of at most 2,000)',
      next: (i) => `/v1/links?${query({ referenciaExterna: pick(picks, i), status: pick(LINK_STATUSES, i >> 3) })}`,
    },
    ...(['dia', 'referenciaExterna'] as const).map((agruparPor): Variant => ({
      part: 'funnel',
      name: `${PERIOD_DAYS} days by ${agruparPor}`,
      next(i) {
        const ate = new Date(newest - windowEnd(i) * DAY_MS);
        const de = new Date(ate.getTime() - (PERIOD_DAYS - 1) * DAY_MS);
        return `/v1/relatorios/funil?${query({ de: spDay(de), ate: spDay(ate), agruparPor })}`;
      },
    })),
    {
      part: 'funnel',
      name: `${MAX_DAYS} days by referenciaExterna (the longest period)`,
      informational: true,
      next() {
        const de = new Date(newest - (MAX_DAYS - 1) * DAY_MS);
        return `/v1/relatorios/funil?${query({ de: spDay(de), ate: spDay(new Date(newest)), agruparPor: 'referenciaExterna' })}`;
      },
    },
  ];
}

async function measure(ctx: SuiteContext, parts: SuitePart[]) {
  const loadAtStart = os.loadavg();
  const size = sizeFromEnv(ctx.env);
  const wanted = new Set(parts.map((p) => p.id));
  const fixture = await portalFixture(ctx.adminUrl, ctx.root, size, ctx.log);
  let service: ChildService | undefined;
  try {
    const port = await freePort();
    const env = withoutServiceSettings(ctx.env);
    Object.assign(env, {
      DATABASE_URL: fixture.bench.url,
      CONSIGNA_MASTER_KEY: fixture.masterKey,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      CONSIGNA_RATE_LIMIT_API: ctx.env.CONSIGNA_RATE_LIMIT_API ?? '0/60',
      // The sweeper would otherwise start erasing the personal data of the filled history's
      // final links (millions of updates) while the reads are measured.
      CONSIGNA_RETENTION_PERSONAL_DATA_DAYS: '3650',
      CONSIGNA_RETENTION_EVENTS_DAYS: '3650',
    });
    ctx.log('starting consigna api…');
    service = await startService({ label: 'consigna api (portal)', args: ['bin/consigna.js', 'api'], cwd: ctx.root, env, port });
    const api = createContext(service.url, 'postgres', fixture.channel);
    const headers = { authorization: `Bearer ${await api.accessToken()}` };

    const loop = (next: (i: number) => string, inFlight: number, read?: (body: string) => void) =>
      closedLoop({
        url: service!.url,
        headers,
        next,
        inFlight,
        warmup: ctx.warmup,
        duration: ctx.duration,
        ...(read ? { read } : {}),
      });
    const rows: SuiteRow[] = [];
    const measured: Record<string, Record<number, LoopResult>> = {};
    const baseline: Record<number, LoopResult> = {};
    for (const inFlight of IN_FLIGHT) {
      ctx.log(`baseline GET /v1/ping, ${inFlight} in flight…`);
      baseline[inFlight] = await loop(() => '/v1/ping', inFlight);
    }
    for (const variant of (await variants(fixture, size.days)).filter((v) => wanted.has(PARTS[v.part].id))) {
      const label = `${PARTS[variant.part].name}: ${variant.name}`;
      measured[label] = {};
      for (const inFlight of IN_FLIGHT) {
        ctx.log(`${label}, ${inFlight} in flight…`);
        measured[label][inFlight] = await loop(variant.next, inFlight, variant.read);
      }
      const [one, more] = IN_FLIGHT.map((n) => measured[label]![n]!);
      const failed = [one!, more!].find((r) => r.failures > 0);
      rows.push({
        part: PARTS[variant.part].id,
        name: label,
        figure: `p50 ${ms(one!.p50)} · p95 ${ms(one!.p95)} · p99 ${ms(one!.p99)} ms; ${IN_FLIGHT[1]} in flight: p99 ${ms(more!.p99)}`,
        baseline: `ping p50 ${ms(baseline[1]!.p50)} · p99 ${ms(baseline[1]!.p99)}; ${IN_FLIGHT[1]} in flight: p99 ${ms(baseline[IN_FLIGHT[1]]!.p99)}`,
        ratio: one!.p99 / baseline[1]!.p99,
        target: variant.informational ? 'reported' : PARTS[variant.part].target,
        verdicts: variant.informational
          ? {}
          : { [`p99 ≤ ${TARGET_MS}`]: one!.p99 <= TARGET_MS, [`${IN_FLIGHT[1]} in flight`]: more!.p99 <= TARGET_MS },
        ...(failed ? { error: `${failed.failures} failed: ${failed.firstFailure}` } : {}),
      });
    }
    let writes: WriteCost | undefined;
    if (wanted.has(PARTS.writes.id)) {
      ctx.log('writes with and without the funnel triggers…');
      writes = await measureWrites(fixture.bench.url, fixture.channel.canalId);
      for (const step of WRITE_STEPS) {
        const on = writes.with[step];
        const off = writes.without[step];
        rows.push({
          part: PARTS.writes.id,
          name: `${step} (one row, own transaction)`,
          figure: `triggers on: p50 ${ms(on.p50)} · p95 ${ms(on.p95)} ms`,
          baseline: `triggers off: p50 ${ms(off.p50)} · p95 ${ms(off.p95)} ms`,
          ratio: on.p50 / off.p50,
          target: PARTS.writes.target,
          verdicts: {},
        });
      }
    }
    return {
      title: `Portal reads with ${int(fixture.counts.channelLinks)} links of one channel beside ${int(fixture.counts.links - fixture.counts.channelLinks)} of ${size.otherChannels} others (PostgreSQL on this machine)`,
      rows,
      notes: notes(ctx, fixture, size, loadAtStart, writes),
      raw: { size, counts: fixture.counts, fill: fixture.fill, migrations: fixture.migrations, baseline, measured, writes },
    };
  } finally {
    await service?.stop();
    await fixture.close();
  }
}

function notes(ctx: SuiteContext, f: PortalFixture, size: PortalSize, loadAtStart: number[], writes: WriteCost | undefined) {
  const seconds = (v: number | null) => (v === null ? '–' : `${v.toFixed(1)} s`);
  const built = Object.entries(f.fill.indexSeconds).reduce((sum, [, s]) => sum + s, 0);
  return [
    `data: ${int(f.counts.links)} links (${int(f.counts.channelLinks)} the channel's) and ${int(f.counts.proposals)} proposals (${int(f.counts.channelProposals)}) over ${size.days} days, ` +
      `2,000 references (a few far more used), written in ${f.fill.rowsSeconds.toFixed(0)} s (generate_series${f.fill.foreignKeysChecked ? '' : ', no FK checks'}) + indexes ${built.toFixed(0)} s; VACUUM ANALYZE ${f.vacuumSeconds.toFixed(0)} s${f.checkpointed ? ', CHECKPOINT' : ''}.`,
    `migrations applied to the filled tables as start-up applies them (one transaction each); a read and a write of one link and a read of its proposal started 0.5 s in waited:`,
    ...f.migrations.map(
      (m) =>
        `  ${m.name}: ${m.seconds.toFixed(1)} s; link read ${seconds(m.linkReadWaitSeconds)}, link write ${seconds(m.linkWriteWaitSeconds)}, proposal read ${seconds(m.proposalReadWaitSeconds)}`,
    ),
    `requests: node bin/consigna.js api (child process), one access token, undici with ${IN_FLIGHT.join(' then ')} requests in flight (closed loop), ${ctx.warmup} s warm-up then ${ctx.duration} s each; p99 judged at 1 in flight and at ${IN_FLIGHT[1]}; ratio = p99 ÷ ping's p99 at 1.`,
    ...(writes
      ? [
          `writes: ${writes.rounds} rounds of ${writes.linksPerRound} links with the funnel triggers and ${writes.rounds} without, alternating, on the filled tables (one connection).`,
        ]
      : []),
    `load average at start: ${loadText(loadAtStart)}; at the end: ${loadText(os.loadavg())} (${os.cpus().length} CPUs).`,
  ];
}
