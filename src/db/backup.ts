// Backups of the embedded database (README "Backups"): `consigna backup FILE` writes the
// data folder as one gzipped tar, from the running service (asked over a socket in the
// data folder: only one process may open it) or, with the service stopped, by opening it;
// `consigna restore FILE` unpacks one into an empty data folder. The master key is not in
// the backup: keep master.key (or CONSIGNA_MASTER_KEY) apart from it, and restore with it.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Database } from './database.ts';
import { OwnerOnlyNodeFS } from './data-dir-permissions.ts';

export const CONTROL_SOCKET = 'control.sock';

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

/**
 * The running service's side: a Unix socket in the data folder (owner only) that takes
 * one line, `{"backup":"/absolute/file"}`, and answers `{"bytes":n}` or `{"error":"…"}`.
 */
export async function serveControlSocket(dataDir: string, database: Database): Promise<() => Promise<void>> {
  const socketPath = path.join(dataDir, CONTROL_SOCKET);
  fs.rmSync(socketPath, { force: true }); // left by a process that died; the data-folder lock says we own the folder
  const server = net.createServer((socket) => {
    let input = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      input += chunk;
      if (input.length > 8192) return socket.destroy();
      if (!input.includes('\n')) return;
      const answer = (value: unknown) => socket.end(`${JSON.stringify(value)}\n`);
      let request: { backup?: unknown };
      try {
        request = JSON.parse(input.slice(0, input.indexOf('\n'))) as { backup?: unknown };
      } catch {
        return answer({ error: 'pedido inválido' });
      }
      if (typeof request.backup !== 'string' || !path.isAbsolute(request.backup)) return answer({ error: 'caminho inválido' });
      writeBackup(database, request.backup).then(
        (bytes) => answer({ bytes }),
        (error: Error) => answer({ error: error.message }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socketPath, { force: true });
    });
}

/** The CLI's side, while the service runs: asks it for the backup. */
export function requestBackup(dataDir: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path.join(dataDir, CONTROL_SOCKET));
    let output = '';
    socket.setEncoding('utf8');
    socket.setTimeout(120_000, () => socket.destroy(new BackupError('the service did not answer within 2 minutes')));
    socket.on('connect', () => socket.write(`${JSON.stringify({ backup: path.resolve(file) })}\n`));
    socket.on('data', (chunk: string) => (output += chunk));
    socket.on('error', (error) =>
      reject(new BackupError(`cannot reach the running service through ${CONTROL_SOCKET}: ${error.message}`)),
    );
    socket.on('end', () => {
      try {
        const answer = JSON.parse(output) as { bytes?: number; error?: string };
        if (answer.error !== undefined) reject(new BackupError(answer.error));
        else resolve(answer.bytes ?? 0);
      } catch {
        reject(new BackupError('the service gave no answer'));
      }
    });
  });
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
