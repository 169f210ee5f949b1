// Delivery history, manual resend and the test event (docs/rules.md §5).
import type { Context } from '../context.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { addSeconds } from '../clock.ts';
import { isUuid, uuidv7 } from '../crypto/random.ts';
import type { DeliveryStatus } from '../db/tables.ts';
import { testEvent } from '../events/event-body.ts';
import { requireWebhook } from './webhooks.service.ts';
import { signingSecrets } from './signature.ts';
import type { Deliverer } from './delivery/deliverer.ts';
import { outcome } from './delivery/retry-policy.ts';
import { recordResults } from './delivery/sql/record-results.ts';
import { notify } from '../db/database.ts';
import { DELIVERIES_CHANNEL } from '../events/outbox.ts';
import {
  claimForResend,
  countFailed,
  findDeliveryRow,
  listAttemptRows,
  listDeliveryRows,
  requeueFailed,
  type AttemptRow,
  type DeliveryFilter,
  type DeliveryRow,
} from './deliveries.repository.ts';
import { decodeCursor, encodeCursor, period } from '../events/event-cursor.ts';

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config'> & { deliverer: Deliverer };

export const DELIVERY_STATUSES = ['PENDENTE', 'FALHOU', 'ENTREGUE'] as const satisfies readonly DeliveryStatus[];

export interface DeliveryResource {
  id: string;
  eventoId: string;
  tipo: string;
  status: string;
  /** The current series' attempts: restarts at a resend or a recovery (the contract's meaning). */
  tentativas: number;
  /** Every attempt of the delivery, across resends: the earlier series' and the current one's. */
  tentativasTotais: number;
  proximaTentativaEm?: string;
  ultimoHttpStatus?: number;
  ultimoErro?: string;
  ultimaLatenciaMs?: number;
  ultimaTentativaEm?: string;
  entregueEm?: string;
  criadoEm: string;
}

export function toDeliveryResource(row: DeliveryRow): DeliveryResource {
  return {
    id: row.id,
    eventoId: row.event_id,
    tipo: row.tipo,
    status: row.status,
    tentativas: row.tentativas,
    tentativasTotais: row.earlier_attempts + row.tentativas,
    ...(row.status === 'PENDENTE' && row.next_attempt_at ? { proximaTentativaEm: row.next_attempt_at.toISOString() } : {}),
    ...(row.last_http_status !== null ? { ultimoHttpStatus: row.last_http_status } : {}),
    ...(row.last_error !== null ? { ultimoErro: row.last_error } : {}),
    ...(row.last_latency_ms !== null ? { ultimaLatenciaMs: row.last_latency_ms } : {}),
    ...(row.last_attempt_at ? { ultimaTentativaEm: row.last_attempt_at.toISOString() } : {}),
    ...(row.entregue_em ? { entregueEm: row.entregue_em.toISOString() } : {}),
    criadoEm: row.criado_em.toISOString(),
  };
}

export interface AttemptResource {
  /** Its number in its series: the X-Service-Delivery-Attempt it carried. */
  numero: number;
  /** Its number in the delivery's whole history, across resends. */
  ordem: number;
  /** Its series: 0 the original one, n after the n-th resend or recovery. */
  reenvio: number;
  tentadaEm: string;
  httpStatus?: number;
  latenciaMs: number;
  erro?: string;
  corpoResposta?: string;
  corpoRespostaTruncado: boolean;
}

/** Attempts shown per delivery: the most recent ones (resends can add any number). */
export const ATTEMPTS_SHOWN = 100;

export function toAttemptResource(row: AttemptRow): AttemptResource {
  return {
    numero: row.attempt,
    ordem: row.earlier_attempts + row.attempt,
    reenvio: row.resend,
    tentadaEm: row.attempted_at.toISOString(),
    ...(row.http_status !== null ? { httpStatus: row.http_status } : {}),
    latenciaMs: row.latency_ms,
    ...(row.error !== null ? { erro: row.error } : {}),
    ...(row.response_body !== null ? { corpoResposta: row.response_body } : {}),
    corpoRespostaTruncado: row.response_truncated,
  };
}

/** GET /v1/webhooks/entregas/{id}: the delivery and its attempts, oldest first. */
export async function getDelivery(
  deps: Pick<Context, 'database'>,
  channelId: string,
  id: string,
): Promise<DeliveryResource & { historico: AttemptResource[] }> {
  await requireWebhook(deps, channelId);
  const row = isUuid(id) ? await findDeliveryRow(deps.database.db, channelId, id.toLowerCase()) : undefined;
  if (!row) throw notFound('Entrega não encontrada.');
  const attempts = await listAttemptRows(deps.database.db, channelId, row.id, ATTEMPTS_SHOWN);
  return { ...toDeliveryResource(row), historico: attempts.map(toAttemptResource) };
}

export interface DeliveryQuery {
  status?: DeliveryStatus;
  limite?: number;
  cursor?: string;
  tipo?: string;
  eventoId?: string;
  linkId?: string;
  desde?: string;
  ate?: string;
}

/** GET /v1/webhooks/entregas: newest first, filtered, by cursor (the same kind as GET /v1/eventos's). */
export async function listDeliveries(
  deps: Pick<Context, 'database'>,
  channelId: string,
  query: DeliveryQuery,
): Promise<{ entregas: DeliveryResource[]; proximoCursor?: string }> {
  const before = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
  const { desde, ate } = period(query);
  await requireWebhook(deps, channelId);
  const filter: DeliveryFilter = {
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(query.tipo !== undefined ? { tipo: query.tipo } : {}),
    ...(query.eventoId !== undefined ? { eventoId: query.eventoId.toLowerCase() } : {}),
    ...(query.linkId !== undefined ? { linkId: query.linkId.toLowerCase() } : {}),
    ...(desde ? { desde } : {}),
    ...(ate ? { ate } : {}),
  };
  const limit = query.limite ?? 20;
  const rows = await listDeliveryRows(deps.database.db, channelId, filter, before, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entregas: page.map(toDeliveryResource),
    ...(rows.length > limit && last ? { proximoCursor: encodeCursor({ xid: last.xid, id: last.event_id }) } : {}),
  };
}

/** FALHOU or ENTREGUE → attempts reset, sent at once; answers with the record after that attempt. */
export async function resendDelivery(deps: Deps, channelId: string, id: string): Promise<DeliveryResource> {
  await requireWebhook(deps, channelId);
  if (!isUuid(id)) throw notFound('Entrega não encontrada.');
  const now = deps.clock.now();
  const leaseId = uuidv7(now.getTime());
  const claimed = await claimForResend(deps.database.db, {
    id,
    channelId,
    leaseId,
    leaseUntil: addSeconds(now, deps.config.worker.leaseSeconds),
  });
  if (!claimed) {
    const existing = await findDeliveryRow(deps.database.db, channelId, id);
    if (existing?.status === 'PENDENTE') {
      throw conflict(
        'entrega_pendente',
        'Esta entrega ainda está pendente: ela será tentada novamente de acordo com o agendamento.',
      );
    }
    throw notFound('Entrega não encontrada.');
  }
  const sent = await deps.deliverer.send({
    url: claimed.url,
    body: claimed.payload,
    eventId: claimed.event_id,
    tipo: claimed.tipo,
    attempt: 1,
    secrets: signingSecrets(deps.keys, claimed, now),
    deliveryId: id,
    channelId,
  });
  await recordResults(deps.database.db, [
    outcome(
      { id, leaseId, attempt: 1, channelId, retryIntervalSeconds: claimed.intervalo_retentativa_segundos },
      sent,
      deps.clock.now(),
      deps.config.retryDelaysSeconds,
    ),
  ]);
  const row = await findDeliveryRow(deps.database.db, channelId, id);
  if (!row) throw notFound('Entrega não encontrada.'); // the webhook was removed meanwhile
  return toDeliveryResource(row);
}

export interface TestResult {
  entregue: boolean;
  httpStatus?: number;
  latenciaMs: number;
  erro?: string;
}

/** Signed webhook.teste, sent now, never queued, never resent. */
export async function sendTestEvent(deps: Deps, channelId: string): Promise<TestResult> {
  const webhook = await requireWebhook(deps, channelId);
  const now = deps.clock.now();
  const event = testEvent(now, deps.config.ambiente);
  const sent = await deps.deliverer.send({
    url: webhook.url,
    body: JSON.stringify(event),
    eventId: event.id,
    tipo: event.tipo,
    attempt: 1,
    secrets: signingSecrets(deps.keys, webhook, now),
    channelId,
  });
  return {
    entregue: sent.ok,
    ...(sent.status !== undefined ? { httpStatus: sent.status } : {}),
    latenciaMs: sent.latencyMs,
    ...(sent.error !== undefined ? { erro: sent.error } : {}),
  };
}

/** Deliveries requeued per statement: each one is a short transaction of its own. */
export const RECOVERY_BATCH = 2000;

export interface RecoveryInput {
  status?: unknown;
  desde?: string;
  ate?: string;
}

/**
 * POST /v1/webhooks/entregas/reenviar: every FALHOU delivery of the channel (in the
 * range), oldest first, back to the queue with its attempts reset; answers how many.
 * Batches of RECOVERY_BATCH, each its own statement, so no transaction grows with the
 * count and the API is never held. A repeat finds them PENDENTE and takes none twice.
 */
export async function recoverDeliveries(
  deps: Deps,
  channelId: string,
  input: RecoveryInput,
): Promise<{ reenfileiradas: number }> {
  await requireWebhook(deps, channelId);
  if (input.status !== 'FALHOU')
    throw badRequest('status_invalido', 'status deve ser FALHOU: só entregas que falharam são reenfileiradas.');
  const { desde, ate } = period(input);
  let total = 0;
  for (;;) {
    const requeued = await requeueFailed(
      deps.database.db,
      channelId,
      { ...(desde ? { desde } : {}), ...(ate ? { ate } : {}) },
      RECOVERY_BATCH,
    );
    total += requeued;
    if (requeued > 0) await notify(deps.database.db, DELIVERIES_CHANNEL, '');
    if (requeued < RECOVERY_BATCH) return { reenfileiradas: total };
  }
}

/** What recoverDeliveries would requeue now, for a confirmation that says how many. */
export async function countRecoverable(
  deps: Pick<Context, 'database'>,
  channelId: string,
  input: { desde?: string; ate?: string },
): Promise<number> {
  await requireWebhook(deps, channelId);
  const { desde, ate } = period(input);
  return countFailed(deps.database.db, channelId, { ...(desde ? { desde } : {}), ...(ate ? { ate } : {}) });
}
