// Building blocks of the noisy-neighbour benchmark (bench/noisy-neighbour.bench.ts):
// the service's processes in the two topologies, channel A's bad endpoint, the
// fixtures (links with a submitted proposal), A's backlog, a fixed-rate generator
// and percentiles that keep events that never arrived.
import path from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../../../src/db/database.ts';
import { uuidv7 } from '../../../src/crypto/random.ts';
import { proposalEvent } from '../../../src/events/event-body.ts';
import { recordEvent } from '../../../src/events/outbox.ts';
import { BenchError, freePort, sleep, startService, type ChildService } from '../process.ts';
import type { BenchContext, SuiteContext } from '../types.ts';

const LIB = import.meta.dirname;

/** Wall-clock milliseconds on the scale the receivers use (same machine, same realtime clock). */
export const wallNow = (): number => performance.timeOrigin + performance.now();

/** One event per call through the simulator (FORMALIZADA on a fresh proposal); resolves with the wall time of its answer. */
export function simulatorEvents(api: BenchContext, token: string): (link: string) => Promise<number> {
  return async (link) => {
    const answer = await api.http('POST', `/v1/links/${link}/proposta/simular`, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"status":"FORMALIZADA"}',
    });
    const answeredAt = wallNow();
    if (answer.status !== 200 || (answer.body as { alterado?: unknown }).alterado !== true) {
      throw new BenchError(`simulator answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answeredAt;
  };
}

// ---------------------------------------------------------------------------------
// Receivers

/** Channel B's receiver: bench/lib/webhooks/receiver.ts, the one of the webhook table (204 at once). */
export async function startGoodReceiver(ctx: SuiteContext): Promise<ChildService> {
  const port = await freePort();
  ctx.log('starting the receiver of channel B…');
  return startService({
    label: 'webhook receiver (channel B)',
    args: [path.join(LIB, 'receiver.ts')],
    cwd: ctx.root,
    env: { ...ctx.env, PORT: String(port), HOST: '127.0.0.1' },
    port,
  });
}

export type BadMode = 'hang' | 'slow' | '503';

/** Channel A's endpoint (bad-receiver.ts) on a port chosen beforehand (it is in A's webhook URL). */
export function startBadReceiver(ctx: SuiteContext, mode: BadMode, port: number, slowMs: number): Promise<ChildService> {
  return startService({
    label: `bad receiver (channel A, ${mode})`,
    args: [path.join(LIB, 'bad-receiver.ts')],
    cwd: ctx.root,
    env: { ...ctx.env, PORT: String(port), HOST: '127.0.0.1', MODE: mode, SLOW_MS: String(slowMs) },
    port,
  });
}

export interface BadCount {
  mode: BadMode;
  /** Requests received since the last reset. */
  requests: number;
  /** Requests not answered (or not given up by the sender) right now. */
  open: number;
  peakOpen: number;
  connections: number;
  first: number | null;
  last: number | null;
}

async function badCall<T>(base: string, method: 'GET' | 'POST', pathname: string): Promise<T> {
  const response = await fetch(`${base}${pathname}`, { method, signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new BenchError(`bad receiver ${method} ${pathname} answered ${response.status}`);
  return (await response.json()) as T;
}
export const badCount = (base: string): Promise<BadCount> => badCall(base, 'GET', '/__count');
export const resetBad = (base: string): Promise<unknown> => badCall(base, 'POST', '/__reset');

/** Waits until A's endpoint has seen a request (the workers are busy with the backlog); ms waited, or undefined. */
export async function waitForBadRequest(base: string, timeoutMs: number): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if ((await badCount(base)).requests > 0) return performance.now() - started;
    await sleep(20);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------
// The service's processes

export type TopologyId = 'one-worker' | 'two-workers';

export interface Deployment {
  /** Where the API answers (serve or api). */
  apiUrl: string;
  processes: ChildService[];
  /** Stops every process (SIGTERM, SIGKILL after the grace). */
  stop(): Promise<void>;
}

/**
 * one-worker: `consigna serve` (API, delivery worker and sweeper in one process, as
 * deployed by default). two-workers: `consigna api` and two `consigna worker` on the
 * same database (the scaled-out topology of the README).
 */
export async function startDeployment(ctx: SuiteContext, topology: TopologyId, env: NodeJS.ProcessEnv): Promise<Deployment> {
  const port = await freePort();
  const apiEnv = { ...env, PORT: String(port), HOST: '127.0.0.1' };
  const starts: Array<Promise<ChildService>> = [];
  if (topology === 'one-worker') {
    starts.push(startService({ label: 'consigna serve', args: ['bin/consigna.js', 'serve'], cwd: ctx.root, env: apiEnv, port }));
  } else {
    starts.push(startService({ label: 'consigna api', args: ['bin/consigna.js', 'api'], cwd: ctx.root, env: apiEnv, port }));
    for (const n of [1, 2]) {
      starts.push(
        startService({
          label: `consigna worker ${n}`,
          args: ['bin/consigna.js', 'worker'],
          cwd: ctx.root,
          env: { ...env, HOST: '127.0.0.1' },
          port: 0,
          readyLine: 'Consigna worker running (postgres).',
        }),
      );
    }
  }
  // Started side by side (migrations run under an advisory lock); if one fails, the others stop.
  const settled = await Promise.allSettled(starts);
  const processes = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
  };
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { apiUrl: processes[0]!.url, processes, stop };
}

// ---------------------------------------------------------------------------------
// Fixtures and A's backlog

/**
 * Links with a submitted proposal (AGUARDANDO_FORMALIZACAO), as the hosted journey
 * leaves them; the same fixtures as the webhook-latency case (inserted by SQL).
 */
export async function insertProposals(database: Database, channelId: string, count: number, tag: string): Promise<string[]> {
  const ids = Array.from({ length: count }, () => uuidv7());
  if (count === 0) return ids;
  const now = new Date();
  await sql`
    insert into links (id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, referencia_externa,
                       status, expira_em, criado_em, updated_at)
    select id, ${channelId}, 'SANDBOX', decode(md5(id::text), 'hex'), '\\x00'::bytea, decode(md5(${tag} || n), 'hex'),
           '***.456.789-**', ${tag} || '-' || n, 'CONCLUIDO', ${now}::timestamptz + interval '7 days', ${now}, ${now}
    from unnest(${ids}::uuid[]) with ordinality as t(id, n)
  `.execute(database.db);
  await sql`
    insert into proposals (link_id, channel_id, status, valor_centavos, parcelas, valor_parcela_centavos, criada_em, updated_at)
    select id, ${channelId}, 'AGUARDANDO_FORMALIZACAO', 1500000, 24, 78912, ${now}, ${now}
    from unnest(${ids}::uuid[]) as t(id)
  `.execute(database.db);
  return ids;
}

/**
 * One `proposta.formalizada` event per link, written by the outbox's own
 * `recordEvent` (event row, PENDENTE delivery for the channel's webhook, NOTIFY) in
 * one transaction: the whole backlog becomes due at its commit.
 */
export async function queueBacklog(database: Database, channelId: string, links: string[]): Promise<void> {
  const at = new Date();
  await database.db.transaction().execute(async (tx) => {
    for (const [i, link] of links.entries()) {
      await recordEvent(
        tx,
        channelId,
        proposalEvent({
          tipo: 'proposta.formalizada',
          at,
          ambiente: 'SANDBOX',
          link: { id: link, referenciaExterna: `noisy-a-${i + 1}` },
          proposta: { numero: 100_000 + i, status: 'FORMALIZADA', valor: 1_500_000, parcelas: 24, valorParcela: 78_912 },
        }),
      );
    }
  });
}

// ---------------------------------------------------------------------------------
// A steady rate, open loop: call i is due at start + i / rate whatever happened to
// the earlier ones.

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Percentiles over every value; Infinity (never arrived) sorts last and stays Infinity. */
export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => (a === b ? 0 : a - b));
  const at = (p: number) =>
    sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { count: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1] ?? Number.NaN };
}

export interface PacedRun {
  /** How late calls were started (ms): the generator's own lag. */
  lag: Percentiles;
  /** Duration of each successful call (ms). */
  duration: Percentiles;
  errors: number;
  firstError: string | undefined;
  /** Wall-clock time the last call was started. */
  lastStartedAt: number;
}

export async function paced(rate: number, total: number, fire: (i: number) => Promise<void>): Promise<PacedRun> {
  const lags: number[] = [];
  const durations: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let lastStartedAt = wallNow();
  const inFlight = new Set<Promise<void>>();
  const start = performance.now() + 20;
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const began = performance.now();
    lastStartedAt = wallNow();
    lags.push(began - due);
    const p = fire(i).then(
      () => {
        durations.push(performance.now() - began);
      },
      (error: unknown) => {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      },
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }
  await Promise.all(inFlight);
  return { lag: percentiles(lags), duration: percentiles(durations), errors, firstError, lastStartedAt };
}
