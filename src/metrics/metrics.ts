// Prometheus metrics (GET /metrics): the process's registry, the HTTP series and load
// shedding. Domains add their own series to the same registry (the delivery queue's are
// in webhooks/delivery/delivery-metrics.ts). Labels are route patterns and fixed values,
// never URLs, ids or tokens, so nothing secret can reach a scrape.
import { Counter, Histogram, Registry, Gauge, collectDefaultMetrics } from 'prom-client';
import type { Context } from '../context.ts';

export interface Metrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
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
  // What /readyz answers, for alerting (a scrape that fails altogether is Prometheus's own `up`).
  new Gauge({
    name: 'consigna_database_up',
    help: '1 when the database answers (what /readyz checks), 0 when it does not.',
    registers: [registry],
    async collect() {
      this.set((await ctx.database.ping()) ? 1 : 0);
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
  };
}
