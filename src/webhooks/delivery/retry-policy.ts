// What an attempt leads to: delivered, the next retry of the schedule
// (CONSIGNA_RETRY_DELAYS, or the channel's own interval in the sandbox), or failed for
// good after MAX_ATTEMPTS (docs/rules.md §5).
import { addSeconds } from '../../clock.ts';
import type { AttemptResult, ClaimedDelivery } from './types.ts';

export const MAX_ATTEMPTS = 7;

/** The endpoint's answer, as the deliverer reports it (outbound.ts). */
export interface SendAnswer {
  ok: boolean;
  status?: number;
  latencyMs: number;
  error?: string;
  body?: string;
  bodyTruncated?: boolean;
}

/**
 * The delays between a channel's attempts: the standard schedule, or, when the channel
 * asked for fast retries (sandbox, POST /v1/webhooks/retentativas/simular), its interval
 * before every retry, so that all MAX_ATTEMPTS happen within a minute or so.
 */
export function retryDelays(retryIntervalSeconds: number | null, standard: readonly number[]): readonly number[] {
  return retryIntervalSeconds === null ? standard : Array.from({ length: MAX_ATTEMPTS - 1 }, () => retryIntervalSeconds);
}

/** What an attempt leads to: delivered, the next retry of the channel's schedule, or failed for good. */
export function outcome(
  claimed: Pick<ClaimedDelivery, 'id' | 'leaseId' | 'attempt' | 'channelId' | 'retryIntervalSeconds'>,
  result: SendAnswer,
  at: Date,
  retryDelaysSeconds: readonly number[],
): AttemptResult {
  const base = {
    id: claimed.id,
    leaseId: claimed.leaseId,
    channelId: claimed.channelId,
    httpStatus: result.status ?? null,
    latencyMs: result.latencyMs,
    at,
    responseBody: result.body ?? null,
    responseTruncated: result.bodyTruncated ?? false,
  };
  if (result.ok) return { ...base, status: 'ENTREGUE', nextAttemptAt: null, error: null };
  const error = (result.error ?? 'falha').slice(0, 500);
  if (claimed.attempt >= MAX_ATTEMPTS) return { ...base, status: 'FALHOU', nextAttemptAt: null, error };
  // Attempt n waits the n-th delay; past the list, its last one.
  const delays = retryDelays(claimed.retryIntervalSeconds, retryDelaysSeconds);
  const delay = delays[claimed.attempt - 1] ?? delays[delays.length - 1]!;
  return { ...base, status: 'PENDENTE', nextAttemptAt: addSeconds(at, delay), error };
}
