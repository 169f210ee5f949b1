// Reads the environment through EnvSchema: each variable's text becomes the value its schema
// checks, each wrong variable becomes one problem line, and then falls back to its default, so
// the rules between variables (src/config/config.ts) still see a whole configuration.
import { Type, type StaticDecode, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { EnvSchema } from './env-schema.ts';

export type Env = StaticDecode<typeof EnvSchema>;

type VariableSchema = TSchema & {
  minimum?: number;
  maximum?: number;
  enum?: readonly unknown[];
  writeOnly?: boolean;
  overriddenBy?: string;
};

const VARIABLES = EnvSchema.properties as Record<string, VariableSchema>;

/** Problems by variable name, one each, in the schema's order. */
export type Problems = Map<string, string>;

export function readEnv(source: Record<string, string | undefined>): { env: Env; problems: Problems } {
  // A variable set to blanks is unset, as a shell's `VAR=` means.
  const text = new Map<string, string>();
  for (const name of Object.keys(VARIABLES)) {
    const value = source[name]?.trim();
    if (value) text.set(name, value);
  }
  const values: Record<string, unknown> = {};
  for (const [name, value] of text) {
    const schema = VARIABLES[name]!;
    if (schema.overriddenBy && text.has(schema.overriddenBy)) continue;
    values[name] = fromText(schema, value);
  }

  // Each variable on its own: one line each, and no cap on how many (TypeBox stops a whole
  // object's errors at eight).
  const problems: Problems = new Map();
  for (const [name, value] of Object.entries(values)) {
    const schema = VARIABLES[name]!;
    const [error] = Value.Errors(schema, value);
    if (!error) continue;
    const shown = schema.writeOnly ? '' : `, got "${text.get(name)}"`;
    problems.set(name, `${expected(schema) ?? error.message}${shown}`);
    delete values[name];
  }
  return { env: Value.Decode(EnvSchema, values), problems };
}

// Stricter than TypeBox's Convert on purpose: it would take "1.5" as the integer 1 and
// "1e3" as 1000; an operator who wrote either meant something else.
const BOOLEANS = new Map([
  ['true', true],
  ['1', true],
  ['false', false],
  ['0', false],
]);

function fromText(schema: VariableSchema, text: string): unknown {
  if (Type.IsInteger(schema)) return /^\d+$/.test(text) ? Number(text) : text;
  if (Type.IsNumber(schema)) return /^\d*\.?\d+$/.test(text) ? Number(text) : text;
  if (Type.IsBoolean(schema)) return BOOLEANS.get(text) ?? text;
  return text;
}

/** What a plain JSON Schema type expects, said once whichever keyword failed; a refined type says it itself. */
function expected(schema: VariableSchema): string | undefined {
  const { minimum, maximum } = schema;
  if (Type.IsInteger(schema)) return `expected an integer from ${minimum} to ${maximum}`;
  if (Type.IsNumber(schema)) return `expected a number from ${minimum} to ${maximum}`;
  if (Type.IsBoolean(schema)) return 'expected true or false';
  if (schema.enum) return `expected one of ${schema.enum.join(', ')}`;
  return undefined;
}
