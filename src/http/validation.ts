// Two Ajv instances: JSON bodies are validated strictly (no type coercion, unknown
// fields refused, so `{"cpf": 123}` is an error and not the string "123"), while
// query strings and path params, which are always text, are coerced.
import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isInstant } from '../text/instant.ts';

// ajv-formats ships CommonJS with a default export object.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

const common: Options = {
  allErrors: false,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
};

// `date-time` is the service's own parser (src/text/instant.ts): what passes validation
// is exactly what the handlers can turn into a Date.
const withFormats = (ajv: Ajv): Ajv => addFormats(ajv).addFormat('date-time', { type: 'string', validate: isInstant });
const strictAjv = withFormats(new Ajv({ ...common, coerceTypes: false }));
const coercingAjv = withFormats(new Ajv({ ...common, coerceTypes: true }));

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema);
