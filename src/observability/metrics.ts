// Prometheus metrics (GET /metrics). Labels are route patterns and fixed values,
// never URLs, ids or tokens, so nothing secret can reach a scrape.
import { Counter, Histogram, Registry, Gauge, collectDefaultMetrics } from 'prom-client';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { heldBack, type AttemptResult, type ClaimedDelivery } from '../webhooks/delivery/attempts.ts';

export interface Metrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  observeAttempt(claimed: ClaimedDelivery, result: AttemptResult): void;
  /** A request answered 503 because the process was past a shared budget (load shedding). */
  observeShed(route: string, reason: string): void;
  /** Where the load-shedding gauge reads whether the process is under pressure now. */
  watchPressure(probe: () => boolean): void;
}

const metricsByRegistry = new WeakMap<Context['database'], Metrics>();

/** One set of metrics per process (per open database, in tests). */
export function metricsFor(ctx: Pick<Context, 'database' | 'clock' | 'config'>): Metrics {
  let metrics = metricsByRegistry.get(ctx.database);
  if (!metrics) {
    metrics = createMetrics(ctx);
    metricsByRegistry.set(ctx.database, metrics);
  }
  return metrics;
}

function createMetrics(ctx: Pick<Context, 'database' | 'clock' | 'config'>): Metrics {
  const registry = new Registry();
  let cached: { at: number; value: Promise<{ depth: number; oldestDueAge: number }> } | undefined;
  // One query per scrape, shared by both queue gauges.
  const queueState = (): Promise<{ depth: number; oldestDueAge: number }> => {
    const now = Date.now();
    if (cached && now - cached.at < 1000) return cached.value;
    const at = ctx.clock.now();
    const value = sql<{ depth: number; oldest: Date | null }>`
      select count(*)::int as depth, min(next_attempt_at) filter (where next_attempt_at <= ${at}) as oldest
      from deliveries where status = 'PENDENTE'
    `
      .execute(ctx.database.db)
      .then(({ rows }) => ({
        depth: rows[0]?.depth ?? 0,
        oldestDueAge: rows[0]?.oldest ? Math.max(0, (at.getTime() - rows[0].oldest.getTime()) / 1000) : 0,
      }))
      .catch(() => ({ depth: -1, oldestDueAge: -1 }));
    cached = { at: now, value };
    return value;
  };
  type Fairness = Awaited<ReturnType<typeof heldBack>>;
  let fairness: { at: number; value: Promise<Fairness> } | undefined;
  const fairnessState = (): Promise<Fairness> => {
    const now = Date.now();
    if (fairness && now - fairness.at < 1000) return fairness.value;
    const value = heldBack(
      ctx.database.db,
      ctx.clock.now(),
      ctx.config.worker.maxInFlightPerChannel,
      ctx.config.worker.leaseSeconds,
    ).catch(() => ({
      contained: -1,
      heldContained: -1,
      heldByCap: -1,
    }));
    fairness = { at: now, value };
    return value;
  };
  collectDefaultMetrics({ register: registry, prefix: 'consigna_' });

  const requests = new Counter({
    name: 'consigna_http_requests_total',
    help: 'HTTP requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'consigna_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
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
  // Read from the database at scrape time: the queue is shared by every worker.
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

  // What /readyz answers, for alerting (a scrape that fails altogether is Prometheus's own `up`).
  new Gauge({
    name: 'consigna_database_up',
    help: '1 when the database answers (what /readyz checks), 0 when it does not.',
    registers: [registry],
    async collect() {
      this.set((await ctx.database.ping()) ? 1 : 0);
    },
  });

  // Fairness between channels (no channel id as a label: the count is what alerts need;
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

  const shed = new Counter({
    name: 'consigna_http_shed_total',
    help:
      'Requests answered 503 servico_sobrecarregado to protect the process, by route pattern and reason ' +
      '(eventLoopDelay, heapUsedBytes, streams).',
    labelNames: ['route', 'motivo'],
    registers: [registry],
  });
  let pressureProbe: (() => boolean) | undefined;
  new Gauge({
    name: 'consigna_under_pressure',
    help: '1 while the process is past its event-loop delay or heap limit and sheds the expensive routes.',
    registers: [registry],
    collect() {
      this.set(pressureProbe?.() ? 1 : 0);
    },
  });

  // Every attempt counts here: the children are made once, as for the requests below
  // (prom-client would otherwise make a closure per observation).
  const attemptsBy = {
    ENTREGUE: attempts.labels({ outcome: 'ENTREGUE' }),
    PENDENTE: attempts.labels({ outcome: 'PENDENTE' }),
    FALHOU: attempts.labels({ outcome: 'FALHOU' }),
  };
  const attemptSeconds = attemptLatency.labels({});
  const deliveredSeconds = eventToDelivery.labels({});

  const requestSeries = new Map<string, { count: { inc(): void }; latency: { observe(value: number): void } }>();

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      // The label children are kept: prom-client would otherwise hash the labels
      // twice per request. Routes are patterns, so the set stays small.
      const id = `${method} ${route} ${status}`;
      let series = requestSeries.get(id);
      if (!series) {
        const labels = { method, route, status: String(status) };
        series = { count: requests.labels(labels), latency: latency.labels(labels) };
        requestSeries.set(id, series);
      }
      series.count.inc();
      series.latency.observe(seconds);
    },
    observeShed(route, reason) {
      shed.inc({ route, motivo: reason });
    },
    watchPressure(probe) {
      pressureProbe = probe;
    },
    observeAttempt(claimed, result) {
      attemptsBy[result.status].inc();
      attemptSeconds.observe(result.latencyMs / 1000);
      if (result.status === 'ENTREGUE') deliveredSeconds.observe(Math.max(0, (result.at.getTime() - claimed.eventAt) / 1000));
    },
  };
}
