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

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<Logger['info']>;

/**
 * A request's logger, made into a pino child only when the request logs at an
 * enabled level. pino formats a child's bindings through the redaction
 * stringifiers (the wildcard paths above walk every value): at LOG_LEVEL=warn
 * that was 11 % of every byte allocated under POST /v1/links, for loggers
 * nothing wrote to, and the garbage it made was part of the collector pauses
 * that set the p99. For Fastify's childLoggerFactory.
 */
export class LazyChildLogger {
  readonly #parent: Logger;
  readonly #bindings: Record<string, unknown>;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: Record<string, unknown>) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  static factory(this: void, parent: Logger, bindings: Record<string, unknown>, options: { level?: string }): Logger {
    // A route with its own log level needs the real child at once.
    if (options.level !== undefined) return parent.child(bindings, options);
    return new LazyChildLogger(parent, bindings) as unknown as Logger;
  }

  #real(): Logger {
    return (this.#child ??= this.#parent.child(this.#bindings));
  }

  get level(): string {
    return (this.#child ?? this.#parent).level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled(level);
  }

  #log(level: LevelName, args: LogArgs): void {
    if (this.isLevelEnabled(level)) this.#real()[level](...args);
  }

  fatal(...args: LogArgs): void {
    this.#log('fatal', args);
  }
  error(...args: LogArgs): void {
    this.#log('error', args);
  }
  warn(...args: LogArgs): void {
    this.#log('warn', args);
  }
  info(...args: LogArgs): void {
    this.#log('info', args);
  }
  debug(...args: LogArgs): void {
    this.#log('debug', args);
  }
  trace(...args: LogArgs): void {
    this.#log('trace', args);
  }
  silent(): void {}

  child(bindings: Record<string, unknown>, options?: { level?: string }): Logger {
    return this.#real().child(bindings, options);
  }

  bindings(): Record<string, unknown> {
    return this.#child ? this.#child.bindings() : { ...this.#parent.bindings(), ...this.#bindings };
  }
}
