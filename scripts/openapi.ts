// Writes docs/openapi.yaml: the OpenAPI document the service serves at /openapi.yaml
// (sandbox, base URL http://localhost:3000), generated from the routes' schemas. It is
// committed so that a change to the contract shows in review as a diff of this file,
// and test/http/openapi.snapshot.test.ts fails when the code and the file differ.
//
//   npm run openapi            (after changing a route's schema)
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { createLogger } from '../src/observability/logger.ts';
import { openContext, startRoles } from '../src/server.ts';

export const OPENAPI_FILE = path.join(import.meta.dirname, '../docs/openapi.yaml');
export const OPENAPI_BASE_URL = 'http://localhost:3000';

/** The document as a fresh sandbox service serves it. */
export async function servedOpenApi(): Promise<string> {
  const config = loadConfig({
    PUBLIC_BASE_URL: OPENAPI_BASE_URL,
    CONSIGNA_MASTER_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
  });
  const ctx = await openContext(config, { log: createLogger('warn'), pgliteDir: 'memory' });
  const running = await startRoles(ctx, { api: true, worker: false, sweeper: false, listen: false });
  try {
    const response = await running.app!.inject({ method: 'GET', url: '/openapi.yaml' });
    if (response.statusCode !== 200) throw new Error(`/openapi.yaml answered ${response.statusCode}`);
    return response.body;
  } finally {
    await running.stop();
  }
}

if (import.meta.main) {
  writeFileSync(OPENAPI_FILE, await servedOpenApi());
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
}
