// What the stages hand on: a claimed delivery (claim → dispatch) and what its attempt
// led to (dispatch → record).
import type { Context } from '../../context.ts';
import type { DB } from '../../db/database.ts';
import type { Logger } from '../../observability/logger.ts';

export interface ClaimedDelivery {
  id: string;
  leaseId: string;
  channelId: string;
  attempt: number;
  eventId: string;
  tipo: string;
  payload: string;
  url: string;
  /** Sealed secrets as hex text: the worker's cache of opened secrets is keyed by it. */
  secretSealed: string;
  previousSecretSealed: string | null;
  previousValidUntil: Date | null;
  /** When the event happened (epoch ms): event-to-delivery latency is measured from it. */
  eventAt: number;
  /** The traceparent of the change that recorded the event (tracing on): the attempt continues it. */
  traceContext: string | null;
  /** The channel's sandbox retry interval (retry-policy.ts, retryDelays); null: the standard schedule. */
  retryIntervalSeconds: number | null;
}

export interface AttemptResult {
  id: string;
  leaseId: string;
  channelId: string;
  status: 'ENTREGUE' | 'PENDENTE' | 'FALHOU';
  nextAttemptAt: Date | null;
  httpStatus: number | null;
  error: string | null;
  latencyMs: number;
  at: Date;
  /** The start of the endpoint's answer (outbound.ts, RESPONSE_BODY_KEPT), kept with the attempt. */
  responseBody: string | null;
  responseTruncated: boolean;
}

/** What every stage is given: the database, the clock, the configuration and the worker's log. */
export type StageDeps = Pick<Context, 'clock' | 'config'> & { db: DB; log: Logger };
