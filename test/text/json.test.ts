// The bounds on outside JSON (src/text/json.ts): the depth scan agrees with a real
// parse, and the budgeted formatter is JSON.stringify(value, null, 2) until it gives up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseBoundedJson, prettyJsonWithin } from '../../src/text/json.ts';

/** Nesting depth of a parsed value, the slow and obvious way. */
const depthOf = (value: unknown): number =>
  value !== null && typeof value === 'object'
    ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf))
    : 0;

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('nestsDeeperThan', () => {
  it('agrees with the depth of the parsed value, strings with brackets and escapes included', () => {
    const tricky = fc.oneof(fc.constantFrom('[', ']', '{', '}', '\\', '"', '\\"[', '[\\\\'), fc.string());
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        tricky,
        fc.integer(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(tricky, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 6 }), (v, max) => {
        const text = JSON.stringify(v);
        expect(nestsDeeperThan(text, max)).toBe(depthOf(v) > max);
      }),
      { numRuns: 500 },
    );
  });

  it('stops at the bound: 64 levels pass, 65 do not', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan('"' + '['.repeat(1000) + '"')).toBe(false);
  });
});

describe('parseBoundedJson', () => {
  it('keeps what is too deep as text and says why; what is not JSON is text without a reason', () => {
    expect(parseBoundedJson(nested(4500))).toEqual({ kind: 'text', reason: 'profundidade' });
    expect(parseBoundedJson('{"a":')).toEqual({ kind: 'text' });
    expect(parseBoundedJson('{"a":[1]}')).toEqual({ kind: 'json', value: { a: [1] } });
  });
});

describe('prettyJsonWithin', () => {
  it('is JSON.stringify(value, null, 2) when the budget allows', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
        const expected = JSON.stringify(v, null, 2);
        expect(prettyJsonWithin(v, expected.length)).toBe(expected);
        if (expected.length > 0) expect(prettyJsonWithin(v, expected.length - 1)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('gives up early on a value whose indentation would dwarf it', () => {
    // 64 levels around 20,000 numbers: about 40 KB compact, 2.6 MB formatted.
    let value: unknown = Array.from({ length: 20_000 }, () => 1);
    for (let i = 1; i < MAX_JSON_DEPTH; i++) value = [value];
    const compact = JSON.stringify(value);
    expect(prettyJsonWithin(value, 4 * compact.length)).toBeUndefined();
  });
});
