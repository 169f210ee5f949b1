// Generates src/openapi.d.ts from the OpenAPI document a running Consigna serves, so
// the SDK's types come from the contract and cannot drift from it (a test
// regenerates it from a live service and fails on any difference).
//
//   npm run generate -w @consigna/sdk                      # http://localhost:3000/openapi.json
//   npm run generate -w @consigna/sdk -- http://127.0.0.1:3100/openapi.json
//   npm run generate -w @consigna/sdk -- ./openapi.json    # a saved document
import fs from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';

export const TYPES_FILE = path.resolve(import.meta.dirname, '../src/openapi.d.ts');

const HEADER = `// Generated from the service's /openapi.json by \`npm run generate -w @consigna/sdk\`.
// Do not edit: change the routes' schemas in src/ and regenerate.
`;

/** The exact text of src/openapi.d.ts for an OpenAPI document. */
export async function generateTypes(document: object): Promise<string> {
  // `servers` carries the instance's own address; it never reaches the types, but
  // leaving it out keeps the output independent of where the service runs.
  const { servers: _servers, ...contract } = document as Record<string, unknown>;
  const ast = await openapiTS(contract as unknown as Parameters<typeof openapiTS>[0], { alphabetize: true, exportType: false });
  const source = HEADER + '\n' + astToString(ast);
  const options = (await prettier.resolveConfig(TYPES_FILE)) ?? {};
  return prettier.format(source, { ...options, filepath: TYPES_FILE });
}

export async function loadDocument(source: string): Promise<object> {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`GET ${source}: HTTP ${response.status}`);
    return (await response.json()) as object;
  }
  return JSON.parse(fs.readFileSync(source, 'utf8')) as object;
}

if (import.meta.main) {
  const source = process.argv[2] ?? 'http://localhost:3000/openapi.json';
  const text = await generateTypes(await loadDocument(source));
  fs.writeFileSync(TYPES_FILE, text);
  console.log(`${path.relative(process.cwd(), TYPES_FILE)} generated from ${source}`);
}
