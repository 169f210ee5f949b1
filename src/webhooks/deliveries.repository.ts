// A channel's deliveries as the API sees them: the history, a manual resend's claim and the
// bulk recovery's requeue (the engine's own queue statements are in delivery/sql/).
import { sql, type Selectable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { EventPosition } from '../events/event-cursor.ts';
import type { DeliveriesTable, DeliveryAttemptsTable, DeliveryStatus } from '../db/tables.ts';

export type DeliveryRow = Selectable<DeliveriesTable>;
export type AttemptRow = Selectable<DeliveryAttemptsTable>;

export interface DeliveryFilter {
  status?: DeliveryStatus;
  tipo?: string;
  eventoId?: string;
  linkId?: string;
  /** Inclusive, on the event's time. */
  desde?: Date;
  /** Exclusive. */
  ate?: Date;
}

export type ListedDelivery = DeliveryRow & EventPosition;

/**
 * One page of a channel's deliveries, newest first, after `before` (exclusive): in the
 * order their events were recorded, with the events list's rule (events.repository.ts):
 * only what every running transaction is newer than, so a page never skips one that
 * commits late. An event has at most one delivery (one webhook per channel), so the
 * event's position is the delivery's. The delivery is reached through
 * deliveries_channel: it was created at its event's time.
 */
export async function listDeliveryRows(
  db: DB,
  channelId: string,
  filter: DeliveryFilter,
  before: EventPosition | undefined,
  limit: number,
): Promise<ListedDelivery[]> {
  // Each event's delivery through a lateral probe of deliveries_channel: a plain join let
  // the planner estimate one row and read the channel's events and deliveries in full.
  const { rows } = await sql<ListedDelivery>`
    select d.*, e.xid::text as xid
    from events e
    cross join lateral (
      select * from deliveries d
      where d.channel_id = e.channel_id and d.criado_em = e.ocorrido_em and d.event_id = e.id
        ${filter.status !== undefined ? sql`and d.status = ${filter.status}` : sql``}
      limit 1
    ) d
    where e.channel_id = ${channelId}
      and e.xid < pg_snapshot_xmin(pg_current_snapshot())
      ${before ? sql`and (e.xid, e.id) < (${before.xid}::xid8, ${before.id}::uuid)` : sql``}
      ${filter.tipo !== undefined ? sql`and e.tipo = ${filter.tipo}` : sql``}
      ${filter.eventoId !== undefined ? sql`and e.id = ${filter.eventoId}` : sql``}
      ${filter.linkId !== undefined ? sql`and e.link_id = ${filter.linkId}` : sql``}
      ${filter.desde !== undefined ? sql`and e.ocorrido_em >= ${filter.desde}` : sql``}
      ${filter.ate !== undefined ? sql`and e.ocorrido_em < ${filter.ate}` : sql``}
    order by e.xid desc, e.id desc
    limit ${limit}
  `.execute(db);
  return rows;
}

export function findDeliveryRow(db: DB, channelId: string, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('deliveries').selectAll().where('id', '=', id).where('channel_id', '=', channelId).executeTakeFirst();
}

/** The delivery's last `limit` attempts, oldest first. */
export async function listAttemptRows(db: DB, channelId: string, deliveryId: string, limit: number): Promise<AttemptRow[]> {
  const rows = await db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .where('channel_id', '=', channelId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

export interface ResendClaim {
  event_id: string;
  tipo: string;
  payload: string;
  url: string;
  secret_sealed: Uint8Array;
  previous_secret_sealed: Uint8Array | null;
  previous_valid_until: Date | null;
  intervalo_retentativa_segundos: number | null;
}

/**
 * The manual resend's claim: one finished delivery (FALHOU or ENTREGUE) of this
 * channel back to PENDENTE at attempt 1 of a new series (the finished series' attempts
 * move to earlier_attempts), leased so that no worker takes it while the caller sends
 * it; recordResults then records that attempt like any other.
 */
export async function claimForResend(
  db: DB,
  delivery: { id: string; channelId: string; leaseId: string; leaseUntil: Date },
): Promise<ResendClaim | undefined> {
  const { rows } = await sql<ResendClaim>`
    update deliveries d
    set status = 'PENDENTE', tentativas = 1, earlier_attempts = d.earlier_attempts + d.tentativas, resends = d.resends + 1,
        next_attempt_at = ${delivery.leaseUntil},
        lease_id = ${delivery.leaseId}, entregue_em = null
    from events e, webhooks w
    where d.id = ${delivery.id} and d.channel_id = ${delivery.channelId} and d.status in ('FALHOU', 'ENTREGUE')
      and e.id = d.event_id and w.channel_id = d.channel_id
    returning d.event_id, d.tipo, e.payload, w.url, w.secret_sealed, w.previous_secret_sealed, w.previous_valid_until,
      w.intervalo_retentativa_segundos
  `.execute(db);
  return rows[0];
}

/**
 * The bulk recovery's step: up to `batch` of a channel's FALHOU deliveries, oldest
 * first, back to PENDENTE with their attempts reset (a new series, as after a resend),
 * due at the time they occurred, so the engine takes them in order of occurrence, under
 * its usual fairness. One short statement per batch; rows another caller is recovering
 * are skipped, never taken twice.
 */
export async function requeueFailed(
  db: DB,
  channelId: string,
  range: { desde?: Date; ate?: Date },
  batch: number,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with picked as (
      select id from deliveries
      where channel_id = ${channelId} and status = 'FALHOU'
        ${range.desde ? sql`and criado_em >= ${range.desde}` : sql``}
        ${range.ate ? sql`and criado_em < ${range.ate}` : sql``}
      order by criado_em, id
      limit ${batch}
      for update skip locked
    ),
    requeued as (
      update deliveries d
      set status = 'PENDENTE', tentativas = 0, earlier_attempts = d.earlier_attempts + d.tentativas, resends = d.resends + 1,
        next_attempt_at = d.criado_em, lease_id = null, entregue_em = null
      from picked where d.id = picked.id
      returning 1
    )
    select count(*)::int as n from requeued
  `.execute(db);
  return rows[0]?.n ?? 0;
}

/** How many FALHOU deliveries requeueFailed would take in the range now (on the FALHOU partial index). */
export async function countFailed(db: DB, channelId: string, range: { desde?: Date; ate?: Date }): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from deliveries
    where channel_id = ${channelId} and status = 'FALHOU'
      ${range.desde ? sql`and criado_em >= ${range.desde}` : sql``}
      ${range.ate ? sql`and criado_em < ${range.ate}` : sql``}
  `.execute(db);
  return rows[0]?.n ?? 0;
}
