// Registration-time rules for a webhook URL (docs/rules.md §5). These only judge the
// text: the addresses a name resolves to are checked again on every delivery
// (address-policy.ts, outbound.ts), because DNS can change after registration.
import { isIP } from 'node:net';
import { isLoopbackAddress } from './address-policy.ts';
import { inboxTokenOf } from './inbox-address.ts';
import { CLEAN_TEXT_RULE, isCleanText } from '../text/unicode.ts';

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

export interface UrlPolicyOptions {
  /** Development and tests only: allows http, and loopback hosts (any port). */
  allowInsecure: boolean;
  /** The service's public origin (PUBLIC_BASE_URL), without a trailing slash. */
  inboxBaseUrl: string;
  /**
   * The caller found that the URL's path is the registering channel's own inbox (its
   * token, on any host: own-inbox.ts), which is delivered in-process.
   */
  ownInbox?: boolean;
}

const MAX_LENGTH = 2048;

// Names that never lead to a public host: special-use names (RFC 6761, 6762, 8375,
// 9476), the ICANN-reserved private TLD `.internal`, the reverse-DNS tree, and the
// private suffixes home routers and corporate networks use by habit. A name under
// one of them is either unreachable from outside or reaches someone's LAN.
const FORBIDDEN_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'arpa',
  'test',
  'invalid',
  'example',
  'onion',
  'alt',
  'lan',
  'home',
  'corp',
  'intranet',
  'private',
  'localdomain',
];

export function validateWebhookUrl(raw: unknown, opts: UrlPolicyOptions): UrlCheck {
  if (typeof raw !== 'string') return fail('A URL deve ser um texto.');
  if (raw.length === 0) return fail('A URL não pode ser vazia.');
  if (raw.length > MAX_LENGTH) return fail('A URL deve ter no máximo 2.048 caracteres.');
  // WHATWG parsing silently drops surrounding spaces and tabs/newlines inside; the
  // stored URL must be exactly what the channel sent.
  if (/[\s\p{Cc}]/u.test(raw)) return fail('A URL não pode conter espaços nem caracteres de controle.');
  if (!isCleanText(raw)) return fail(`A URL contém caracteres não permitidos: use texto ${CLEAN_TEXT_RULE}.`);

  const url = parse(raw);
  if (!url) return fail('A URL é inválida.');
  // The caller delivers to its own inbox directly, so no network rule applies.
  if (opts.ownInbox || inboxTokenOf(raw, opts.inboxBaseUrl) !== undefined) return { ok: true, url };
  if (url.protocol !== 'https:' && !(opts.allowInsecure && url.protocol === 'http:')) {
    return fail('A URL deve usar https.');
  }
  if (url.username !== '' || url.password !== '') return fail('A URL não pode conter usuário ou senha.');
  // The development switch allows http and loopback targets (local receivers), and
  // nothing more: every other host still follows the rules below.
  if (opts.allowInsecure && isLoopbackHost(url.hostname)) return { ok: true, url };

  const hostProblem = hostnameProblem(url.hostname);
  if (hostProblem) return fail(hostProblem);
  // WHATWG leaves `port` empty for the scheme default, so an explicit :443 lands here as ''.
  if (url.port !== '' && Number(url.port) <= 1024) return fail('A porta deve ser 443 ou maior que 1024.');
  return { ok: true, url };
}

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  const literal = hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(literal) !== 0 && isLoopbackAddress(literal);
}

function hostnameProblem(hostname: string): string | undefined {
  // WHATWG already turned decimal, hex, octal and short IPv4 forms into dotted quads,
  // and IPv6 literals keep their brackets.
  if (hostname.startsWith('[') || isIP(hostname) !== 0) {
    return 'A URL deve usar um nome de domínio público, não um endereço IP.';
  }
  if (hostname.endsWith('.')) return 'O nome do servidor não pode terminar com ponto.';
  const labels = hostname.split('.');
  const tld = labels[labels.length - 1]!;
  if (tld === 'localhost') return 'A URL não pode apontar para localhost.';
  if (labels.length < 2) return 'A URL deve usar um nome de domínio público completo (ex.: webhooks.exemplo.com.br).';
  if (hostname.length > 253 || labels.some((l) => !/^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(l))) {
    return 'O nome do servidor na URL é inválido.';
  }
  if (FORBIDDEN_SUFFIXES.includes(tld)) {
    return `A URL deve usar um domínio público; nomes terminados em .${tld} são de uso interno.`;
  }
  return undefined;
}

function parse(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

const fail = (message: string): UrlCheck => ({ ok: false, message });
