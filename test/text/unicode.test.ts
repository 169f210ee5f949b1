// The characters free text may not hold (src/text/unicode.ts), and what it may; and the
// rule that a name shown to a person holds a letter or digit that is drawn.
import { describe, expect, it } from 'vitest';
import { hasVisibleLetterOrDigit, isCleanText } from '../../src/text/unicode.ts';

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

describe('hasVisibleLetterOrDigit', () => {
  // Each of these blanks alone, and all of them together, name no one.
  const blanks: Array<[string, string]> = [
    ['the braille blank U+2800', '\u2800'],
    ['the hangul filler U+3164 (a letter, Lo)', '\u3164'],
    ['the hangul choseong filler U+115F (Lo)', '\u115f'],
    ['the hangul jungseong filler U+1160 (Lo)', '\u1160'],
    ['the halfwidth hangul filler U+FFA0 (Lo)', '\uffa0'],
    ['a zero-width space', '\u200b'],
    ['a soft hyphen', '\u00ad'],
    ['the spaces U+2000–U+200A', '\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a'],
    ['a narrow no-break space', '\u202f'],
    ['the medium space and invisible operators U+205F–U+2064', '\u205f\u2060\u2061\u2062\u2063\u2064'],
    ['the ideographic space', '\u3000'],
    ['variation selectors', '\ufe00\ufe0f\u{e0100}'],
    ['tag characters', '\u{e0001}\u{e0041}\u{e007f}'],
    ['a combining grapheme joiner', '\u034f'],
    ['a byte order mark', '\ufeff'],
    ['punctuation and symbols only', '-- ★ ⠀ 🙂 --'],
    ['the empty string', ''],
  ];
  it.each([...blanks, ['all of the above', blanks.map(([, text]) => text).join('')]])('refuses %s', (_what, text) => {
    expect(hasVisibleLetterOrDigit(text)).toBe(false);
  });

  it.each([
    ['a Latin letter among blanks', '\u3164a\u2800'],
    ['a digit', '\u200b7'],
    ['Portuguese letters', 'Ação'],
    ['a Hangul syllable', '한'],
    ['a CJK ideograph', '李'],
    ['an Arabic-Indic digit', '٣'],
    ['a Roman numeral (Nl)', 'Ⅻ'],
  ])('accepts %s', (_what, text) => {
    expect(hasVisibleLetterOrDigit(text)).toBe(true);
  });
});
