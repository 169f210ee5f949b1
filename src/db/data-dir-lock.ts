// PGlite is one process's database: two processes opening one data folder would
// corrupt it. A pid file taken with O_EXCL makes the second one stop with a clear
// message instead; a file left by a dead process is taken over.
import fs from 'node:fs';
import path from 'node:path';
import { makeOwnerOnlyDir } from './data-dir-permissions.ts';

export class DataDirBusyError extends Error {
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    super(
      `The data folder ${dataDir} is in use by another Consigna process (pid ${pid}). ` +
        'Stop the service before running this command, or use PostgreSQL (DATABASE_URL), where commands run at any time.',
    );
    this.pid = pid;
  }
}

export function lockDataDir(dataDir: string): () => void {
  makeOwnerOnlyDir(dataDir);
  const file = path.join(dataDir, 'consigna.pid');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
      throw new DataDirBusyError(dataDir, pid);
    }
    fs.rmSync(file, { force: true });
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
