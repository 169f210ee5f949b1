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
import { claimForResend, outcome, recordResults, requeueFailed } from './delivery/attempts.ts';
import { notify } from '../db/database.ts';
import { DELIVERIES_CHANNEL } from '../events/outbox.ts';
import { findDeliveryRow, listDeliveryRows, type DeliveryRow } from './deliveries.repository.ts';

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config'> & { deliverer: Deliverer };

export const DELIVERY_STATUSES = ['PENDENTE', 'FALHOU', 'ENTREGUE'] as const satisfies readonly DeliveryStatus[];

export interface DeliveryResource {
  id: string;
  eventoId: string;
  tipo: string;
  status: string;
  tentativas: number;
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
    ...(row.status === 'PENDENTE' && row.next_attempt_at ? { proximaTentativaEm: row.next_attempt_at.toISOString() } : {}),
    ...(row.last_http_status !== null ? { ultimoHttpStatus: row.last_http_status } : {}),
    ...(row.last_error !== null ? { ultimoErro: row.last_error } : {}),
    ...(row.last_latency_ms !== null ? { ultimaLatenciaMs: row.last_latency_ms } : {}),
    ...(row.last_attempt_at ? { ultimaTentativaEm: row.last_attempt_at.toISOString() } : {}),
    ...(row.entregue_em ? { entregueEm: row.entregue_em.toISOString() } : {}),
    criadoEm: row.criado_em.toISOString(),
  };
}

export async function listDeliveries(
  deps: Pick<Context, 'database'>,
  channelId: string,
  filter: { status?: DeliveryStatus; limite?: number },
): Promise<DeliveryResource[]> {
  await requireWebhook(deps, channelId);
  const rows = await listDeliveryRows(deps.database.db, channelId, { status: filter.status, limit: filter.limite ?? 20 });
  return rows.map(toDeliveryResource);
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
  });
  await recordResults(deps.database.db, [
    outcome({ id, leaseId, attempt: 1, channelId }, sent, deps.clock.now(), deps.config.retryDelaysSeconds),
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
  const desde = input.desde !== undefined ? new Date(input.desde) : undefined;
  const ate = input.ate !== undefined ? new Date(input.ate) : undefined;
  if (desde && ate && desde >= ate) throw badRequest('periodo_invalido', 'Período inválido: desde deve ser anterior a ate.');
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
