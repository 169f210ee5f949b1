// The OpenAPI document in the repository (docs/openapi.yaml) is the one the service
// serves, byte for byte: a refactor that changes the contract by accident fails here,
// and a deliberate change shows in review as a diff of that file (`npm run openapi`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, servedOpenApi } from '../../scripts/openapi.ts';

describe('docs/openapi.yaml', () => {
  it('is exactly what the service serves (run `npm run openapi` after changing a schema)', async () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    const served = await servedOpenApi();
    expect(served === committed, 'docs/openapi.yaml differs from /openapi.yaml: run `npm run openapi`').toBe(true);
  });
});
