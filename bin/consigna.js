#!/usr/bin/env node
// Entry of the `consigna` command. The source is TypeScript run natively by Node 24
// (type stripping); the project pins Node 24 through its `node` devDependency, which
// npm scripts and `npx consigna` put first on PATH.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `consigna needs Node.js 24 (found ${process.version}). Run it through npm (npm start, npx consigna …), ` +
      'which uses the Node 24 installed by npm ci.',
  );
  process.exit(1);
}
// Heap sizes for a service, not a batch job: a bounded old space with a larger young
// space keeps full collections (and their pauses) rare under load; the figures are in
// bench/README.md. V8 reads these flags only at start, so the process replaces itself
// (execve: same pid, signals unchanged). An explicit --max-semi-space-size leaves them
// alone; CONSIGNA_NODE_FLAGS replaces them (`none`: V8's defaults). With the embedded
// database, --liftoff-only: V8's optimising compiler, tiering up PostgreSQL compiled to
// WebAssembly, needs hundreds of MB for one function; the baseline compiler keeps the
// start-up peak low, at some cost in the database's speed.
const tuned = process.execArgv.some((arg) => arg.startsWith('--max-semi-space-size'));
const embedded = !process.env.DATABASE_URL?.trim();
const flags =
  process.env.CONSIGNA_NODE_FLAGS?.trim() ||
  `--max-semi-space-size=16 --max-old-space-size=160 ${embedded ? '--liftoff-only' : '--initial-old-space-size=120'}`;
if (!tuned && flags !== 'none' && typeof process.execve === 'function') {
  process.execve(
    process.execPath,
    [process.execPath, ...flags.split(/\s+/), ...process.execArgv, ...process.argv.slice(1)],
    process.env,
  );
}
await import('../src/cli/main.ts');
