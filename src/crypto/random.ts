// Identifiers and secrets. base62 keeps them copy-paste safe (no +/= or URL escaping).
import { randomBytes, randomFillSync } from 'node:crypto';

// CSPRNG bytes are drawn 4 KiB at a time: every randomBytes call enters OpenSSL,
// which cost ~6 µs a call on the link-creation path (four calls per link; 10 % of
// its CPU profile). Node's own randomUUID keeps a pool for the same reason. Each
// byte is handed out once and copied out, so no caller can see another's bytes.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

export function secureRandomBytes(size: number): Buffer {
  if (size > pool.length) return randomBytes(size);
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = Buffer.allocUnsafe(size);
  pool.copy(out, 0, poolOffset, poolOffset + size);
  pool.fill(0, poolOffset, poolOffset + size);
  poolOffset += size;
  return out;
}

const BASE62 = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'latin1');

/** Uniform base62 string: rejection sampling avoids the modulo bias of `byte % 62`. */
export function randomBase62(length: number): string {
  const out = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const random = secureRandomBytes(length * 2);
    for (let i = 0; i < random.length && filled < length; i++) {
      if (random[i]! < 248) out[filled++] = BASE62[random[i]! % 62]!;
    }
  }
  return out.toString('latin1');
}

export const newClientId = (): string => `cid_${randomBase62(24)}`;
export const newClientSecret = (): string => `csk_${randomBase62(48)}`;
export const newAccessToken = (): string => `cat_${randomBase62(48)}`;
export const newInboxToken = (): string => `sbx_${randomBase62(32)}`;
/** 43 base62 characters carry 256 bits: far above the 128 the link url needs. */
export const newLinkToken = (): string => randomBase62(43);
export const newWebhookSecret = (): string => `whsec_${secureRandomBytes(32).toString('base64')}`;

const uuidBytes = Buffer.alloc(16);
let lastMs = 0;
let sequence = 0;

/**
 * UUIDv7 (RFC 9562): time-ordered, so inserts of links, events and deliveries land at
 * the right edge of their b-tree indexes instead of scattering over the whole index.
 * Within one millisecond a 12-bit counter (RFC 9562 §6.2, method 1) keeps the ids of
 * this process increasing, so two events of one change sort in the order they happened.
 */
export function uuidv7(now = Date.now()): string {
  secureRandomBytes(16).copy(uuidBytes);
  let ms = Math.max(now, lastMs);
  if (ms === lastMs) {
    sequence += 1;
    if (sequence > 0xfff) {
      ms += 1;
      sequence = 0;
    }
  } else {
    sequence = uuidBytes[7]! & 0x7f; // random start, leaving room to count up
  }
  lastMs = ms;
  uuidBytes.writeUIntBE(ms, 0, 6);
  uuidBytes[6] = 0x70 | (sequence >> 8);
  uuidBytes[7] = sequence & 0xff;
  uuidBytes[8] = 0x80 | (uuidBytes[8]! & 0x3f);
  const hex = uuidBytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
