// The customer's authorisation of the bank query (the consent step). The text is
// versioned: the evidence kept with each journey names the version the customer saw,
// so a text may change without changing what an earlier customer agreed to. Add a new
// version here (never edit a published one) and point CONSENT_VERSION at it.
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
