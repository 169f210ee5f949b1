// An inbox URL is recognised by its token, whatever its spelling (docs/rules.md §5.5):
// property tests over URL variants a server routes to the same inbox (query, fragment,
// host case, default port, trailing and doubled slashes, percent-encoding with `%2F`,
// double encoding, dot segments, backslashes), then registration through the API on a
// public-looking PUBLIC_BASE_URL: another channel's inbox in any such spelling is
// `url_invalida`, the channel's own is its own inbox (delivered into it directly).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxTokenInPath, inboxTokenNamedBy, inboxTokenOf } from '../../src/webhooks/inbox-address.ts';
import { validateWebhookUrl } from '../../src/webhooks/url-policy.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { putWebhook } from './support.ts';
import { channelWithInbox, listEvents } from '../sandbox/support.ts';

const BASE = 'https://sandbox.consigna-teste.com.br';
const strict = { allowInsecure: false, inboxBaseUrl: BASE };
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const tokenArb = fc.array(fc.constantFrom(...BASE62), { minLength: 32, maxLength: 32 }).map((chars) => `sbx_${chars.join('')}`);

/** A character as written in a path: itself, or percent-encoded once or twice, in either hex case. */
const spelled = (char: string) =>
  fc.constantFrom('plain', 'lower', 'upper', 'double').map((how) => {
    const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
    if (how === 'plain') return char;
    if (how === 'lower') return `%${hex.toLowerCase()}`;
    if (how === 'upper') return `%${hex.toUpperCase()}`;
    return `%25${hex.toUpperCase()}`;
  });

const spelledSegment = (segment: string, caseFold: boolean) =>
  fc
    .tuple(...[...segment].map((char) => fc.tuple(fc.boolean(), spelled(char))))
    .map((chars) => chars.map(([upper, text]) => (caseFold && upper ? text.toUpperCase() : text)).join(''));

/** What a server treats as one `/` between two segments (the first one must end the host: no bare `%2F`). */
const leading = ['/', '//', '///', '/./', '/%2F', '/%2f', '\\', '/%5C', '/x/../', '/%2e/', '/x/%2E%2E/'];
const separator = fc.constantFrom(...leading, '%2F', '%2f', '%5c');

/** Every way of writing `token`'s inbox URL on BASE that still reaches that inbox. */
function variantOf(token: string) {
  return fc
    .record({
      host: fc.constantFrom('sandbox.consigna-teste.com.br', 'SANDBOX.Consigna-Teste.COM.BR', 'sandbox.consigna-teste.com.br.'),
      port: fc.constantFrom('', ':443'),
      separators: fc.tuple(fc.constantFrom(...leading), separator, separator, separator),
      segments: fc.tuple(spelledSegment('v1', true), spelledSegment('sandbox', true), spelledSegment('receptor', true)),
      token: spelledSegment(token, false),
      trailing: fc.constantFrom('', '/', '//', '/.', ';x=1', '%2F'),
      query: fc.constantFrom('', '?', '?x=1', '?a=1&b=%2F', '?url=https://outro.com.br/'),
      fragment: fc.constantFrom('', '#', '#topo'),
    })
    .map(({ host, port, separators: [s1, s2, s3, s4], segments: [v1, sandbox, receptor], token, trailing, query, fragment }) =>
      [`https://${host}${port}`, s1, v1, s2, sandbox, s3, receptor, s4, token, trailing, query, fragment].join(''),
    );
}

describe('inboxTokenOf: the inbox whatever the spelling', () => {
  it('recognises every variant of an inbox URL by its token, and the URL rules let it through as the inbox', () => {
    fc.assert(
      fc.property(
        tokenArb.chain((token) => fc.tuple(fc.constant(token), variantOf(token))),
        ([token, url]) => {
          expect(inboxTokenOf(url, BASE), url).toBe(token);
          expect(inboxTokenNamedBy(url), url).toBe(token);
          expect(validateWebhookUrl(url, strict).ok, url).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('names the token of a sub-path, or of the viewer, on any host (registration refuses another channel’s)', () => {
    const token = `sbx_${'a1B2'.repeat(8)}`;
    for (const url of [
      `${BASE}/v1/sandbox/receptor/${token}/modo`,
      `${BASE}/sandbox/receptor/${token}`,
      `${BASE}/sandbox/receptor/${token}/limpar`,
      `https://outro-nome.consigna-teste.com.br/v1/sandbox/receptor/${token}?x=1`,
      `https://proxy.canal.com.br//v1/sandbox/%72eceptor/${token}/`,
    ]) {
      expect(inboxTokenNamedBy(url), url).toBe(token);
    }
    // Not the inbox itself: these are not delivered into it.
    expect(inboxTokenOf(`${BASE}/v1/sandbox/receptor/${token}/modo`, BASE)).toBeUndefined();
    expect(inboxTokenOf(`https://outro-nome.consigna-teste.com.br/v1/sandbox/receptor/${token}`, BASE)).toBeUndefined();
  });

  it('reads the token of an inbox URL’s path on any host (one issued before the address changed)', () => {
    fc.assert(
      fc.property(
        tokenArb.chain((token) => fc.tuple(fc.constant(token), variantOf(token))),
        fc.constantFrom(
          'http://localhost:3000',
          'http://127.0.0.1:3111',
          'https://outro-nome.com.br:8443',
          'HTTP://Proxy.Canal.com.br.',
        ),
        ([token, url], origin) => {
          const moved = url.replace(/^https:\/\/[^/\\%]+/, origin);
          expect(inboxTokenInPath(moved), moved).toBe(token);
          expect(inboxTokenOf(moved, BASE), moved).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
    const token = `sbx_${'a1B2'.repeat(8)}`;
    // Only the inbox's own path: not a sub-path, not the viewer, not another scheme.
    for (const url of [
      `http://localhost:3000/v1/sandbox/receptor/${token}/modo`,
      `http://localhost:3000/sandbox/receptor/${token}`,
      `ftp://localhost/v1/sandbox/receptor/${token}`,
      `http://localhost:3000/v1/sandbox/receptor/${token}/..`,
    ]) {
      expect(inboxTokenInPath(url), url).toBeUndefined();
    }
  });

  it.each([
    [`${BASE}/v1/sandbox/receptor/abc`, 'no sbx_ token'],
    [`${BASE}/v1/sandbox/receptor/sbx_`, 'an empty token'],
    [`${BASE}/v1/sandbox/receptores/sbx_abc`, 'another path'],
    [`${BASE}/v2/sandbox/receptor/sbx_abc`, 'another version'],
    [`${BASE}/v1/sandbox/receptor/x/sbx_abc`, 'a segment between'],
    [`${BASE}/v1/sandbox/receptor/sbx_abc/..`, 'the token undone by a dot segment'],
    [`${BASE}:8443/v1/sandbox/receptor/sbx_abc`, 'another port'],
    [`http://sandbox.consigna-teste.com.br/v1/sandbox/receptor/sbx_abc`, 'the http port'],
    [`https://sandbox.consigna-teste.com.br.evil.com/v1/sandbox/receptor/sbx_abc`, 'a look-alike host'],
    [`ftp://sandbox.consigna-teste.com.br/v1/sandbox/receptor/sbx_abc`, 'another scheme'],
  ])('is not confused with %s (%s)', (raw) => {
    expect(inboxTokenOf(raw, BASE)).toBeUndefined();
  });
});

describe('registering an inbox URL, whatever its spelling', () => {
  let service: TestService;
  beforeAll(async () => {
    // A public-looking origin: a spelling not recognised as the inbox would pass the URL rules.
    service = await startTestService({ env: { PUBLIC_BASE_URL: BASE } });
  });
  afterAll(() => service?.close());

  it('refuses another channel’s inbox in any spelling with url_invalida, and stores nothing', async () => {
    const victim = await channelWithInbox(service);
    const { json, auth } = await channelWithInbox(service);
    const fixed = [
      `${victim.inbox.url}?x=1`,
      `${victim.inbox.url}/`,
      `${victim.inbox.url}#x`,
      victim.inbox.url.replace('sandbox.consigna', 'SANDBOX.Consigna'),
      victim.inbox.url.replace('/receptor/', '//receptor/'),
      victim.inbox.url.replace('/receptor/', '/receptor%2F'),
      victim.inbox.url.replace('/v1/', '/v1/x/../'),
      victim.inbox.url.replace('.com.br/', '.com.br:443/'),
      victim.inbox.url.replace('sbx_', '%73bx_'),
      `${victim.inbox.url}/modo`,
      victim.inbox.visualizacaoUrl,
      victim.inbox.url.replace(BASE, 'https://outro-nome.consigna-teste.com.br'),
    ];
    const sampled = fc.sample(variantOf(victim.token), { numRuns: 20 });
    for (const url of [...fixed, ...sampled]) {
      const response = await putWebhook(service, json, { url });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
      expect(response.json().code).toBe('url_invalida');
    }
    expect((await service.inject({ method: 'GET', url: '/v1/webhooks', headers: auth })).statusCode).toBe(404);
  });

  it('takes the channel’s own inbox in another spelling as its own inbox, delivered into it', async () => {
    const own = await channelWithInbox(service);
    const registered = await putWebhook(service, own.json, {
      url: `${own.inbox.url.replace('sandbox.', 'Sandbox.')}/?origem=teste`,
    });
    expect(registered.statusCode, registered.body).toBe(201);
    rememberSecret(registered.json().segredo);
    const test = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: own.auth });
    expect(test.json()).toMatchObject({ entregue: true, httpStatus: 200 });
    expect((await listEvents(service, own.token)).eventos.map((e) => [e.tipo, e.assinaturaValida])).toEqual([
      ['webhook.teste', true],
    ]);
  });
});
