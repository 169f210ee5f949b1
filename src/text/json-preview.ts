// A bounded, formatted preview of text that may be JSON: the first characters of a
// body, indented, at a cost that depends on the preview's size and never on the body's.
// Nothing is parsed into values: jsonc-parser's scanner reads tokens from the start
// until the preview is full, and the grammar is checked on the way (so text that is not
// JSON within the preview is shown as it arrived). Strings and numbers are copied as
// they were sent, escapes included.
import { createScanner } from 'jsonc-parser';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json.ts';

// jsonc-parser's SyntaxKind and ScanError are `const enum`s in its types, which
// erasable TypeScript cannot read; these are their values.
const TOKEN = { openBrace: 1, closeBrace: 2, openBracket: 3, closeBracket: 4, comma: 5, colon: 6, eof: 17 } as const;
const VALUE_TOKENS = new Set([7, 8, 9, 10, 11]); // null, true, false, string, number
const STRING_TOKEN = 10;
const UNEXPECTED_END_OF_STRING = 2;
const WHITESPACE_TOKENS = new Set([14, 15]); // line breaks, spaces

export type JsonPreview =
  { kind: 'json'; text: string; complete: boolean } | { kind: 'texto'; reason?: 'profundidade' | 'sintaxe' };

type Expect = 'value' | 'keyOrClose' | 'key' | 'colon' | 'valueOrClose' | 'commaOrClose' | 'end';

/**
 * Formats `text` (two spaces of indentation, as JSON.stringify(v, null, 2)) until the
 * output reaches `maxChars`. `whole` says whether `text` is the entire body or only its
 * start: only then must the JSON end where the text ends.
 */
export function previewJson(text: string, maxChars: number, whole: boolean): JsonPreview {
  // Checked on the input: indentation would fill the preview before the depth showed.
  if (nestsDeeperThan(text)) return { kind: 'texto', reason: 'profundidade' };
  // Whitespace is skipped here, not by the scanner, which would skip comments too.
  const scanner = createScanner(text, false);
  const closers: number[] = [];
  let out = '';
  let expect: Expect = 'value';
  let pendingBreak = false;
  const indent = () => '\n' + '  '.repeat(closers.length);
  const afterValue = (): Expect => (closers.length === 0 ? 'end' : 'commaOrClose');

  while (out.length < maxChars) {
    const kind: number = scanner.scan();
    if (WHITESPACE_TOKENS.has(kind)) continue;
    if (kind === TOKEN.eof) {
      if (expect === 'end') return { kind: 'json', text: out, complete: true };
      return whole ? { kind: 'texto', reason: 'sintaxe' } : { kind: 'json', text: out, complete: false };
    }
    const error: number = scanner.getTokenError();
    if (error !== 0) {
      // A string cut by the end of the preview's input is the input's end, not an error.
      if (!whole && error === UNEXPECTED_END_OF_STRING && kind === STRING_TOKEN) {
        out += text.slice(scanner.getTokenOffset());
        break;
      }
      return { kind: 'texto', reason: 'sintaxe' };
    }
    const closing = kind === TOKEN.closeBrace || kind === TOKEN.closeBracket;
    if (closing) {
      if (closers.at(-1) !== kind || !(expect === 'commaOrClose' || expect === 'keyOrClose' || expect === 'valueOrClose')) {
        return { kind: 'texto', reason: 'sintaxe' };
      }
      closers.pop();
      out += pendingBreak ? (kind === TOKEN.closeBrace ? '}' : ']') : `${indent()}${kind === TOKEN.closeBrace ? '}' : ']'}`;
      pendingBreak = false;
      expect = afterValue();
      continue;
    }
    if (pendingBreak) {
      out += indent();
      pendingBreak = false;
    }
    if (kind === TOKEN.comma) {
      if (expect !== 'commaOrClose') return { kind: 'texto', reason: 'sintaxe' };
      out += ',';
      pendingBreak = true;
      expect = closers.at(-1) === TOKEN.closeBrace ? 'key' : 'value';
    } else if (kind === TOKEN.colon) {
      if (expect !== 'colon') return { kind: 'texto', reason: 'sintaxe' };
      out += ': ';
      expect = 'value';
    } else if (kind === TOKEN.openBrace || kind === TOKEN.openBracket) {
      if (!(expect === 'value' || expect === 'valueOrClose')) return { kind: 'texto', reason: 'sintaxe' };
      if (closers.length === MAX_JSON_DEPTH) return { kind: 'texto', reason: 'profundidade' };
      closers.push(kind === TOKEN.openBrace ? TOKEN.closeBrace : TOKEN.closeBracket);
      out += kind === TOKEN.openBrace ? '{' : '[';
      pendingBreak = true;
      expect = kind === TOKEN.openBrace ? 'keyOrClose' : 'valueOrClose';
    } else if (VALUE_TOKENS.has(kind)) {
      const key = kind === STRING_TOKEN && (expect === 'key' || expect === 'keyOrClose');
      if (!key && !(expect === 'value' || expect === 'valueOrClose')) return { kind: 'texto', reason: 'sintaxe' };
      out += text.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength());
      expect = key ? 'colon' : afterValue();
    } else {
      // Comments, words that are not JSON, stray characters.
      return { kind: 'texto', reason: 'sintaxe' };
    }
  }
  return { kind: 'json', text: cut(out, maxChars), complete: false };
}

/** The first `max` characters, without splitting a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}
