// The queue operations of the delivery engine, one SQL statement each: claim a batch
// of due deliveries, and record a batch of attempt results.
import { sql } from 'kysely';
import type { DB } from '../../db/database.ts';
import { addSeconds } from '../../clock.ts';
import { uuidv7 } from '../../crypto/random.ts';

export const MAX_ATTEMPTS = 7;

export interface ClaimedDelivery {
  id: string;
  leaseId: string;
  channelId: string;
  attempt: number;
  eventId: string;
  tipo: string;
  payload: string;
  url: string;
  secretSealed: Uint8Array;
  previousSecretSealed: Uint8Array | null;
  previousValidUntil: Date | null;
  /** When the event happened: event-to-delivery latency is measured from it. */
  eventAt: Date;
}

/**
 * Claims up to `limit` due deliveries: SKIP LOCKED lets many workers claim side by
 * side without waiting on each other. The claim moves next_attempt_at to the end of
 * the lease, so a worker that dies leaves rows that become due again by themselves.
 * The attempt number stops at MAX_ATTEMPTS: a takeover after a crash during the
 * seventh attempt repeats attempt 7 (the spec numbers attempts 1 to 7, and a crash
 * of ours must not cost the channel an attempt nor leave the delivery unsent).
 */
export async function claimDue(db: DB, now: Date, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
  const leaseId = uuidv7(now.getTime());
  const { rows } = await sql<{
    id: string;
    channel_id: string;
    tentativas: number;
    event_id: string;
    tipo: string;
    payload: string;
    url: string;
    secret_sealed: Uint8Array;
    previous_secret_sealed: Uint8Array | null;
    previous_valid_until: Date | null;
    criado_em: Date;
  }>`
    with due as (
      select id from deliveries
      where status = 'PENDENTE' and next_attempt_at <= ${now}
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update deliveries d
    set tentativas = least(d.tentativas + 1, ${MAX_ATTEMPTS}), next_attempt_at = ${addSeconds(now, leaseSeconds)}, lease_id = ${leaseId}
    from due, events e, webhooks w
    where d.id = due.id and e.id = d.event_id and w.channel_id = d.channel_id
    returning d.id, d.channel_id, d.tentativas, d.event_id, d.tipo, e.payload, w.url, w.secret_sealed,
      w.previous_secret_sealed, w.previous_valid_until, e.ocorrido_em as criado_em
  `.execute(db);
  return rows.map((r) => ({
    id: r.id,
    leaseId,
    channelId: r.channel_id,
    attempt: r.tentativas,
    eventId: r.event_id,
    tipo: r.tipo,
    payload: r.payload,
    url: r.url,
    secretSealed: r.secret_sealed,
    previousSecretSealed: r.previous_secret_sealed,
    previousValidUntil: r.previous_valid_until,
    eventAt: r.criado_em,
  }));
}

export interface AttemptResult {
  id: string;
  leaseId: string;
  status: 'ENTREGUE' | 'PENDENTE' | 'FALHOU';
  nextAttemptAt: Date | null;
  httpStatus: number | null;
  error: string | null;
  latencyMs: number;
  at: Date;
}

/** What an attempt leads to: delivered, the next retry of the schedule, or failed for good. */
export function outcome(
  claimed: Pick<ClaimedDelivery, 'id' | 'leaseId' | 'attempt'>,
  result: { ok: boolean; status?: number; latencyMs: number; error?: string },
  at: Date,
  retryDelaysSeconds: readonly number[],
): AttemptResult {
  const base = { id: claimed.id, leaseId: claimed.leaseId, httpStatus: result.status ?? null, latencyMs: result.latencyMs, at };
  if (result.ok) return { ...base, status: 'ENTREGUE', nextAttemptAt: null, error: null };
  const error = (result.error ?? 'falha').slice(0, 500);
  if (claimed.attempt >= MAX_ATTEMPTS) return { ...base, status: 'FALHOU', nextAttemptAt: null, error };
  const delay = retryDelaysSeconds[claimed.attempt - 1] ?? retryDelaysSeconds[retryDelaysSeconds.length - 1]!;
  return { ...base, status: 'PENDENTE', nextAttemptAt: addSeconds(at, delay), error };
}

/**
 * Records many results in one statement. A row whose lease changed (its lease
 * expired and another worker took it) is left alone: the newer attempt owns it.
 */
export async function recordResults(db: DB, results: AttemptResult[]): Promise<number> {
  if (results.length === 0) return 0;
  const column = <T>(pick: (r: AttemptResult) => T) => results.map(pick);
  const result = await sql`
    update deliveries d
    set status = v.status,
        next_attempt_at = v.next_attempt_at,
        lease_id = null,
        last_http_status = v.http_status,
        last_error = v.error,
        last_latency_ms = v.latency_ms,
        last_attempt_at = v.at,
        entregue_em = case when v.status = 'ENTREGUE' then v.at else d.entregue_em end
    from unnest(
      ${column((r) => r.id)}::uuid[], ${column((r) => r.leaseId)}::uuid[], ${column((r) => r.status)}::text[],
      ${column((r) => r.nextAttemptAt?.toISOString() ?? null)}::timestamptz[], ${column((r) => r.httpStatus)}::int[],
      ${column((r) => r.error)}::text[], ${column((r) => r.latencyMs)}::int[], ${column((r) => r.at.toISOString())}::timestamptz[]
    ) as v(id, lease_id, status, next_attempt_at, http_status, error, latency_ms, at)
    where d.id = v.id and d.lease_id = v.lease_id
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** When the next pending delivery falls due (to sleep exactly until then). */
export async function nextDueAt(db: DB): Promise<Date | undefined> {
  const row = await db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('status', '=', 'PENDENTE')
    .executeTakeFirst();
  return (row?.at as Date | null) ?? undefined;
}
