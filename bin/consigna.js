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
// webhook instead of 90 (scavenges), for 15 MB less RSS. An initial old space of
// 120 MB keeps V8 from sizing its first limits on the ~32 MB live at start: it then
// ran ~2.5 full collections a second under POST /v1/links (pauses of 4–17 ms, which
// set the endpoint's p99); with it, under 1 a second. In four A/B pairs (two of
// `npm run bench`, two closed-loop autocannon runs) the endpoint served 17–25 % more
// requests with a 20–45 % lower p99, for 16–35 MB more peak RSS (214–234 MB). V8 reads these flags only at start, so the process
// replaces itself (execve: same pid, signals unchanged) with them. An explicit
// --max-semi-space-size leaves them alone; CONSIGNA_NODE_FLAGS replaces them (`none`:
// V8's defaults).
//
// With the embedded database (no DATABASE_URL), also --liftoff-only: PostgreSQL compiled
// to WebAssembly runs on V8's baseline compiler only. Its optimising compiler, tiering up
// one function of 105 KB of wasm (function #2272, seen with --trace-wasm-compilation-times),
// took 604 MB of compiler memory for 666 ms, a second or two after start: the start-up
// peak of an embedded `serve` was 781 MiB on an existing data folder, 1,111 MiB on a fresh
// one (initdb); with --liftoff-only, 229 and 609 MiB. The cost is the database's speed
// (bench/README.md "Embedded memory" has the figures). PostgreSQL mode loads no
// WebAssembly. Nor does the embedded mode take the initial old space: initdb, on a fresh
// data folder, then peaked at 610 MiB instead of 577, and in two A/B pairs of the embedded
// bench it bought nothing (POST /v1/links 685 and 772 req/s with it, 806 and 801 without):
// there the database, not V8's collections, bounds the speed.
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
