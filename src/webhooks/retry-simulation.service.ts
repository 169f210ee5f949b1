// POST /v1/webhooks/retentativas/simular (sandbox only, docs/rules.md §6): fast retries
// for one channel, so that its failure handling (FALHOU, bulk recovery) can be tested
// in a minute instead of the standard schedule's day and more. Stored on the webhook
// row: the worker's claim reads it with the row it already joins (retry-policy.ts).
import type { Context } from '../context.ts';
import { notFound } from '../errors.ts';
import { retryDelays } from './delivery/retry-policy.ts';
import { setRetryInterval } from './webhooks.repository.ts';
import { noWebhook } from './webhooks.service.ts';

type Deps = Pick<Context, 'database' | 'config'>;

export interface RetrySimulation {
  /** The delays before each retry now in force for the channel, in seconds. */
  intervalosSegundos: number[];
}

/** Sets (or, with null, removes) the channel's retry interval; answers the delays in force. */
export async function simulateRetries(deps: Deps, channelId: string, intervaloSegundos: number | null): Promise<RetrySimulation> {
  if (deps.config.ambiente !== 'SANDBOX') throw notFound('Recurso não encontrado.');
  const updated = await setRetryInterval(deps.database.db, channelId, intervaloSegundos);
  if (!updated) throw noWebhook();
  return { intervalosSegundos: [...retryDelays(intervaloSegundos, deps.config.retryDelaysSeconds)] };
}
