// Backups of the embedded database (README "Backups"): `consigna backup FILE` writes the
// data folder as one gzipped tar, from the running service (asked over its control
// socket, control-socket.ts: only one process may open the folder) or, with the service
// stopped, by opening it; `consigna restore FILE` unpacks one into an empty data folder.
// The master key is not in the backup: keep master.key (or CONSIGNA_MASTER_KEY) apart
// from it, and restore with it.
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './database.ts';
import { OwnerOnlyNodeFS } from './data-dir-permissions.ts';
import { askControlSocket, type ControlHandler } from './control-socket.ts';

export class BackupError extends Error {}

/** Writes the dump to `file` whole or not at all (a temporary file renamed into place). */
export async function writeBackup(database: Database, file: string): Promise<number> {
  if (!database.dump)
    throw new BackupError('backup is for the embedded database; with PostgreSQL use pg_dump (README "Backups")');
  const bytes = await database.dump();
  const target = path.resolve(file);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, bytes, { mode: 0o600 });
    fs.renameSync(temporary, target);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return bytes.length;
}

/** The running service's side (control-socket.ts): `{"backup":"/absolute/file"}` answers `{"bytes":n}`. */
export const backupControl =
  (database: Database): ControlHandler =>
  async (file) => {
    if (typeof file !== 'string' || !path.isAbsolute(file)) throw new BackupError('caminho inválido');
    return { bytes: await writeBackup(database, file) };
  };

/** The CLI's side, while the service runs: asks it for the backup. */
export async function requestBackup(dataDir: string, file: string): Promise<number> {
  try {
    const answer = await askControlSocket(dataDir, { backup: path.resolve(file) }, 120_000);
    return typeof answer.bytes === 'number' ? answer.bytes : 0;
  } catch (error) {
    throw new BackupError((error as Error).message);
  }
}

/** Unpacks a backup into `dataDir`, which must be empty or absent. */
export async function restoreBackup(file: string, dataDir: string): Promise<void> {
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new BackupError(`${dataDir} is not empty: restore into an empty data folder`);
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    throw new BackupError(`cannot read ${file}`);
  }
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw new BackupError(`${file} is not a Consigna backup`);
  const { PGlite } = await import('@electric-sql/pglite');
  try {
    // Every file unpacked is its owner's only, whatever modes the archive recorded.
    const pglite = await PGlite.create({
      fs: new OwnerOnlyNodeFS(dataDir),
      loadDataDir: new Blob([new Uint8Array(bytes)], { type: 'application/x-gzip' }),
    });
    await pglite.query('select 1');
    await pglite.close();
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new BackupError(`${file} could not be restored: ${(error as Error).message}`);
  }
}
