// Delivery history, manual resend and the test event (spec, webhook endpoints;
// decisions §5).
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Context } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import { addSeconds } from '../clock.ts';
import { isUuid, uuidv7 } from '../crypto/random.ts';
import type { DeliveriesTable } from '../db/tables.ts';
import { testEvent } from '../events/event-body.ts';
import { requireWebhook, signingSecrets } from './webhooks.service.ts';
import type { Deliverer } from './delivery/deliverer.ts';
import { outcome, recordResults } from './delivery/attempts.ts';

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config'> & { deliverer: Deliverer };
type DeliveryRow = Selectable<DeliveriesTable>;

export const DELIVERY_STATUSES = ['PENDENTE', 'FALHOU', 'ENTREGUE'] as const;

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
  filter: { status?: string; limite?: number },
): Promise<DeliveryResource[]> {
  await requireWebhook(deps, channelId);
  let query = deps.database.db
    .selectFrom('deliveries')
    .selectAll()
    .where('channel_id', '=', channelId)
    .orderBy('criado_em', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limite ?? 20);
  if (filter.status) query = query.where('status', '=', filter.status);
  return (await query.execute()).map(toDeliveryResource);
}

/** FALHOU or ENTREGUE → attempts reset, sent at once; answers with the record after that attempt. */
export async function resendDelivery(deps: Deps, channelId: string, id: string): Promise<DeliveryResource> {
  await requireWebhook(deps, channelId);
  if (!isUuid(id)) throw notFound('Entrega não encontrada.');
  const now = deps.clock.now();
  const leaseId = uuidv7(now.getTime());
  const { rows } = await sql<{
    event_id: string;
    tipo: string;
    payload: string;
    url: string;
    secret_sealed: Uint8Array;
    previous_secret_sealed: Uint8Array | null;
    previous_valid_until: Date | null;
  }>`
    update deliveries d
    set status = 'PENDENTE', tentativas = 1, next_attempt_at = ${addSeconds(now, deps.config.worker.leaseSeconds)},
        lease_id = ${leaseId}, entregue_em = null
    from events e, webhooks w
    where d.id = ${id} and d.channel_id = ${channelId} and d.status in ('FALHOU', 'ENTREGUE')
      and e.id = d.event_id and w.channel_id = d.channel_id
    returning d.event_id, d.tipo, e.payload, w.url, w.secret_sealed, w.previous_secret_sealed, w.previous_valid_until
  `.execute(deps.database.db);
  const claimed = rows[0];
  if (!claimed) {
    const existing = await deps.database.db
      .selectFrom('deliveries')
      .select('status')
      .where('id', '=', id)
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
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
  const row = await deps.database.db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
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
