// The characters free text may not hold (src/text/unicode.ts), and what it may.
import { describe, expect, it } from 'vitest';
import { isCleanText } from '../../src/text/unicode.ts';

describe('isCleanText', () => {
  it.each([
    ['a lone high surrogate', 'x\ud800y'],
    ['a lone low surrogate', '\udc00'],
    ['NUL', 'x\u0000'],
    ['a C0 control', 'a\u001bb'],
    ['DEL', '\u007f'],
    ['a C1 control', '\u0085'],
    ['a line separator', 'a\u2028b'],
    ['a paragraph separator', 'a\u2029b'],
    ['a right-to-left override', 'fatura\u202Egpj.exe'],
    ['a left-to-right mark', '\u200e'],
    ['a first-strong isolate', '\u2068x\u2069'],
    ['an Arabic letter mark', '\u061c'],
  ])('refuses %s', (_what, text) => {
    expect(isCleanText(text)).toBe(false);
  });

  it.each([
    ['plain ASCII', 'pedido-000001'],
    ['Portuguese letters', 'Ação São João'],
    ['an emoji with a zero-width joiner', '👩‍💻'],
    ['a surrogate pair', '𝕏'],
    ['the replacement character itself', 'x\ufffdy'],
    ['the empty string', ''],
  ])('accepts %s', (_what, text) => {
    expect(isCleanText(text)).toBe(true);
  });
});
