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
// A small young generation: under load V8 otherwise grows each semi-space to tens
// of megabytes, measured as ~100 MB more peak RSS with no throughput gain (GET
// /v1/ping at 64 connections: 274 MB → 177 MB). V8 reads the flag only at start,
// so the process replaces itself (execve: same pid, signals unchanged) with it.
// An explicit --max-semi-space-size, or CONSIGNA_NODE_FLAGS=none, leaves it alone.
const tuned = process.execArgv.some((arg) => arg.startsWith('--max-semi-space-size'));
if (!tuned && process.env.CONSIGNA_NODE_FLAGS !== 'none' && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, '--max-semi-space-size=4', ...process.execArgv, ...process.argv.slice(1)], process.env);
}
await import('../src/cli/main.ts');
