// The embedded data folder holds the whole database (sealed secrets beside keyed hashes,
// the master key, the backups' source): its owner alone may read it. Folders 0700, files
// 0600, for new installs and, on start, for existing ones.
//
// Why not a process umask: PGlite's Emscripten layer creates each file and then chmods it
// to the mode PostgreSQL asked for (0666 in its build), and chmod is not subject to the
// umask: under umask 077 a new data folder still had 968 files at 0666. A umask would also
// be process-wide (every file and socket of the process, worker threads refuse it). So the
// filesystem PGlite writes through drops the group and other bits of every mode it sets,
// for the files it creates now and later (WAL segments, relations), and start-up tightens
// what an older version, a restore or an operator left looser.
import fs from 'node:fs';
import path from 'node:path';
import { NodeFS } from '@electric-sql/pglite/nodefs';

const GROUP_AND_OTHER = 0o077;

export interface Tightened {
  /** Files and folders whose group or other permissions were removed. */
  changed: number;
  /** Entries that could not be changed (another owner's file): still open to others. */
  failed: number;
}

/**
 * Removes the group and other permissions of `dir` and of everything under it (symbolic
 * links are neither followed nor changed). Call it while no process writes there.
 */
export function restrictToOwner(dir: string): Tightened {
  const result: Tightened = { changed: 0, failed: 0 };
  const visit = (entry: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      return; // gone meanwhile
    }
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & GROUP_AND_OTHER) !== 0) {
      try {
        fs.chmodSync(entry, stat.mode & 0o7700 & ~GROUP_AND_OTHER);
        result.changed += 1;
      } catch {
        result.failed += 1;
      }
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return result;
}

/** A folder for the embedded database, created (or left) readable by its owner only. */
export function makeOwnerOnlyDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dir).mode;
  if ((mode & GROUP_AND_OTHER) !== 0) fs.chmodSync(dir, mode & 0o7700 & ~GROUP_AND_OTHER);
}

type EmscriptenOptions = Parameters<NodeFS['init']>[1];
type PreRun = NonNullable<EmscriptenOptions['preRun']>[number];

/** PGlite's Node filesystem, except that every mode it gives a file or folder loses its group and other bits. */
export class OwnerOnlyNodeFS extends NodeFS {
  constructor(dataDir: string) {
    makeOwnerOnlyDir(dataDir);
    super(dataDir);
  }

  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(...args);
    // First, so that nothing is created before the modes are masked.
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [maskModes, ...(emscriptenOpts.preRun ?? [])] } };
  }
}

/**
 * Masks the modes at Emscripten's documented FS API: mknod makes every file and folder
 * (open, mkdir and create call it), chmod and fchmod change them afterwards. Inside
 * Emscripten there is one user, so the bits removed grant nothing there.
 */
const maskModes: PreRun = (mod) => {
  const api = mod.FS as unknown as {
    mknod(target: string, mode: number, dev: number): unknown;
    chmod(target: unknown, mode: number, dontFollow?: boolean): unknown;
    fchmod(fd: number, mode: number): unknown;
  };
  const { mknod, chmod, fchmod } = api;
  api.mknod = (target, mode, dev) => mknod.call(api, target, mode & ~GROUP_AND_OTHER, dev);
  api.chmod = (target, mode, dontFollow) => chmod.call(api, target, mode & ~GROUP_AND_OTHER, dontFollow);
  api.fchmod = (fd, mode) => fchmod.call(api, fd, mode & ~GROUP_AND_OTHER);
};
