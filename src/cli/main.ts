// The `consigna` command line: run the service's roles, apply migrations and manage
// channels. Operator-facing text is English; channel-facing text elsewhere is pt-BR.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config/config.ts';
import { DataDirBusyError } from '../db/data-dir-lock.ts';
import { isDbUnavailable } from '../db/unavailable.ts';

// Each command loads only its own modules: an operator's `channels list` or `--help`
// does not pay for the HTTP server and the worker.

const USAGE = `Usage: consigna <command>

Service:
  serve [--demo]        API, hosted pages, docs, webhook worker and sweeper in one process
                        (--demo creates a demo channel on the first start and prints its credentials)
  api                   HTTP only (API, hosted pages, docs)
  worker                webhook delivery only
  migrate               apply database migrations and exit
  status [--json]       delivery queue, failing channels, the sweeper's last round, database size by table
  backup FILE           embedded database: the data folder as one file, while the service runs or stopped
  restore FILE [--key master.key]
                        embedded database: a backup into an empty data folder (CONSIGNA_DATA_DIR)

Channels:
  channels create --name NAME [--name NAME]... [--allow-ip CIDR]... [--json]
  channels create --count N [--name-prefix PREFIX] [--allow-ip CIDR]... [--json]
                                  up to 1000 channels in one command (PREFIX-001 …, default prefix canal);
                                  --json prints an array when --count or several --name are given
  channels list [--json]
  channels deactivate ID
  channels activate ID
  channels rotate-secret ID [--json]
  channels health [--json]        each channel's webhook endpoint: failures in a row, contained,
                                  last success, last failure and why, pending and failed deliveries
  channels brand ID [--name NAME [--color #RRGGBB] [--logo FILE]] [--remove] [--json]
                                  the channel's brand on the customer's pages (shown without --name)
  channels portal ID [--leitura] [--json]
                                  a single-use link (10 minutes) into the channel's portal;
                                  --leitura: a read-only session

  With the embedded database, while the service runs, these are carried out by it (data/control.sock).

Links:
  links consent LINK_ID [--json]  the customer's consent to the bank query: text and version,
                                  time, IP and user agent (evidence for the bank)

Configuration comes from environment variables; see README.md.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({ args: rest, options: { demo: { type: 'boolean', default: false } } });
      const { runServe } = await import('./serve.command.ts');
      return runServe(config, { api: true, worker: true, sweeper: true }, { demo: values.demo ?? false });
    }
    case 'api':
      return (await import('./serve.command.ts')).runServe(config, { api: true, worker: false, sweeper: true }, { demo: false });
    case 'worker':
      return (await import('./serve.command.ts')).runServe(config, { api: false, worker: true, sweeper: true }, { demo: false });
    case 'migrate':
      return runMigrate(config);
    case 'channels':
      return (await import('./channels.command.ts')).runChannelsCommand(config, rest);
    case 'links':
      return (await import('./links.command.ts')).runLinksCommand(config, rest);
    case 'status':
      return (await import('./status.command.ts')).runStatusCommand(config, rest);
    case 'backup':
      return (await import('./backup.command.ts')).runBackupCommand(config, rest);
    case 'restore':
      return (await import('./backup.command.ts')).runRestoreCommand(config, rest);
    default:
      console.error(`Unknown command: ${command}\n\n${USAGE}`);
      return 1;
  }
}

async function runMigrate(config: Config): Promise<number> {
  const { openContext } = await import('../server.ts');
  const ctx = await openContext(config, { log: undefined });
  await ctx.release();
  console.log('Migrations applied.');
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else if (error instanceof DataDirBusyError || (await isInputError(error))) {
    console.error(`Error: ${(error as Error).message}`);
  } else if (error instanceof Error && 'code' in error && (error as { code: unknown }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    console.error(`Error: ${error.message}\n\n${USAGE}`);
  } else {
    console.error(`Error: ${describeStartupError(error)}`);
  }
  process.exitCode = 1;
}

/** Errors whose message is for the operator as it stands (their modules are loaded if thrown). */
async function isInputError(error: unknown): Promise<boolean> {
  if (!(error instanceof Error)) return false;
  const [{ ChannelInputError }, { BackupError }] = await Promise.all([
    import('../channels/channels.service.ts'),
    import('../db/backup.ts'),
  ]);
  return error instanceof ChannelInputError || error instanceof BackupError;
}

function describeStartupError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === '3D000') return 'the database named in DATABASE_URL does not exist';
  if (code === '28P01' || code === '28000') return 'the database refused the credentials in DATABASE_URL';
  if (isDbUnavailable(error)) return 'cannot reach the database: check DATABASE_URL and that PostgreSQL is running';
  return error instanceof Error ? error.message : String(error);
}
