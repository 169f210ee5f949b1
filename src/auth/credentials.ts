// Where the client credentials come from: the Basic header (recommended) or the
// form body, never both (docs/rules.md §1); and how a client secret is stored (only a
// keyed hash).
import type { Keys } from '../crypto/keys.ts';
import { AppError } from '../errors.ts';
import { isCleanText } from '../text/unicode.ts';

export interface Credentials {
  clientId: string;
  clientSecret: string;
  usedBasic: boolean;
}

export const hashClientSecret = (deps: { keys: Keys }, secret: string): Buffer => deps.keys.hash('client-secret', secret);

const invalidRequest = (message: string) => new AppError(400, 'invalid_request', message, { oauth: true });

// RFC 6749 §5.2: client authentication that is missing, incomplete or of another
// scheme is `invalid_client` (401), not a malformed request. The challenge names the
// scheme this endpoint takes whenever the client sent no credentials or sent them in
// the Authorization header; a failed body attempt gets none (docs/rules.md §1).
export const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="consigna", charset="UTF-8"' };
const clientAuthFailed = (message: string, challenge: boolean) =>
  new AppError(401, 'invalid_client', message, { oauth: true, headers: challenge ? BASIC_CHALLENGE : {} });

/**
 * Nothing here counts towards the brute-force guard: no secret was tried. Two
 * mechanisms at once stay `invalid_request` (RFC 6749 §5.2, docs/rules.md §1).
 */
export function readCredentials(authorization: string | undefined, body: Record<string, string | undefined>): Credentials {
  const inBody = body.client_id !== undefined || body.client_secret !== undefined;
  if (authorization !== undefined) {
    if (inBody) throw invalidRequest('Envie as credenciais no cabeçalho Basic ou no corpo, nunca nos dois.');
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon <= 0) {
      throw clientAuthFailed('Autenticação do cliente inválida: use Authorization: Basic base64(client_id:client_secret).', true);
    }
    return wellFormed({
      clientId: formDecode(decoded.slice(0, colon)),
      clientSecret: formDecode(decoded.slice(colon + 1)),
      usedBasic: true,
    });
  }
  if (!inBody) {
    throw clientAuthFailed(
      'Credenciais ausentes: envie o cabeçalho Authorization Basic ou client_id e client_secret no corpo.',
      true,
    );
  }
  if (!body.client_id || !body.client_secret) {
    throw clientAuthFailed('Credenciais incompletas: envie client_id e client_secret.', false);
  }
  return wellFormed({ clientId: body.client_id, clientSecret: body.client_secret, usedBasic: false });
}

// Issued ids and secrets are short base62 text. A value with a control character
// (NUL cannot even be sent to PostgreSQL as text), ill-formed UTF-16 or a length no
// credential has is malformed: refused before any query, and counted nowhere, since
// no real credential was tried.
const MAX_CREDENTIAL_LENGTH = 256;

function wellFormed(credentials: Credentials): Credentials {
  for (const [name, value] of [
    ['client_id', credentials.clientId],
    ['client_secret', credentials.clientSecret],
  ] as const) {
    if (value.length > MAX_CREDENTIAL_LENGTH || !isCleanText(value)) {
      throw invalidRequest(`${name} malformado: caracteres não permitidos ou comprimento acima de ${MAX_CREDENTIAL_LENGTH}.`);
    }
  }
  return credentials;
}

/** RFC 6749 §2.3.1: the Basic user and password are form-urlencoded before base64. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
