// `consigna backup FILE` and `consigna restore FILE` for the embedded database (README
// "Backups"). The backup holds the database, not the master key that sealed its secrets.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config/config.ts';
import { openContext } from '../server.ts';
import { commandLogger } from './command-log.ts';
import { DataDirBusyError } from '../db/data-dir-lock.ts';
import { BackupError, requestBackup, restoreBackup, writeBackup } from '../db/backup.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

export async function runBackupCommand(config: Config, argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  const file = positionals[0];
  if (!file) throw new BackupError('backup needs the FILE to write');
  if (config.databaseUrl)
    throw new BackupError('with PostgreSQL, back up with the database\'s own tools (pg_dump): README "Backups"');
  let bytes: number;
  try {
    const ctx = await openContext(config, { log: commandLogger() });
    try {
      bytes = await writeBackup(ctx.database, file);
    } finally {
      await ctx.release();
    }
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    bytes = await requestBackup(config.dataDir, file); // the service is running: it writes the backup
  }
  console.log(
    `Backup written to ${path.resolve(file)} (${kb(bytes)}). Keep ${path.join(config.dataDir, 'master.key')} (or CONSIGNA_MASTER_KEY) apart from it: restoring needs that key.`,
  );
  return 0;
}

export async function runRestoreCommand(config: Config, argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { key: { type: 'string' } } });
  const file = positionals[0];
  if (!file) throw new BackupError('restore needs the backup FILE');
  if (config.databaseUrl)
    throw new BackupError('restore is for the embedded database; with PostgreSQL use pg_restore (README "Backups")');
  const keyFile = values.key;
  let keyText: string | undefined;
  if (keyFile !== undefined) {
    try {
      keyText = fs.readFileSync(keyFile, 'utf8').trim();
    } catch {
      throw new BackupError(`cannot read the key file ${keyFile}`);
    }
    if (!/^[0-9a-f]{64}$/i.test(keyText)) throw new BackupError(`${keyFile} is not a master key (64 hex characters)`);
  } else if (!config.masterKey) {
    throw new BackupError('restore needs the key that sealed the data: --key path/to/master.key, or CONSIGNA_MASTER_KEY');
  }
  const dataDir = config.dataDir;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new BackupError(`${dataDir} is not empty: restore into an empty data folder (CONSIGNA_DATA_DIR)`);
  }
  await restoreBackup(file, path.join(dataDir, 'pglite'));
  if (keyText !== undefined) fs.writeFileSync(path.join(dataDir, 'master.key'), `${keyText}\n`, { mode: 0o600 });
  try {
    await checkKey(config);
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true }); // nothing half-restored is left to start from
    throw error;
  }
  console.log(`Restored ${path.resolve(file)} into ${dataDir}. Start the service as usual.`);
  return 0;
}

/** The key must open what the backup sealed; a wrong one would leave every secret unreadable. */
async function checkKey(config: Config): Promise<void> {
  const ctx = await openContext(config, { log: commandLogger() });
  try {
    const webhook = await ctx.database.db.selectFrom('webhooks').select('secret_sealed as value').limit(1).executeTakeFirst();
    const link = await ctx.database.db
      .selectFrom('links')
      .select('cpf_sealed as value')
      .where('cpf_sealed', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    const sealed = webhook?.value ?? link?.value;
    if (sealed) {
      try {
        ctx.keys.open(sealed);
      } catch {
        throw new BackupError("this key does not open the backup's sealed data: use the master key of the service that wrote it");
      }
    }
  } finally {
    await ctx.release();
  }
}
