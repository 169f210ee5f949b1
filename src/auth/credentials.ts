// Where the client credentials come from: the Basic header (recommended) or the
// form body, never both (decisions §1).
import { AppError } from '../errors.ts';

export interface Credentials {
  clientId: string;
  clientSecret: string;
  usedBasic: boolean;
}

const invalidRequest = (message: string) => new AppError(400, 'invalid_request', message, { oauth: true });

export function readCredentials(authorization: string | undefined, body: Record<string, string | undefined>): Credentials {
  const inBody = body.client_id !== undefined || body.client_secret !== undefined;
  if (authorization !== undefined) {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    if (!match) throw invalidRequest('Cabeçalho Authorization inválido: use Basic base64(client_id:client_secret).');
    if (inBody) throw invalidRequest('Envie as credenciais no cabeçalho Basic ou no corpo, nunca nos dois.');
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw invalidRequest('Cabeçalho Basic inválido: esperado base64(client_id:client_secret).');
    return {
      clientId: formDecode(decoded.slice(0, colon)),
      clientSecret: formDecode(decoded.slice(colon + 1)),
      usedBasic: true,
    };
  }
  if (!body.client_id || !body.client_secret) {
    throw invalidRequest('Credenciais ausentes: envie o cabeçalho Basic ou client_id e client_secret no corpo.');
  }
  return { clientId: body.client_id, clientSecret: body.client_secret, usedBasic: false };
}

/** RFC 6749 §2.3.1: the Basic user and password are form-urlencoded before base64. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
