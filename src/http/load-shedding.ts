// Bounded work for the routes anyone with an inbox token can call (docs/rules.md §8.8):
// the sandbox inbox, its stream and its viewer, marked `expensive`.
// - They take turns: at most `heavyConcurrency` such requests run at once in a process,
//   a bounded queue waits, and past it the answer is 503 servico_sobrecarregado with
//   Retry-After. Their statements then never fill the database's queue (on the embedded
//   database, one connection that every channel's requests share).
// - They are shed first: @fastify/under-pressure samples the event-loop delay and the
//   heap, and while either is past its limit these routes answer the same 503, while
//   health, the token endpoint, the channel API and the customer's journey go on.
// What is shed is counted (consigna_http_shed_total) and alerted on (ops/alerts).
import v8 from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Context } from '../context.ts';
import { overloaded } from '../errors.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { ErrorBody, RETRY_AFTER_HEADER } from './schemas.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Work anyone with an inbox token can ask for (load-shedding.ts): shed first under
     * pressure; a 'request' also takes its turn with the others, a 'stream' (long-lived,
     * capped on its own) does not.
     */
    expensive?: 'request' | 'stream';
  }
}

/** At most `concurrency` holders at once; up to `queue` more wait their turn, in order. */
export class Turns {
  readonly #concurrency: number;
  readonly #queue: number;
  readonly #waiting: Array<() => void> = [];
  #active = 0;

  constructor(concurrency: number, queue: number) {
    this.#concurrency = concurrency;
    this.#queue = queue;
  }

  /** Resolves when it is the caller's turn (then call `leave` once); false when the queue is full. */
  enter(): Promise<boolean> {
    if (this.#active < this.#concurrency) {
      this.#active += 1;
      return Promise.resolve(true);
    }
    if (this.#waiting.length >= this.#queue) return Promise.resolve(false);
    return new Promise((resolve) => this.#waiting.push(() => resolve(true)));
  }

  leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active -= 1;
  }
}

/** Seconds a shed client is asked to wait. */
export const SHED_RETRY_AFTER_SECONDS = 2;
/** Expensive requests that may wait for their turn: each holds at most its 64 KB body meanwhile (16 MB in all). */
const WAITING = 256;
/**
 * The window of each sample of the event-loop delay (its mean) and the heap. A second:
 * one long task (a cold path compiled on first use) is diluted among the window's other
 * delays, while a loop that stays blocked for most of it passes the limit.
 */
const SAMPLE_MS = 1000;

/** Adds the plugin and the turns to the server (they load with it, as every plugin does). */
export function registerLoadShedding(app: FastifyInstance, ctx: Pick<Context, 'config'>, metrics: Metrics): void {
  const { shedEventLoopDelayMs, shedHeapRatio, heavyConcurrency } = ctx.config.limits;
  const turns = new Turns(heavyConcurrency, WAITING);
  void app.register(underPressure, {
    sampleInterval: SAMPLE_MS,
    maxEventLoopDelay: shedEventLoopDelayMs,
    maxHeapUsedBytes: Math.floor(v8.getHeapStatistics().heap_size_limit * shedHeapRatio),
    // Called instead of answering 503 for every route: only the marked ones are shed.
    pressureHandler: (request: FastifyRequest, _reply, type: string) => {
      if (!request.routeOptions.config.expensive) return undefined;
      metrics.observeShed(request.routeOptions.url ?? 'not-found', type);
      // A rejection becomes the request's error, answered by the one error handler.
      return Promise.reject(overloaded(SHED_RETRY_AFTER_SECONDS));
    },
  });
  // Each expensive request waits its turn once its body has arrived (a slow upload holds
  // no turn), and gives it back when its answer is done or its client is gone.
  const takeTurn: preHandlerAsyncHookHandler = async (request, reply) => {
    if (!(await turns.enter())) {
      metrics.observeShed(request.routeOptions.url ?? 'not-found', 'concorrencia');
      throw overloaded(SHED_RETRY_AFTER_SECONDS);
    }
    reply.raw.once('close', () => turns.leave());
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.expensive !== 'request') return;
    const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [takeTurn, ...own];
  });
  // Documented on every expensive route that does not already describe its 503s.
  app.addHook('onRoute', (route) => {
    if (!route.config?.expensive || !route.schema?.response) return;
    const responses = { ...(route.schema.response as Record<string, unknown>) };
    responses[503] ??= ErrorBody(
      ['servico_sobrecarregado', 'db_unavailable'],
      'Serviço sobrecarregado (ou banco indisponível) no momento; repita depois de `Retry-After`.',
      RETRY_AFTER_HEADER,
    );
    route.schema = { ...route.schema, response: responses };
  });
  // isUnderPressure exists once the plugin has loaded.
  metrics.watchPressure(() => app.hasDecorator('isUnderPressure') && app.isUnderPressure());
}
