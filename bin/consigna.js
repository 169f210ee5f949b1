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
// Heap sizes for a service, not a batch job: under load V8 otherwise lets the old
// space balloon before a full collection (peak RSS 351 MB under `npm run bench`; the
// live heap stays near 50 MB, so 160 MB of old space leaves ample room). The young
// semi-space stays at 16 MB: at 4 MB the delivery worker spent 129 µs of CPU per
// webhook instead of 90 (scavenges), for 15 MB less RSS. Measured: peak RSS 192 MB
// with these flags, HTTP throughput within the run-to-run noise. V8 reads these
// flags only at start, so the process replaces itself (execve: same pid, signals
// unchanged) with them. An explicit --max-semi-space-size leaves them alone;
// CONSIGNA_NODE_FLAGS replaces them (`none`: V8's defaults).
const tuned = process.execArgv.some((arg) => arg.startsWith('--max-semi-space-size'));
const flags = process.env.CONSIGNA_NODE_FLAGS?.trim() || '--max-semi-space-size=16 --max-old-space-size=160';
if (!tuned && flags !== 'none' && typeof process.execve === 'function') {
  process.execve(
    process.execPath,
    [process.execPath, ...flags.split(/\s+/), ...process.execArgv, ...process.argv.slice(1)],
    process.env,
  );
}
await import('../src/cli/main.ts');
