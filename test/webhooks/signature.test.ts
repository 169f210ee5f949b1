import { execFileSync } from 'node:child_process';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from '../../src/webhooks/signature.ts';
import { signatureVectors } from '../vectors/signatures.ts';

const vectors = signatureVectors;
const stripe = new Stripe('sk_test_x');

/** An HMAC computed by the openssl binary, not by node:crypto. */
function opensslHmac(secret: string, message: string): string {
  const out = execFileSync('openssl', ['dgst', '-sha256', '-hex', '-hmac', secret], { input: Buffer.from(message, 'utf8') });
  return /([0-9a-f]{64})\s*$/.exec(out.toString())![1]!;
}

describe('shared signature vectors', () => {
  it('cover the cases other implementations must reproduce', () => {
    expect(vectors.map((v) => v.name)).toHaveLength(4);
    expect(vectors.some((v) => v.secrets.length === 2)).toBe(true);
    expect(vectors.some((v) => v.body === '{}')).toBe(true);
    expect(vectors.some((v) => [...v.body].some((ch) => ch.charCodeAt(0) > 0x7f))).toBe(true);
  });

  for (const v of vectors) {
    it(`${v.name}: our header equals the vector`, () => {
      expect(signatureHeader(v.secrets, v.timestamp, v.body)).toBe(v.header);
    });

    it(`${v.name}: openssl computes the same v1 values`, () => {
      const expected = `t=${v.timestamp},${v.secrets.map((s) => `v1=${opensslHmac(s, `${v.timestamp}.${v.body}`)}`).join(',')}`;
      expect(v.header).toBe(expected);
    });

    it(`${v.name}: verifies with each secret`, () => {
      for (const secret of v.secrets) expect(verifySignature(v.body, v.header, [secret], v.timestamp)).toEqual({ valid: true });
    });

    it(`${v.name}: Stripe's constructEvent accepts it with each secret`, () => {
      for (const secret of v.secrets) {
        const event = stripe.webhooks.constructEvent(v.body, v.header, secret, 300, undefined, v.timestamp * 1000);
        expect(event).toEqual(JSON.parse(v.body));
      }
    });
  }
});

describe('signatureHeader', () => {
  const [single] = vectors;
  const { body, secrets, timestamp } = single!;

  it('writes t first, then one lowercase v1 per secret in order', () => {
    const header = signatureHeader(['whsec_a', 'whsec_b', 'whsec_c'], 1_700_000_000, '{}');
    expect(header).toMatch(/^t=1700000000(,v1=[0-9a-f]{64}){3}$/);
    expect(header.split(',')[1]).toBe(signatureHeader(['whsec_a'], 1_700_000_000, '{}').split(',')[1]);
  });

  it('keys the HMAC with the whole secret text, whsec_ prefix included', () => {
    const withoutPrefix = signatureHeader([secrets[0]!.slice('whsec_'.length)], timestamp, body);
    const decoded = Buffer.from(secrets[0]!.slice('whsec_'.length), 'base64').toString('latin1');
    expect(single!.header).not.toBe(withoutPrefix);
    expect(single!.header).not.toBe(signatureHeader([decoded], timestamp, body));
  });

  it('refuses no secrets and fractional timestamps', () => {
    expect(() => signatureHeader([], timestamp, body)).toThrow();
    expect(() => signatureHeader(secrets, 1.5, body)).toThrow();
  });
});

describe('Stripe rejects what it should', () => {
  const [, rotation] = vectors;
  const { body, header, secrets, timestamp } = rotation!;

  it('rejects a tampered body', () => {
    const tampered = body.replace('CRIADA', 'APROVADA');
    for (const secret of secrets) {
      expect(() => stripe.webhooks.constructEvent(tampered, header, secret, 300, undefined, timestamp * 1000)).toThrow(
        /No signatures found matching/,
      );
    }
  });

  it('rejects an unknown secret', () => {
    expect(() => stripe.webhooks.constructEvent(body, header, 'whsec_outro', 300, undefined, timestamp * 1000)).toThrow();
  });

  it('rejects a stale timestamp', () => {
    expect(() => stripe.webhooks.constructEvent(body, header, secrets[0]!, 300, undefined, (timestamp + 301) * 1000)).toThrow(
      /Timestamp outside the tolerance zone/,
    );
  });
});

describe('verifySignature', () => {
  const [, rotation] = vectors;
  const { body, header, secrets, timestamp } = rotation!;

  it('accepts a match with either secret of a rotation, or with both', () => {
    expect(verifySignature(body, header, [secrets[1]!], timestamp)).toEqual({ valid: true });
    expect(verifySignature(body, header, secrets, timestamp)).toEqual({ valid: true });
  });

  it('accepts a single v1 when the receiver knows both secrets', () => {
    const oldOnly = signatureHeader([secrets[1]!], timestamp, body);
    expect(verifySignature(body, oldOnly, secrets, timestamp)).toEqual({ valid: true });
  });

  it('is false when no v1 matches', () => {
    expect(verifySignature(body.replace('CRIADA', 'APROVADA'), header, secrets, timestamp)).toEqual({
      valid: false,
      reason: 'assinatura não confere',
    });
    expect(verifySignature(body, header, ['whsec_outro'], timestamp).valid).toBe(false);
  });

  it('is false when the timestamp in the header was changed', () => {
    const moved = header.replace(`t=${timestamp}`, `t=${timestamp + 1}`);
    expect(verifySignature(body, moved, secrets, timestamp).valid).toBe(false);
  });

  it('is null when the header is missing', () => {
    const expected = { valid: null, reason: 'cabeçalho X-Service-Signature ausente' };
    expect(verifySignature(body, undefined, secrets, timestamp)).toEqual(expected);
    expect(verifySignature(body, '', secrets, timestamp)).toEqual(expected);
  });

  it.each([
    ['no t', 'v1=' + 'a'.repeat(64)],
    ['no v1', `t=${timestamp}`],
    ['two t', `t=${timestamp},t=${timestamp},v1=${'a'.repeat(64)}`],
    ['non-numeric t', `t=abc,v1=${'a'.repeat(64)}`],
    ['short v1', `t=${timestamp},v1=abc`],
    ['uppercase v1', `t=${timestamp},v1=${'A'.repeat(64)}`],
    ['garbage', 'assinatura'],
    ['only v0', `t=${timestamp},v0=${'a'.repeat(64)}`],
  ])('is null for a malformed header (%s)', (_name, bad) => {
    expect(verifySignature(body, bad, secrets, timestamp)).toEqual({ valid: null, reason: 'cabeçalho malformado' });
  });

  it('ignores other schemes, v1 values of another shape and spaces next to a good v1', () => {
    expect(verifySignature(body, `${header},v0=${'b'.repeat(64)}`, secrets, timestamp)).toEqual({ valid: true });
    expect(verifySignature(body, `${header}, v1=00`, secrets, timestamp)).toEqual({ valid: true });
    expect(verifySignature(body, `${header.replace(',', ', ')}, v1=${'A'.repeat(64)}`, secrets, timestamp)).toEqual({
      valid: true,
    });
  });

  it('is null outside 5 minutes either way, and valid at the edge', () => {
    const stale = { valid: null, reason: 'timestamp fora da tolerância de 5 minutos' };
    expect(verifySignature(body, header, secrets, timestamp + 301)).toEqual(stale);
    expect(verifySignature(body, header, secrets, timestamp - 301)).toEqual(stale);
    expect(verifySignature(body, header, secrets, timestamp + 300)).toEqual({ valid: true });
    expect(verifySignature(body, header, secrets, timestamp - 300)).toEqual({ valid: true });
  });

  it('names a custom tolerance', () => {
    expect(verifySignature(body, header, secrets, timestamp + 61, 60)).toEqual({
      valid: null,
      reason: 'timestamp fora da tolerância de 1 minuto',
    });
  });

  it('is null with nothing to check against', () => {
    expect(verifySignature(body, header, [], timestamp).valid).toBeNull();
  });
});
