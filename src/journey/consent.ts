// The customer's authorisation of the bank query (the consent step). The text is
// versioned: the evidence kept with each journey names the version the customer saw,
// so a text may change without changing what an earlier customer agreed to. Add a new
// version here (never edit a published one) and point CONSENT_VERSION at it.
import { isSealedWithContext, type Keys } from '../crypto/keys.ts';

export const CONSENT_TEXTS: Readonly<Record<string, string>> = {
  '2026-11-01':
    'Autorizo o banco parceiro a consultar meus dados de vínculo empregatício e margem consignável para apresentar ofertas de crédito. ' +
    'A consulta usa meu CPF e serve somente para esta contratação.',
};

export const CONSENT_VERSION = '2026-11-01';

/** Where a consent came from: the customer's page, or the sandbox's journey simulation (the channel's API call). */
export type ConsentOrigin = 'pagina' | 'simulacao';

/** What is kept besides the version and the time: sealed, erased with the other personal data. */
export interface ConsentEvidence {
  origem: ConsentOrigin;
  ip?: string;
  userAgent?: string;
}

/** A user agent as evidence: bounded, and without characters that could forge a line of an export. */
export const cleanUserAgent = (ua: string | undefined): string | undefined =>
  ua === undefined ? undefined : ua.replace(/[\p{Cc}\u2028\u2029]/gu, '').slice(0, 512);

/**
 * How the sealed part stands: `valido` opened bound to this link, its version and time;
 * `sem_vinculo` sealed before evidence was bound to its link (readable, but nothing proves
 * it belongs to this one); `invalido` does not open for this link: moved from another link,
 * or its version, time or bytes altered.
 */
export type ConsentSeal = 'valido' | 'sem_vinculo' | 'invalido';

// The associated data of the sealed evidence: the link it was given on, the text version
// and the time, so that evidence copied to another row, or re-dated, fails to open.
const consentContext = (linkId: string, version: string, at: Date): string =>
  `consigna/consent\0${linkId}\0${version}\0${at.toISOString()}`;

/** The columns that record a consent: version and time in the clear, the rest sealed to them and to the link. */
export function sealConsent(keys: Keys, linkId: string, version: string, at: Date, evidence: ConsentEvidence) {
  return {
    consent_version: version,
    consent_at: at,
    consent_sealed: keys.seal(JSON.stringify(evidence), consentContext(linkId, version, at)),
  };
}

/** The sealed evidence of a link's consent, and whether it is that link's (never throws). */
export function openConsent(
  keys: Keys,
  linkId: string,
  version: string,
  at: Date,
  sealed: Uint8Array,
): { selo: ConsentSeal; evidence?: ConsentEvidence } {
  try {
    // Sealed before the binding (no associated data): kept readable, and said to be unbound.
    if (!isSealedWithContext(sealed)) return { selo: 'sem_vinculo', evidence: JSON.parse(keys.open(sealed)) as ConsentEvidence };
    return { selo: 'valido', evidence: JSON.parse(keys.open(sealed, consentContext(linkId, version, at))) as ConsentEvidence };
  } catch {
    return { selo: 'invalido' };
  }
}
