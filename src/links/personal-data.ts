// LGPD minimisation (docs/operations.md "Retention"): a set time after a link is final, the
// customer's personal data goes: the sealed CPF and its keyed hash, the phone, the name,
// birth date, e-mail and Pix key, the signing link (and the sandbox's signing page with
// it), and the IP and user agent kept as evidence of the consent (its text version and
// time stay). So does everything else derived from the CPF: the offers the bank showed
// (the sandbox derives them from the CPF) and the link's Idempotency-Key record (its
// fingerprint is a keyed hash of the CPF; kept longer than the data when so configured).
// What stays is what the channel and the operators still need and identifies no one by
// itself: the masked CPF, the statuses, the proposal's figures (the sandbox derives them
// with a key: they do not lead back to the CPF without the master key) and the channel's
// own reference.
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
      update journeys set celular_sealed = null, customer_sealed = null, signing_url = null, signing_url_sealed = null,
                          consent_sealed = null, offers = null
      where link_id = any (array(select id from due))
    ),
    signing_pages_erased as (
      delete from sandbox_signing_pages
      where numero = any (array(select numero from proposals where link_id = any (array(select id from due))))
    ),
    idempotency_erased as (
      -- A key is older than its link's final status: the age index finds the few still kept.
      delete from idempotency_keys where created_at < ${cutoff} and link_id = any (array(select id from due))
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
