// Links expire by time. Reads report EXPIRADO as soon as expiraEm passes
// (effectiveStatus in link-states.ts); the sweeper persists it so that the stored status catches up.
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { addSeconds } from '../clock.ts';
import { conflict, notFound } from '../errors.ts';
import { isUuid } from '../crypto/random.ts';
import { LIVE_STATUSES, effectiveStatus, statusesBefore } from './link-states.ts';
import { findLinkOfChannel } from './links.repository.ts';
import { getLink } from './links.service.ts';
import type { LinkResource } from './link-resource.ts';

type Deps = Pick<Context, 'database' | 'clock'>;

export async function expireLinks(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const result = await deps.database.db
    .updateTable('links')
    .set({ status: 'EXPIRADO', updated_at: now })
    .where('status', 'in', LIVE_STATUSES)
    .where('expira_em', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * POST /v1/links/{id}/expiracao/simular (sandbox only, docs/rules.md §6): the link's time
 * is up now. The same change as the sweeper's (no event: expiry emits none), from the
 * same states, with `expiraEm` brought to now so that the link reads consistently. A link
 * that cannot expire answers as the journey simulator does for the same state.
 */
export async function simulateExpiry(
  deps: Deps & Pick<Context, 'config'>,
  channelId: string,
  linkId: string,
): Promise<LinkResource> {
  if (deps.config.ambiente !== 'SANDBOX' || !isUuid(linkId)) throw notFound('Link não encontrado.');
  const now = deps.clock.now();
  // Conditional on the status, like every move of the state machine: a journey step
  // that moves the link meanwhile wins or loses as a whole.
  const expired = await deps.database.db
    .updateTable('links')
    .set({ status: 'EXPIRADO', expira_em: now, updated_at: now })
    .where('id', '=', linkId)
    .where('channel_id', '=', channelId)
    .where('status', 'in', statusesBefore('EXPIRADO'))
    .where('expira_em', '>', now)
    .executeTakeFirst();
  if (expired.numUpdatedRows === 0n) {
    const link = await findLinkOfChannel(deps.database.db, channelId, linkId);
    if (!link) throw notFound('Link não encontrado.');
    const status = effectiveStatus(link.status, link.expira_em, now);
    if (status === 'EXPIRADO') throw conflict('link_expirado', 'Este link já expirou.');
    if (status === 'CANCELADO') {
      throw conflict('link_finalizado', 'A jornada deste link já terminou sem proposta (link CANCELADO): ele não expira mais.');
    }
    if (status === 'CONCLUIDO') {
      throw conflict('jornada_concluida', 'A proposta deste link já foi criada (link CONCLUIDO): ele não expira mais.');
    }
    // The update re-reads a row changed meanwhile, and no state leads back to a live one.
    throw new Error(`link expiry: live link (${status}) not expired`);
  }
  return getLink(deps, channelId, linkId);
}

/**
 * Idempotency keys past their retention (24 hours by default, docs/rules.md §3), up to
 * `batch` of them, oldest first: one short statement (the sweeper repeats it).
 */
export async function pruneIdempotencyKeys(deps: Pick<Context, 'database' | 'clock' | 'config'>, batch: number): Promise<number> {
  const cutoff = addSeconds(deps.clock.now(), -deps.config.retention.idempotencyHours * 3600);
  const { rows } = await sql<{ n: number }>`
    with gone as (
      delete from idempotency_keys k
      using (select channel_id, key from idempotency_keys where created_at <= ${cutoff} order by created_at limit ${batch}) due
      where k.channel_id = due.channel_id and k.key = due.key
      returning 1
    )
    select count(*)::int as n from gone
  `.execute(deps.database.db);
  return rows[0]?.n ?? 0;
}
