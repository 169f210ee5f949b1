// Compiles src/ to dist/ (JavaScript + declarations) with tsc. The package ships
// JavaScript because Node refuses to strip types from files under node_modules, and
// so that Node 20 consumers can use it too. Runs before `npm pack` (prepack: the
// tarball carries dist/ and no install script) and on `npm ci` at the repository's
// root (its prepare), so that the examples find the package built.
//
// Built beside dist/ and swapped in at the end: tests and examples reading dist/
// while a pack rebuilds it never see it half-written.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const next = path.join(root, `.dist-${process.pid}`);
const old = path.join(root, `.dist-old-${process.pid}`);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
fs.rmSync(next, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit' });
  // tsc never copies hand-written or generated .d.ts files: the API types live in one.
  fs.copyFileSync(path.join(root, 'src/openapi.d.ts'), path.join(next, 'openapi.d.ts'));
  if (fs.existsSync(dist)) fs.renameSync(dist, old);
  fs.renameSync(next, dist);
} finally {
  fs.rmSync(next, { recursive: true, force: true });
  fs.rmSync(old, { recursive: true, force: true });
}
