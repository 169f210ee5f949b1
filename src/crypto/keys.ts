// The master key and the keys derived from it. One key per purpose, so that a hash
// can never be replayed as a ciphertext key or the other way round.
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import fs from 'node:fs';
import { secureRandomBytes } from './random.ts';
import path from 'node:path';

export interface Keys {
  /** Keyed SHA-256 for high-entropy secrets and look-ups (client secrets, tokens, CPF). */
  hash(purpose: string, value: string): Buffer;
  /**
   * AES-256-GCM; the output carries its own nonce and tag. With `context` (associated
   * data: what the box belongs to, e.g. its row's id) the box opens only with that same
   * context, so a box copied to another row fails to open instead of reading as its own.
   */
  seal(plaintext: string, context?: string): Buffer;
  /** Throws when the box was altered, or sealed with another context (or with one, or without one, unlike here). */
  open(sealed: Uint8Array, context?: string): string;
}

/** Box versions: the first byte says whether associated data was bound in (older boxes have none). */
const VERSION = 1;
const VERSION_WITH_CONTEXT = 2;

// The version byte leads the associated data: GCM with empty associated data is GCM
// without any, so a context-free box relabelled as version 2 would otherwise open with
// the context ''.
const associatedData = (context: string): Buffer =>
  Buffer.concat([Buffer.from([VERSION_WITH_CONTEXT]), Buffer.from(context, 'utf8')]);

/** True when the box was sealed with a context (it opens only with it). */
export const isSealedWithContext = (sealed: Uint8Array): boolean => sealed[0] === VERSION_WITH_CONTEXT;

export function deriveKeys(masterKey: Buffer): Keys {
  // A KeyObject is prepared once; passing raw key bytes would rebuild it on every hash.
  const hashKey = createSecretKey(Buffer.from(hkdfSync('sha256', masterKey, '', 'consigna/hash/v1', 32)));
  const sealKey = createSecretKey(Buffer.from(hkdfSync('sha256', masterKey, '', 'consigna/seal/v1', 32)));
  return {
    hash(purpose, value) {
      return createHmac('sha256', hashKey).update(purpose).update('\0').update(value).digest();
    },
    seal(plaintext, context) {
      const nonce = secureRandomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey, nonce);
      if (context !== undefined) cipher.setAAD(associatedData(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const version = context === undefined ? VERSION : VERSION_WITH_CONTEXT;
      return Buffer.concat([Buffer.from([version]), nonce, cipher.getAuthTag(), body]);
    },
    open(sealed, context) {
      const buf = Buffer.from(sealed);
      const expected = context === undefined ? VERSION : VERSION_WITH_CONTEXT;
      if (buf[0] !== VERSION && buf[0] !== VERSION_WITH_CONTEXT) throw new Error('unknown sealed-box version');
      if (buf[0] !== expected) throw new Error(context === undefined ? 'the box needs its context' : 'the box has no context');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, buf.subarray(1, 13));
      decipher.setAuthTag(buf.subarray(13, 29));
      if (context !== undefined) decipher.setAAD(associatedData(context));
      return Buffer.concat([decipher.update(buf.subarray(29)), decipher.final()]).toString('utf8');
    },
  };
}

export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Embedded mode keeps its generated key beside the database, mode 0600, so that
 * `npm start` needs no setup. PostgreSQL deployments must pass CONSIGNA_MASTER_KEY.
 */
export function loadOrCreateMasterKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'master.key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte hex key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  fs.writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
