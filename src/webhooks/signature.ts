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

// Standard Webhooks (https://www.standardwebhooks.com/) headers go beside ours, signed
// with the same secrets, so that a stock verifier of that spec works too. There the key
// is the base64 part of the secret decoded (our `whsec_` + base64 of 32 bytes is a valid
// Standard Webhooks secret), the message is `${id}.${t}.${rawBody}`, and each signature
// is `v1,<base64>`, space-separated.

const STANDARD_PREFIX = 'whsec_';

/**
 * `webhook-signature`: one `v1,<base64>` per secret, in the order given (newest first
 * during a rotation), space-separated. `messageId` is the `webhook-id` (our event id, the
 * same on every attempt) and `timestamp` the `webhook-timestamp`, the `t` of
 * X-Service-Signature.
 */
export function standardSignatureHeader(
  secrets: readonly string[],
  messageId: string,
  timestamp: number,
  rawBody: string,
): string {
  if (secrets.length === 0) throw new Error('standardSignatureHeader needs at least one secret');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new Error('timestamp must be whole unix seconds');
  const signed = `${messageId}.${timestamp}.${rawBody}`;
  let header = '';
  for (const secret of secrets) {
    const signature = createHmac('sha256', standardKey(secret), { encoding: 'base64' }).update(signed, 'utf8').digest('base64');
    header = header === '' ? `v1,${signature}` : `${header} v1,${signature}`;
  }
  return header;
}

/**
 * The base64 text of the key, handed to createHmac as a string with `encoding: 'base64'`:
 * decoded there, once per secret and request. On Node 24 a Buffer key costs several
 * times the HMAC itself (measured: ~16 µs against ~2.6 µs for this, the same as our
 * `whsec_…` string key), so no decoded Buffer is made nor cached.
 */
function standardKey(secret: string): string {
  const encoded = secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret;
  if (encoded === '') throw new Error('a Standard Webhooks secret needs a base64 part');
  return encoded;
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
