// The bank's signing link as the journey keeps it: shown again on the customer's result
// page, so it is stored sealed (it is a single-customer url carrying a token), bound to
// its link so that it cannot be moved to another link's page.
import type { Keys } from '../crypto/keys.ts';

const context = (linkId: string): string => `consigna/signing-url\0${linkId}`;

export const sealSigningUrl = (keys: Keys, linkId: string, url: string): Buffer => keys.seal(url, context(linkId));

/** The signing link to show: sealed, or in the clear as versions before the sealing stored it; null when none. */
export function signingUrlOf(
  keys: Keys,
  journey: { link_id: string; signing_url: string | null; signing_url_sealed: Uint8Array | null },
): string | null {
  if (journey.signing_url_sealed) return keys.open(journey.signing_url_sealed, context(journey.link_id));
  return journey.signing_url;
}
