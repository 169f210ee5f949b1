// Compiles src/ to dist/ (JavaScript + declarations) with tsc. The package ships
// JavaScript because Node refuses to strip types from files under node_modules, and
// so that Node 20 consumers can use it too. Runs on `npm ci` (prepare) and `npm pack`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(import.meta.dirname, '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
// tsc never copies hand-written or generated .d.ts files: the API types live in one.
fs.copyFileSync(path.join(root, 'src/openapi.d.ts'), path.join(root, 'dist/openapi.d.ts'));
// The `consigna-sdk` command (package.json "bin"): npx runs it directly.
fs.chmodSync(path.join(root, 'dist/cli.js'), 0o755);
