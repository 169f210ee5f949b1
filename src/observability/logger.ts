// pino with redaction as the last line of defence: the code never passes secrets,
// tokens, link urls or CPFs to the logger, and these paths catch a slip.
import pino, { type DestinationStream, type Logger } from 'pino';

export const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  '*.authorization',
  'client_secret',
  '*.client_secret',
  '*.clientSecret',
  'clientSecret',
  '*.access_token',
  'access_token',
  '*.segredo',
  '*.secret',
  '*.token',
  '*.cpf',
  'cpf',
  '*.url',
  'url',
  '*.celular',
  '*.password',
  'databaseUrl',
  '*.databaseUrl',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'consigna' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

export type { Logger };
