// JSON that arrives from outside, held to bounds before anything walks it.
//
// V8's JSON.parse is iterative, but JSON.stringify and every recursive walk are not:
// an 8 KB body of 4,500 nested arrays parses fine and then overflows the stack when
// it is serialized for an answer. Pretty-printing is the other trap: indentation
// grows with depth, so 4,000 levels printed with two spaces each came to 32 MB for
// one 8 KB body. Hence two bounds: a nesting depth checked on the text before it is
// parsed, and a size budget for the formatted text, over which the compact text is
// shown instead.

/** Deeper than this, JSON from outside is refused (API bodies) or kept as text (inbox). */
export const MAX_JSON_DEPTH = 64;

/** Formatted text may be at most this many times the size of the compact text. */
export const PRETTY_SIZE_FACTOR = 4;

/** True when arrays and objects nest deeper than `max` anywhere in the text (one linear scan). */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export type BoundedParse = { kind: 'json'; value: unknown } | { kind: 'text'; reason?: 'profundidade' };

/** Parses text that may or may not be JSON; too deep is kept as text, with the reason. */
export function parseBoundedJson(text: string, maxDepth: number = MAX_JSON_DEPTH): BoundedParse {
  if (nestsDeeperThan(text, maxDepth)) return { kind: 'text', reason: 'profundidade' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'text' };
  }
}

/**
 * JSON.stringify(value, null, 2), or undefined as soon as the text would pass
 * `maxChars`. Recursive: callers pass values whose depth is already bounded.
 */
export function prettyJsonWithin(value: unknown, maxChars: number): string | undefined {
  const out: string[] = [];
  let size = 0;
  const put = (text: string): boolean => {
    size += text.length;
    out.push(text);
    return size <= maxChars;
  };
  const walk = (node: unknown, indent: string): boolean => {
    if (node === null || typeof node !== 'object') return put(JSON.stringify(node) ?? 'null');
    const inner = indent + '  ';
    const entries: [string | undefined, unknown][] = Array.isArray(node)
      ? node.map((item) => [undefined, item])
      : Object.entries(node as Record<string, unknown>);
    if (entries.length === 0) return put(Array.isArray(node) ? '[]' : '{}');
    if (!put(Array.isArray(node) ? '[' : '{')) return false;
    for (let i = 0; i < entries.length; i++) {
      const [key, item] = entries[i]!;
      if (!put(`${i === 0 ? '' : ','}\n${inner}${key === undefined ? '' : `${JSON.stringify(key)}: `}`)) return false;
      if (!walk(item, inner)) return false;
    }
    return put(`\n${indent}${Array.isArray(node) ? ']' : '}'}`);
  };
  return walk(value, '') ? out.join('') : undefined;
}
