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
  /** AES-256-GCM; the output carries its own nonce and tag. */
  seal(plaintext: string): Buffer;
  open(sealed: Uint8Array): string;
}

const VERSION = 1;

export function deriveKeys(masterKey: Buffer): Keys {
  // A KeyObject is prepared once; passing raw key bytes would rebuild it on every hash.
  const hashKey = createSecretKey(Buffer.from(hkdfSync('sha256', masterKey, '', 'consigna/hash/v1', 32)));
  const sealKey = createSecretKey(Buffer.from(hkdfSync('sha256', masterKey, '', 'consigna/seal/v1', 32)));
  return {
    hash(purpose, value) {
      return createHmac('sha256', hashKey).update(purpose).update('\0').update(value).digest();
    },
    seal(plaintext) {
      const nonce = secureRandomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey, nonce);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      const buf = Buffer.from(sealed);
      if (buf[0] !== VERSION) throw new Error('unknown sealed-box version');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, buf.subarray(1, 13));
      decipher.setAuthTag(buf.subarray(13, 29));
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
