import { describe, expect, it } from 'vitest';
import { validateWebhookUrl } from '../../src/webhooks/url-policy.ts';
import { inboxTokenOf } from '../../src/webhooks/inbox-address.ts';

const BASE = 'http://localhost:3000';
const strict = { allowInsecure: false, inboxBaseUrl: BASE };
const insecure = { allowInsecure: true, inboxBaseUrl: BASE };
const INBOX = `${BASE}/v1/sandbox/receptor/sbx_${'a1B2'.repeat(8)}`;

const messageOf = (raw: unknown, opts = strict) => {
  const result = validateWebhookUrl(raw, opts);
  return result.ok ? undefined : result.message;
};

describe('validateWebhookUrl: accepted', () => {
  it.each([
    'https://webhooks.exemplo.com.br/consigna',
    'https://api.example.com/hooks?canal=42',
    'https://api.example.com:443/hooks',
    'https://api.example.com:1025/hooks',
    'https://api.example.com:8443/hooks',
    'https://api.example.com:65535/',
    'https://münchen.de/hook',
    'https://a-b.c-d.io/',
    'https://API.Example.COM/Hook',
  ])('%s', (raw) => {
    const result = validateWebhookUrl(raw, strict);
    expect(result).toEqual({ ok: true, url: new URL(raw) });
  });

  it('returns the parsed URL, ready for delivery', () => {
    const result = validateWebhookUrl('https://API.Example.com:443/a?b=1', strict);
    expect(result.ok && result.url.href).toBe('https://api.example.com/a?b=1');
  });
});

describe('validateWebhookUrl: refused', () => {
  it('needs a string', () => {
    for (const raw of [undefined, null, 42, {}, ['https://a.com'], new URL('https://api.example.com')]) {
      expect(messageOf(raw)).toBe('A URL deve ser um texto.');
    }
    expect(messageOf('')).toBe('A URL não pode ser vazia.');
  });

  it('needs at most 2,048 characters', () => {
    const base = 'https://api.example.com/';
    expect(messageOf(base + 'a'.repeat(2048 - base.length))).toBeUndefined();
    expect(messageOf(base + 'a'.repeat(2049 - base.length))).toBe('A URL deve ter no máximo 2.048 caracteres.');
  });

  it.each([
    'not a url',
    'https://',
    'api.example.com/hook',
    '//api.example.com/',
    'https://exa mple.com/',
    'https://api.example.com:99999/',
  ])('refuses unparsable or spaced %j', (raw) => {
    expect(messageOf(raw)).toMatch(/^A URL (é inválida|não pode conter espaços)/);
  });

  it.each([' https://api.example.com/', 'https://api.example.com/\n', 'https://api.exa\tmple.com/'])(
    'refuses whitespace the parser would drop: %j',
    (raw) => {
      expect(messageOf(raw)).toBe('A URL não pode conter espaços nem caracteres de controle.');
    },
  );

  it.each([
    'http://api.example.com/',
    'ftp://api.example.com/',
    'ws://api.example.com/',
    'HTTP://api.example.com/',
    'javascript:alert(1)',
  ])('needs https: %s', (raw) => {
    expect(messageOf(raw)).toBe('A URL deve usar https.');
  });

  it.each(['https://user@api.example.com/', 'https://user:senha@api.example.com/', 'https://:senha@api.example.com/'])(
    'refuses credentials: %s',
    (raw) => {
      expect(messageOf(raw)).toBe('A URL não pode conter usuário ou senha.');
    },
  );

  it.each([
    'https://127.0.0.1/',
    'https://10.0.0.5/',
    'https://8.8.8.8/',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://0x7f.1/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://%31%32%37.0.0.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[2606:4700:4700::1111]/',
    'https://[fe80::1]/',
  ])('refuses IP literals, in any spelling: %s', (raw) => {
    expect(messageOf(raw)).toBe('A URL deve usar um nome de domínio público, não um endereço IP.');
  });

  it.each(['https://localhost/', 'https://LOCALHOST:8443/', 'https://app.localhost/', 'https://a.b.localhost/'])(
    'refuses localhost: %s',
    (raw) => {
      expect(messageOf(raw)).toMatch(/localhost|\.localhost/);
    },
  );

  it.each(['https://intranet/', 'https://receptor:8443/', 'https://com/'])('refuses single-label names: %s', (raw) => {
    expect(messageOf(raw)).toBe('A URL deve usar um nome de domínio público completo (ex.: webhooks.exemplo.com.br).');
  });

  it.each([
    ['https://printer.local/', 'local'],
    ['https://db.internal/', 'internal'],
    ['https://router.home.arpa/', 'arpa'],
    ['https://1.0.0.127.in-addr.arpa/', 'arpa'],
    ['https://nas.lan/', 'lan'],
    ['https://erp.corp/', 'corp'],
    ['https://tv.home/', 'home'],
    ['https://wiki.intranet/', 'intranet'],
    ['https://x.private/', 'private'],
    ['https://srv.localdomain/', 'localdomain'],
    ['https://api.test/', 'test'],
    ['https://api.example/', 'example'],
    ['https://x.invalid/', 'invalid'],
    ['https://abc.onion/', 'onion'],
    ['https://x.alt/', 'alt'],
  ])('refuses internal suffixes: %s', (raw, tld) => {
    expect(messageOf(raw)).toBe(`A URL deve usar um domínio público; nomes terminados em .${tld} são de uso interno.`);
  });

  it.each(['https://api.example.com./', 'https://localhost./'])('refuses a trailing dot: %s', (raw) => {
    expect(messageOf(raw)).toBe('O nome do servidor não pode terminar com ponto.');
  });

  it.each([
    'https://a..example.com/',
    'https://-a.example.com/',
    'https://a-.example.com/',
    'https://a*b.example.com/',
    `https://${'a'.repeat(64)}.com/`,
  ])('refuses malformed names: %s', (raw) => {
    expect(messageOf(raw)).toBe('O nome do servidor na URL é inválido.');
  });

  it.each([
    'https://api.example.com:1/',
    'https://api.example.com:80/',
    'https://api.example.com:442/',
    'https://api.example.com:444/',
    'https://api.example.com:1024/',
  ])('refuses privileged ports other than 443: %s', (raw) => {
    expect(messageOf(raw)).toBe('A porta deve ser 443 ou maior que 1024.');
  });
});

describe('validateWebhookUrl: development switch', () => {
  // docs/rules.md §5: the switch allows http and loopback targets, nothing more.
  it.each([
    'http://127.0.0.1:4000/hook',
    'http://127.1.2.3/hook',
    'http://localhost:4000/hook',
    'http://api.localhost:80/hook',
    'http://[::1]:4000/',
    'http://[::ffff:7f00:1]:4000/',
    'https://localhost/',
    'http://webhooks.exemplo.com.br/consigna',
  ])('allows %s', (raw) => {
    expect(validateWebhookUrl(raw, insecure)).toEqual({ ok: true, url: new URL(raw) });
  });

  it.each([
    ['http://receptor/hook', 'A URL deve usar um nome de domínio público completo (ex.: webhooks.exemplo.com.br).'],
    ['http://printer.local/', 'A URL deve usar um domínio público; nomes terminados em .local são de uso interno.'],
    ['https://10.0.0.5/', 'A URL deve usar um nome de domínio público, não um endereço IP.'],
    ['https://8.8.8.8/hook', 'A URL deve usar um nome de domínio público, não um endereço IP.'],
    ['http://[fe80::1]:4000/', 'A URL deve usar um nome de domínio público, não um endereço IP.'],
    ['https://webhooks.exemplo.com.br:80/', 'A porta deve ser 443 ou maior que 1024.'],
  ])('still refuses %s', (raw, message) => {
    expect(messageOf(raw, insecure)).toBe(message);
  });

  it('still refuses other schemes, credentials, non-strings and long URLs', () => {
    expect(messageOf('ftp://127.0.0.1/', insecure)).toBe('A URL deve usar https.');
    expect(messageOf('http://u:p@127.0.0.1:4000/', insecure)).toBe('A URL não pode conter usuário ou senha.');
    expect(messageOf(7, insecure)).toBe('A URL deve ser um texto.');
    expect(messageOf(`http://127.0.0.1/${'a'.repeat(2100)}`, insecure)).toBe('A URL deve ter no máximo 2.048 caracteres.');
  });
});

describe('validateWebhookUrl: the service test inbox', () => {
  it('is accepted even over http on localhost', () => {
    expect(validateWebhookUrl(INBOX, strict)).toEqual({ ok: true, url: new URL(INBOX) });
    expect(inboxTokenOf(INBOX, BASE)).toBe(`sbx_${'a1B2'.repeat(8)}`);
  });

  it('tolerates a trailing slash on the base', () => {
    expect(inboxTokenOf(INBOX, `${BASE}/`)).toBe(`sbx_${'a1B2'.repeat(8)}`);
  });

  it('is recognised with a query (every spelling: inbox-address.test.ts)', () => {
    expect(inboxTokenOf(`${INBOX}?x=1`, BASE)).toBe(`sbx_${'a1B2'.repeat(8)}`);
    expect(validateWebhookUrl(`${INBOX}?x=1`, strict).ok).toBe(true);
  });

  it.each([
    [`${BASE}/v1/sandbox/receptor/abc`, 'no sbx_ token'],
    [`${BASE}/v1/sandbox/receptor/sbx_`, 'empty token'],
    [`${INBOX}/modo`, 'a sub-path'],
    [`http://localhost:3001/v1/sandbox/receptor/sbx_abc`, 'another port'],
    [`http://evil.example.com/v1/sandbox/receptor/sbx_abc`, 'another host'],
    [`http://localhost:3000.evil.com/v1/sandbox/receptor/sbx_abc`, 'a look-alike host'],
  ])('is not confused with %s (%s)', (raw) => {
    expect(inboxTokenOf(raw, BASE)).toBeUndefined();
    expect(validateWebhookUrl(raw, strict).ok).toBe(false);
  });
});
