// LGPD minimisation (README "Retention"): a set time after a link is final, the
// customer's personal data goes: the sealed CPF and its keyed hash, the phone, the name,
// birth date, e-mail and Pix key, the signing link, and the IP and user agent kept as
// evidence of the consent (its text version and time stay). What stays is what the channel and
// the operators still need and identifies no one by itself: the masked CPF, the statuses,
// the proposal's figures and the channel's own reference.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

export const FINAL_LINK_STATUSES = ['CONCLUIDO', 'CANCELADO', 'EXPIRADO'] as const;

/**
 * Up to `batch` links final since before `cutoff` (their last change of status), oldest
 * first, in one statement; returns how many. links.updated_at is left as it was: it is
 * the link's own history (`atualizadoEm`), and the erasure is stamped apart.
 */
export async function erasePersonalData(db: DB, cutoff: Date, now: Date, batch: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with due as materialized (
      select id from links
      where personal_data_erased_at is null and status in ('CONCLUIDO', 'CANCELADO', 'EXPIRADO') and updated_at < ${cutoff}
      order by updated_at
      limit ${batch}
      for update skip locked
    ),
    journeys_erased as (
      update journeys set celular_sealed = null, customer_sealed = null, signing_url = null, consent_sealed = null
      where link_id = any (array(select id from due))
    ),
    erased as (
      update links set cpf_sealed = null, cpf_hash = null, celular_sealed = null, personal_data_erased_at = ${now}
      where id = any (array(select id from due))
      returning 1
    )
    select count(*)::int as n from erased
  `.execute(db);
  return rows[0]?.n ?? 0;
}
