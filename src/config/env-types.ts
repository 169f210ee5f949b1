// The kinds of value an environment variable may hold, as TypeBox types. Each carries its
// default (as an operator writes it), bounds and description. Numbers, booleans and lists of
// choices are plain JSON Schema; a syntax of our own (a rate limit, a key, an address) is a
// string refined by a check whose message says what was expected, then decoded to its value.
// `writeOnly` marks a value never shown back: a problem names the variable, not what it holds.
import { isIP } from 'node:net';
import { Type } from 'typebox';

export type TrustProxy = boolean | number | string[];

export interface RateLimit {
  /** Requests allowed per window. 0 disables the limit. */
  max: number;
  windowSeconds: number;
}

// A type alias, not an interface: TypeBox's options take an index signature.
type Documented<T> = {
  description: string;
  default?: T;
  /** Another variable that, when set, takes this one's place: this one is then neither read nor checked. */
  overriddenBy?: string;
};

/** From 0 to the largest safe integer unless bounded; written in plain decimal digits (src/config/read-env.ts). */
export const Int = (options: Documented<number> & { minimum?: number; maximum?: number }) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, ...options });

/** A number from 0 to 1. */
export const Ratio = (options: Documented<number>) => Type.Number({ minimum: 0, maximum: 1, ...options });

/** `true`/`1` or `false`/`0`. */
export const Bool = (options: Documented<boolean>) => Type.Boolean(options);

export const OneOf = <const T extends string>(values: readonly T[], options: Documented<T>) => Type.Enum(values as T[], options);

export const Text = (options: Documented<string>) => Type.String(options);

/** Never echoed: a URL may carry a password (DATABASE_URL, an OTLP endpoint with credentials). */
export const Url = (protocols: readonly string[], options: Documented<string>) =>
  Type.Refine(
    Type.Refine(
      Type.String({ ...options, writeOnly: true }),
      (value) => URL.canParse(value),
      () => 'not a valid URL',
    ),
    (value) => !URL.canParse(value) || protocols.includes(new URL(value).protocol),
    () => `expected a ${protocols.join(' or ')} URL`,
  );

/** A string refined by `parse` (undefined when the text is wrong) and decoded by it. */
const Parsed = <T>(
  options: Documented<string> & { writeOnly?: boolean },
  parse: (text: string) => T | undefined,
  expected: string,
) =>
  Type.Decode(
    Type.Refine(
      Type.String(options),
      (text) => parse(text) !== undefined,
      () => expected,
    ),
    (text) => parse(text) as T,
  );

/** A secret of at least `minLength` characters, without spaces; never echoed. */
export const Secret = (minLength: number, options: Documented<string>) =>
  Parsed(
    { ...options, writeOnly: true },
    (text) => (text.length >= minLength && !/\s/.test(text) ? text : undefined),
    `expected at least ${minLength} characters without spaces`,
  );

/** 32 bytes as 64 hex characters or base64; never echoed. */
export const MasterKey = (options: Documented<string>) =>
  Parsed({ ...options, writeOnly: true }, parseMasterKey, 'expected 32 bytes as 64 hex characters or base64');

function parseMasterKey(text: string): Buffer | undefined {
  const hex = /^[0-9a-fA-F]{64}$/.test(text);
  const key = Buffer.from(text, hex ? 'hex' : 'base64');
  return key.length === 32 && (hex || /^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) ? key : undefined;
}

/** `length` comma-separated positive integers. */
export const IntList = (length: number, options: Documented<string>) =>
  Parsed(
    options,
    (text) => {
      const parts = text.split(',').map((part) => part.trim());
      const valid = parts.length === length && parts.every((part) => /^\d+$/.test(part) && Number(part) >= 1);
      return valid ? parts.map(Number) : undefined;
    },
    `expected ${length} comma-separated positive integers (seconds)`,
  );

/** `<requests>/<seconds>`; 0 requests disables the limit. */
export const RateLimitText = (options: Documented<string>) =>
  Parsed(
    options,
    (text): RateLimit | undefined => {
      const match = /^(\d+)\/(\d+)$/.exec(text);
      return match && Number(match[2]) >= 1 ? { max: Number(match[1]), windowSeconds: Number(match[2]) } : undefined;
    },
    'expected "<requests>/<seconds>", e.g. 600/60 (0/60 disables)',
  );

/** `true`, `false`, a hop count, or a comma-separated list of proxy addresses/CIDRs. */
export const TrustProxyText = (options: Documented<string>) =>
  Parsed(
    options,
    (text): TrustProxy | undefined => {
      if (text === 'false') return false;
      if (text === 'true') return true;
      if (/^\d+$/.test(text)) return Number(text);
      const entries = text.split(',').map((entry) => entry.trim());
      return entries.every((entry) => isIP(entry.split('/')[0] ?? '')) ? entries : undefined;
    },
    'expected true, false, a hop count or a list of proxy addresses/CIDRs',
  );

/** `host:port`, `[ipv6]:port` or a bare port (on 127.0.0.1). */
export const ListenAddress = (options: Documented<string>) =>
  Parsed(
    options,
    (text) => {
      const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\s]+):)?(\d{1,5})$/.exec(text);
      const port = Number(match?.[2]);
      if (!match || port < 1 || port > 65_535) return undefined;
      return { host: (match[1] ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1'), port };
    },
    'expected host:port or a port, e.g. 127.0.0.1:9464',
  );
