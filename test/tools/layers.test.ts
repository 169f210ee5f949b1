// The layer rules of `npm run check:layers` (.dependency-cruiser.cjs, docs/rules.md §9):
// src/ keeps them, and each rule catches what it names, a type-only import included.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

const cruise = (cwd: string) =>
  spawnSync(process.execPath, [BIN, '--config', CONFIG, 'src'], { cwd, encoding: 'utf8', timeout: 60_000 });

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A project with these files under src/ (and the tsconfig the rules read). */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'layers-'));
  dirs.push(dir);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true } }),
  );
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, 'src', name)), { recursive: true });
    writeFileSync(path.join(dir, 'src', name), text);
  }
  return dir;
}

describe('layer rules', () => {
  it('hold on src/', () => {
    const result = cruise(ROOT);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it('catch a loop closed by a type-only import, infrastructure importing a domain, and a domain importing the entry', () => {
    const dir = project({
      'http/app.ts':
        "import { registerLinks } from '../links/links.routes.ts';\nexport type App = { get(): void };\nexport const x = registerLinks;\n",
      'links/links.routes.ts':
        "import type { App } from '../http/app.ts';\nexport function registerLinks(app: App) { return app; }\n",
      'db/database.ts': "import type { Link } from '../links/link.ts';\nexport type Row = Link;\n",
      'links/link.ts': "import { start } from '../server.ts';\nexport type Link = { id: string };\nexport const s = start;\n",
      'server.ts': 'export function start() {}\n',
    });
    const result = cruise(dir);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toMatch(/no-circular: src\/(http\/app|links\/links\.routes)\.ts/);
    expect(result.stdout).toContain('infrastructure-knows-no-domain: src/db/database.ts → src/links/link.ts');
    expect(result.stdout).toContain('domains-do-not-import-entry: src/links/link.ts → src/server.ts');
  });
});
