// The log of a one-shot command (channels, links, status, backup, restore): warnings and
// errors only, on stderr, so that stdout carries the command's own output alone (its
// --json is parsed by scripts) even when opening the data folder has something to say.
import { createLogger, type Logger } from '../observability/logger.ts';

export const commandLogger = (): Logger => createLogger('warn', process.stderr);
