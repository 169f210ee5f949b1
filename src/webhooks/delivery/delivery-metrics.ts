// The delivery queue's metrics, on the process's registry (metrics/metrics.ts). The
// gauges read the queue at scrape time, so every process (API or worker) shows the
// same shared state; the attempt counters count this process's own attempts.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import type { DB } from '../../db/database.ts';
import { liveLeases } from './sql/live-leases.ts';
import type { AttemptResult, ClaimedDelivery } from './types.ts';
import type { PoolSnapshot } from './attempt-pool.ts';

export interface DeliveryMetrics {
  observeAttempt(claimed: ClaimedDelivery, result: AttemptResult): void;
  /** Where the slot gauges read this process's worker (without one they read 0). */
  watchPool(probe: () => PoolSnapshot): void;
}

const byRegistry = new WeakMap<Registry, DeliveryMetrics>();

/** The delivery series on this registry, added once. */
export function deliveryMetricsFor(ctx: Pick<Context, 'database' | 'clock' | 'config'>, registry: Registry): DeliveryMetrics {
  let metrics = byRegistry.get(registry);
  if (!metrics) {
    metrics = createDeliveryMetrics(ctx, registry);
    byRegistry.set(registry, metrics);
  }
  return metrics;
}

/** A scrape-time reading shared by the gauges that need it, at most one query a second. */
function everySecond<T>(read: () => Promise<T>): () => Promise<T> {
  let cached: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at >= 1000) cached = { at: now, value: read() };
    return cached.value;
  };
}

function createDeliveryMetrics(ctx: Pick<Context, 'database' | 'clock' | 'config'>, registry: Registry): DeliveryMetrics {
  const queueState = everySecond(() => {
    const at = ctx.clock.now();
    return sql<{ depth: number; oldest: Date | null }>`
      select count(*)::int as depth, min(next_attempt_at) filter (where next_attempt_at <= ${at}) as oldest
      from deliveries where status = 'PENDENTE'
    `
      .execute(ctx.database.db)
      .then(({ rows }) => ({
        depth: rows[0]?.depth ?? 0,
        oldestDueAge: rows[0]?.oldest ? Math.max(0, (at.getTime() - rows[0].oldest.getTime()) / 1000) : 0,
      }))
      .catch(() => ({ depth: -1, oldestDueAge: -1 }));
  });
  const fairnessState = everySecond(() =>
    heldBack(ctx.database.db, ctx.clock.now(), ctx.config.worker.maxInFlightPerChannel, ctx.config.worker.leaseSeconds).catch(
      () => ({ contained: -1, heldContained: -1, heldByCap: -1 }),
    ),
  );

  const attempts = new Counter({
    name: 'consigna_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome (ENTREGUE, PENDENTE = will retry, FALHOU = gave up).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const attemptLatency = new Histogram({
    name: 'consigna_webhook_attempt_duration_seconds',
    help: 'Time of one delivery attempt (request to the channel and its answer).',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const eventToDelivery = new Histogram({
    name: 'consigna_webhook_event_to_delivery_seconds',
    help: 'From the event (state change commit) to a successful delivery.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5, 60, 600, 3600, 86_400],
    registers: [registry],
  });
  new Gauge({
    name: 'consigna_webhook_queue_depth',
    help: 'Pending deliveries (all workers).',
    registers: [registry],
    async collect() {
      this.set((await queueState()).depth);
    },
  });
  new Gauge({
    name: 'consigna_webhook_oldest_due_age_seconds',
    help: 'Age of the oldest delivery that is due and not yet sent (0 when none).',
    registers: [registry],
    async collect() {
      this.set((await queueState()).oldestDueAge);
    },
  });
  // Fairness between channels: no channel id as a label (the count is what alerts need;
  // the worker's log lines name the channels).
  new Gauge({
    name: 'consigna_webhook_channels_contained',
    help: 'Channels whose endpoint failed repeatedly: one probing attempt at a time until one succeeds (all workers).',
    registers: [registry],
    async collect() {
      this.set((await fairnessState()).contained);
    },
  });
  new Gauge({
    name: 'consigna_webhook_deliveries_held_back',
    help:
      'Due deliveries not attempted because of the fairness rules (all workers), by reason: ' +
      'contido = their channel is contained; limite = their channel already has its cap of deliveries claimed.',
    labelNames: ['motivo'],
    registers: [registry],
    async collect() {
      const state = await fairnessState();
      this.set({ motivo: 'contido' }, state.heldContained);
      this.set({ motivo: 'limite' }, state.heldByCap);
    },
  });

  // This process's worker: its slots, and the requests past the slow threshold (attempt-pool.ts).
  let poolProbe: (() => PoolSnapshot) | undefined;
  const poolGauge = (name: string, help: string, read: (pool: PoolSnapshot) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(poolProbe ? read(poolProbe()) : 0);
      },
    });
  poolGauge(
    'consigna_webhook_slots_in_use',
    "Worker slots held by requests answering now (this process's worker).",
    (p) => p.busy,
  );
  poolGauge('consigna_webhook_slots_slow', "Of those, held by slow channels' requests.", (p) => p.slowBusy);
  poolGauge(
    'consigna_webhook_requests_slow',
    'Requests past CONSIGNA_WORKER_SLOW_AFTER_MS: still open, holding a socket and no slot.',
    (p) => p.slowHeld,
  );
  poolGauge(
    'consigna_webhook_requests_slow_oldest_seconds',
    'How long the oldest slow request has been open.',
    (p) => p.oldestSlowMs / 1000,
  );
  poolGauge(
    'consigna_webhook_channels_slow',
    'Channels with a request past the slow threshold and no answer in time since.',
    (p) => p.slowChannels,
  );

  // The label children are made once: prom-client would otherwise make a closure per observation.
  const attemptsBy = {
    ENTREGUE: attempts.labels({ outcome: 'ENTREGUE' }),
    PENDENTE: attempts.labels({ outcome: 'PENDENTE' }),
    FALHOU: attempts.labels({ outcome: 'FALHOU' }),
  };
  const attemptSeconds = attemptLatency.labels({});
  const deliveredSeconds = eventToDelivery.labels({});
  return {
    watchPool(probe) {
      poolProbe = probe;
    },
    observeAttempt(claimed, result) {
      attemptsBy[result.status].inc();
      attemptSeconds.observe(result.latencyMs / 1000);
      if (result.status === 'ENTREGUE') deliveredSeconds.observe(Math.max(0, (result.at.getTime() - claimed.eventAt) / 1000));
    },
  };
}

/**
 * Read from the queue (the same on every process): channels contained now, and due
 * deliveries not attempted because of the fairness rules, by reason: `contido` (their
 * channel is contained: one probe at a time) and `limite` (their channel already has
 * `cap` or more deliveries claimed, so the workers take no more of it for now: during a
 * burst, the cap is what keeps the rest waiting).
 */
export async function heldBack(
  db: DB,
  now: Date,
  cap: number,
  leaseSeconds: number,
): Promise<{ contained: number; heldContained: number; heldByCap: number }> {
  const { rows } = await sql<{ contained: number; heldContained: number; heldByCap: number }>`
    with contained as (
      select h.channel_id from delivery_channels h join webhooks w on w.channel_id = h.channel_id
      where h.contained_since is not null
    ),
    at_cap as (
      -- Rows under a live lease: due within the next lease (see claimDue), per channel.
      select w.channel_id from webhooks w
      where ${liveLeases(sql`w.channel_id`, now, leaseSeconds)} >= ${cap}::int
    ),
    waiting as (
      select d.channel_id, count(*)::int as n from deliveries d
      where d.status = 'PENDENTE' and d.next_attempt_at <= ${now}
        and d.channel_id in (select channel_id from contained union select channel_id from at_cap)
      group by d.channel_id
    )
    select (select count(*)::int from contained) as contained,
      coalesce((select sum(n)::int from waiting where channel_id in (select channel_id from contained)), 0) as "heldContained",
      coalesce((select sum(n)::int from waiting where channel_id not in (select channel_id from contained)), 0) as "heldByCap"
  `.execute(db);
  return rows[0] ?? { contained: 0, heldContained: 0, heldByCap: 0 };
}
