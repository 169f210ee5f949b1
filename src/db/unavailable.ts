// Which failures mean "the database is not answering" (503 db_unavailable), as
// opposed to a bug in a query (500). Covers pg's socket errors, PostgreSQL's
// connection-exception and shutdown SQLSTATEs, pg-pool's timeouts, and the refusals
// of a new connection by a server that is up: the database does not exist (dropped, or
// being restored) or the service's credentials are refused (rotated). Those last are
// the operator's to fix, and the service cannot answer until they are, as when it is down.
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '3D000', // invalid_catalog_name: the database does not exist
  '28000', // invalid_authorization_specification
  '28P01', // invalid_password
]);

const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection terminated unexpectedly',
  'Query read timeout',
  'the database system is',
  'PGlite is closed',
];

export function isDbUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && (CODES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return true;
  if (error instanceof AggregateError) return error.errors.some(isDbUnavailable);
  return cause !== undefined && cause !== error && isDbUnavailable(cause);
}
