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
// Heap sizes for a service, not a batch job: under load V8 otherwise grows each
// young semi-space to tens of megabytes and lets the old space balloon before a full
// collection. Measured with `npm run bench` (token, ping, links create and read, 64
// connections): peak RSS 277 MB → 176 MB, throughput unchanged within noise; the live
// heap stays near 50 MB, so 160 MB of old space leaves ample room. V8 reads these
// flags only at start, so the process replaces itself (execve: same pid, signals
// unchanged) with them. An explicit --max-semi-space-size, or
// CONSIGNA_NODE_FLAGS=none, leaves them alone.
const tuned = process.execArgv.some((arg) => arg.startsWith('--max-semi-space-size'));
if (!tuned && process.env.CONSIGNA_NODE_FLAGS !== 'none' && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, '--max-semi-space-size=4', '--max-old-space-size=160', ...process.execArgv, ...process.argv.slice(1)], process.env);
}
await import('../src/cli/main.ts');
