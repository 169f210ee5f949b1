// Sealed boxes (src/crypto/keys.ts): AES-256-GCM, with or without associated data. A box
// sealed with a context opens only with that context; a box without one (every box
// sealed before contexts existed) opens only without, so neither passes for the other.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKeys, isSealedWithContext } from '../../src/crypto/keys.ts';

const keys = deriveKeys(randomBytes(32));

describe('sealing with a context', () => {
  it('opens with the same context only', () => {
    const sealed = keys.seal('{"ip":"10.0.0.1"}', 'link-a');
    expect(isSealedWithContext(sealed)).toBe(true);
    expect(keys.open(sealed, 'link-a')).toBe('{"ip":"10.0.0.1"}');
    expect(() => keys.open(sealed, 'link-b')).toThrow();
    expect(() => keys.open(sealed, 'link-a ')).toThrow();
    expect(() => keys.open(sealed)).toThrow('the box needs its context');
  });

  it('keeps boxes without a context readable without one, and never with one', () => {
    const sealed = keys.seal('segredo');
    expect(isSealedWithContext(sealed)).toBe(false);
    expect(keys.open(sealed)).toBe('segredo');
    expect(() => keys.open(sealed, 'link-a')).toThrow('the box has no context');
  });

  it('refuses a box whose version byte was changed to pass for the other kind', () => {
    const bound = keys.seal('segredo', 'link-a');
    const relabelled = Buffer.from(bound);
    relabelled[0] = 1;
    expect(() => keys.open(relabelled)).toThrow();
    const unbound = Buffer.from(keys.seal('segredo'));
    unbound[0] = 2;
    expect(() => keys.open(unbound, '')).toThrow();
  });

  it('refuses a box under another master key', () => {
    expect(() => deriveKeys(randomBytes(32)).open(keys.seal('segredo', 'link-a'), 'link-a')).toThrow();
  });
});
