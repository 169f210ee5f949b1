// The SDK's compiled package (packages/sdk/dist), as `npm ci` at the repository's root
// builds it (the root's prepare) and `npm pack` rebuilds it (the package's prepack).
// Tests that use the package as a consumer would (the examples, the packed tarball)
// rebuild it first when src/ changed since, so that they never run a stale build. A
// directory lock keeps parallel test files from building (or packing) at once.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const SDK_DIR = path.resolve(import.meta.dirname, '../../packages/sdk');
const LOCK = path.join(SDK_DIR, '.build-lock');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const isFresh = (): boolean => {
  const built = path.join(SDK_DIR, 'dist/index.js');
  const inputs = Math.max(newestMtime(path.join(SDK_DIR, 'src')), fs.statSync(path.join(SDK_DIR, 'tsconfig.build.json')).mtimeMs);
  return fs.existsSync(built) && fs.existsSync(path.join(SDK_DIR, 'dist/openapi.d.ts')) && fs.statSync(built).mtimeMs >= inputs;
};

/** Runs `work` while no other test process builds or packs the SDK. */
export async function withSdkBuildLock<T>(work: () => T): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch {
      // A lock older than two minutes belongs to a run that died.
      const lock = fs.statSync(LOCK, { throwIfNoEntry: false });
      if (lock && Date.now() - lock.mtimeMs > 120_000) fs.rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('timed out waiting for another SDK build');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

export async function ensureSdkBuilt(): Promise<void> {
  if (isFresh()) return;
  await withSdkBuildLock(() => {
    if (!isFresh()) execFileSync(process.execPath, [path.join(SDK_DIR, 'scripts/build.mjs')], { stdio: 'pipe' });
  });
}
