// X-Service-Signature: `t=<unix>,v1=<hex>[,v1=<hex>]`, the same scheme as Stripe's
// webhooks, so that channels can reuse a verifier they may already have. Each v1 is
// HMAC-SHA256 over `${t}.${rawBody}` keyed with the secret string exactly as issued
// (UTF-8 bytes of the whole `whsec_…` text, prefix included, the way Stripe's
// constructEvent keys it), never with the decoded base64 part.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = { valid: true } | { valid: false; reason: string } | { valid: null; reason: string };

const HEX_SHA256 = /^[0-9a-f]{64}$/;

function hmac(secret: string, timestamp: number, rawBody: string): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest();
}

/** One v1 per secret, in the order given (newest first during a rotation). */
export function signatureHeader(secrets: string[], timestamp: number, rawBody: string): string {
  if (secrets.length === 0) throw new Error('signatureHeader needs at least one secret');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new Error('timestamp must be whole unix seconds');
  const parts = secrets.map((secret) => `v1=${hmac(secret, timestamp, rawBody).toString('hex')}`);
  return [`t=${timestamp}`, ...parts].join(',');
}

/**
 * `valid: null` means the signature could not be checked (missing or malformed
 * header, timestamp outside the tolerance, nothing to check against): the test
 * inbox shows that apart from a real mismatch.
 */
export function verifySignature(
  rawBody: string,
  header: string | undefined,
  secrets: string[],
  nowSeconds: number,
  toleranceSeconds = 300,
): SignatureCheck {
  if (header === undefined || header.trim() === '') {
    return { valid: null, reason: 'cabeçalho X-Service-Signature ausente' };
  }
  const parsed = parseHeader(header);
  if (!parsed) return { valid: null, reason: 'cabeçalho malformado' };
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) {
    return { valid: null, reason: `timestamp fora da tolerância de ${describeSeconds(toleranceSeconds)}` };
  }
  if (secrets.length === 0) return { valid: null, reason: 'nenhum segredo para verificar a assinatura' };

  // Compare every pair without stopping early: the work done does not depend on
  // which secret or which v1 matched.
  let matched = false;
  for (const secret of secrets) {
    const expected = hmac(secret, parsed.timestamp, rawBody);
    for (const candidate of parsed.signatures) {
      if (timingSafeEqual(expected, candidate)) matched = true;
    }
  }
  return matched ? { valid: true } : { valid: false, reason: 'assinatura não confere' };
}

/**
 * Needs one numeric `t` and at least one 64-hex `v1`; other schemes (`v0=…`) and
 * v1 values of another shape are ignored, as Stripe does.
 */
function parseHeader(header: string): { timestamp: number; signatures: Buffer[] } | undefined {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) return undefined;
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (key === 'v1' && HEX_SHA256.test(value)) {
      // A v1 that is not 64 hex digits can never match: skipped, like other schemes.
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

function describeSeconds(seconds: number): string {
  if (seconds % 60 === 0) return seconds === 60 ? '1 minuto' : `${seconds / 60} minutos`;
  return `${seconds} segundos`;
}

/**
 * The secrets that sign right now: the current one, and the previous during its
 * window. Sealed as bytes (Keys), or in any form an opener of its own takes (the
 * delivery worker's cache takes them as hex text).
 */
export function signingSecrets<S = Uint8Array>(
  keys: { open(sealed: S): string },
  row: { secret_sealed: S; previous_secret_sealed: S | null; previous_valid_until: Date | null },
  now: Date,
): string[] {
  const secrets = [keys.open(row.secret_sealed)];
  if (row.previous_secret_sealed && row.previous_valid_until && row.previous_valid_until > now) {
    secrets.push(keys.open(row.previous_secret_sealed));
  }
  return secrets;
}
