import { describe, expect, it } from 'vitest';
import {
  isUuid,
  newAccessToken,
  newClientId,
  newClientSecret,
  newInboxToken,
  newLinkToken,
  newWebhookSecret,
  uuidv7,
} from '../../src/crypto/random.ts';

describe('identifiers (docs/rules.md §2)', () => {
  it('have the documented forms', () => {
    expect(newClientId()).toMatch(/^cid_[A-Za-z0-9]{24}$/);
    expect(newClientSecret()).toMatch(/^csk_[A-Za-z0-9]{48}$/);
    expect(newAccessToken()).toMatch(/^cat_[A-Za-z0-9]{48}$/);
    expect(newInboxToken()).toMatch(/^sbx_[A-Za-z0-9]{32}$/);
    expect(newLinkToken()).toMatch(/^[A-Za-z0-9]{43}$/);
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
  });

  it('uuidv7 is a valid v7 uuid and increases within one millisecond', () => {
    const at = Date.now();
    const ids = Array.from({ length: 5000 }, () => uuidv7(at));
    for (const id of ids.slice(0, 10)) {
      expect(isUuid(id)).toBe(true);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
