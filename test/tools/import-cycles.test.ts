// The import-loop check of `npm run check` (scripts/import-cycles.ts): it finds loops,
// type-only imports and re-exports included, and src/ has none.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cycles, importGraph } from '../../scripts/import-cycles.ts';

const SCRIPT = path.join(import.meta.dirname, '../../scripts/import-cycles.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>): string[] {
  return Object.entries(files).map(([name, text]) => {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  });
}

describe('import-cycles', () => {
  it('finds a loop closed by a type-only import, and a re-export loop, and nothing in a tree', () => {
    const files = write({
      'http/app.ts': "import { registerLinks } from '../links/routes.ts';\nexport type App = { get(): void };\n",
      'links/routes.ts': "import type { App } from '../http/app.ts';\nexport function registerLinks(app: App) {}\n",
      'a.ts': "export * from './b.ts';\n",
      'b.ts': "export { x } from './a.ts';\n",
      'leaf.ts': "import { readFileSync } from 'node:fs';\nimport './a.ts';\n",
    });
    const found = cycles(importGraph(files)).map((c) => c.map((f) => path.relative(dir, f)));
    expect(found).toHaveLength(2);
    expect(found).toContainEqual(['http/app.ts', 'links/routes.ts']);
    expect(found).toContainEqual(['a.ts', 'b.ts']);
  });

  it('passes on src/ and fails, naming the loop, on a folder with one', () => {
    const clean = spawnSync(process.execPath, [SCRIPT, path.join(import.meta.dirname, '../../src')], { encoding: 'utf8' });
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stdout).toContain('no loop');
    const looped = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
    expect(looped.status).toBe(1);
    expect(looped.stderr).toMatch(/import loop of 2 modules: .*app\.ts → .*routes\.ts → .*app\.ts/);
  });
});
