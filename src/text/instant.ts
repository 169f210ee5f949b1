// One parser for every instant a client sends (`desde`, `ate`, …): RFC 3339 date-time
// as JSON Schema's `date-time` format defines it, and representable as a Date. The
// format alone admits a leap second (23:59:60), which no Date (and no database query
// built from one) can hold: such a value is refused like any other malformed date.
import { fullFormats } from 'ajv-formats/dist/formats.js';

const dateTime = fullFormats['date-time'] as { validate: (text: string) => boolean };

/** The instant, or undefined when the text is not one the service can represent. */
export function parseInstant(text: string): Date | undefined {
  if (!dateTime.validate(text)) return undefined;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** For schema validation: the `date-time` format every date parameter is checked with. */
export const isInstant = (text: string): boolean => parseInstant(text) !== undefined;
