// PUT/GET/DELETE /v1/marca and what the pages load of it (docs/rules.md §7.6): bad input
// stores nothing, the logo is sniffed and bounded, the colour is made readable, the name
// is escaped, and one channel's brand never shows on another's pages. Also the link's
// urlRetorno (§7.7) and its place in the idempotency fingerprint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { jpegHeader, makePng, pngHeaderClaiming, webpHeader } from '../helpers/images.ts';
import { contrast } from '../../src/brand/colour.ts';
import { readLogo } from '../../src/brand/logo.ts';

let service: TestService;
let a: Record<string, string>;
let b: Record<string, string>;

beforeAll(async () => {
  service = await startTestService();
  a = await service.bearer(await service.createChannel({ name: 'Canal A' }));
  b = await service.bearer(await service.createChannel({ name: 'Canal B' }));
});
afterAll(() => service?.close());

const put = (auth: Record<string, string>, body: unknown) =>
  service.inject({
    method: 'PUT',
    url: '/v1/marca',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const get = (auth: Record<string, string>) => service.inject({ method: 'GET', url: '/v1/marca', headers: auth });

const LOGO = makePng(96, 32, [200, 30, 30]);

describe('the brand API', () => {
  it('creates (201), replaces (200), shows and removes a brand; the pages load its logo and colour', async () => {
    expect((await get(a)).statusCode).toBe(404);
    const created = await put(a, { nome: '  Fintech Exemplo ', cor: '#1A73E8', logo: LOGO.toString('base64') });
    expect(created.statusCode, created.body).toBe(201);
    const brand = created.json();
    expect(brand).toEqual({
      nome: 'Fintech Exemplo',
      cor: '#1a73e8',
      corAplicada: expect.stringMatching(/^#[0-9a-f]{6}$/),
      logo: {
        url: expect.stringMatching(/\/marca\/logo\/[0-9a-f]{64}$/),
        tipo: 'image/png',
        largura: 96,
        altura: 32,
        bytes: LOGO.length,
      },
      atualizadoEm: expect.any(String),
    });
    expect((await get(a)).json()).toEqual(brand);

    // The logo, served by us, byte for byte, cached for good, never sniffed as anything else.
    const logo = await service.inject({ method: 'GET', url: new URL(brand.logo.url).pathname });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['cache-control']).toContain('immutable');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(logo.rawPayload.equals(LOGO)).toBe(true);
    expect((await service.inject({ method: 'GET', url: `/marca/logo/${'0'.repeat(64)}` })).statusCode).toBe(404);
    expect((await service.inject({ method: 'GET', url: '/marca/logo/../../etc/passwd' })).statusCode).toBe(404);

    // The page's stylesheet for the colour; whatever the address says, the colour it sets is readable.
    const css = await service.inject({ method: 'GET', url: `/marca/cor/${brand.corAplicada.slice(1)}.css` });
    expect(css.body).toContain(`--marca:${brand.corAplicada}`);
    const forged = await service.inject({ method: 'GET', url: '/marca/cor/ffff00.css' });
    const applied = /--marca:(#[0-9a-f]{6})/.exec(forged.body)![1]!;
    expect(contrast(applied, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect((await service.inject({ method: 'GET', url: '/marca/cor/red.css' })).statusCode).toBe(404);

    const replaced = await put(a, { nome: 'Fintech Exemplo 2' });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toEqual({ nome: 'Fintech Exemplo 2', corAplicada: '#0b6e4f', atualizadoEm: expect.any(String) });
    // A replaced logo is no longer served.
    expect((await service.inject({ method: 'GET', url: new URL(brand.logo.url).pathname })).statusCode).toBe(404);

    expect((await service.inject({ method: 'DELETE', url: '/v1/marca', headers: a })).statusCode).toBe(204);
    expect((await service.inject({ method: 'DELETE', url: '/v1/marca', headers: a })).statusCode).toBe(404);
    expect((await get(a)).statusCode).toBe(404);
  });

  it('refuses bad input with the field’s code and stores nothing', async () => {
    const good = { nome: 'Marca Boa', cor: '#123456', logo: LOGO.toString('base64') };
    expect((await put(b, good)).statusCode).toBe(201);
    const before = (await get(b)).json();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1').toString('base64');
    const cases: Array<[unknown, number, string]> = [
      [{ ...good, nome: '' }, 400, 'nome_invalido'],
      [{ ...good, nome: '   ' }, 400, 'nome_invalido'],
      [{ ...good, nome: 'x'.repeat(61) }, 400, 'nome_invalido'],
      [{ ...good, nome: 'Marca\u0007' }, 400, 'nome_invalido'],
      [{ ...good, nome: 'Marca\u202e' }, 400, 'nome_invalido'],
      [{ ...good, nome: 42 }, 400, 'nome_invalido'],
      [{ cor: '#123456' }, 400, 'nome_invalido'],
      [{ ...good, cor: 'red' }, 400, 'cor_invalida'],
      [{ ...good, cor: '#12345' }, 400, 'cor_invalida'],
      [{ ...good, cor: '#1234567' }, 400, 'cor_invalida'],
      [{ ...good, logo: 'não é base64!' }, 400, 'logo_invalido'],
      [{ ...good, logo: '' }, 400, 'logo_invalido'],
      [{ ...good, logo: svg }, 400, 'logo_invalido'],
      [{ ...good, logo: gif }, 400, 'logo_invalido'],
      [{ ...good, logo: Buffer.from('%PDF-1.7 not an image').toString('base64') }, 400, 'logo_invalido'],
      [{ ...good, logo: pngHeaderClaiming(30_000, 30_000).toString('base64') }, 400, 'logo_invalido'],
      [{ ...good, logo: makePng(1025, 1, [0, 0, 0]).toString('base64') }, 400, 'logo_invalido'],
      [{ ...good, logo: Buffer.concat([LOGO, Buffer.alloc(16 * 1024)]).toString('base64') }, 400, 'logo_muito_grande'],
      [{ ...good, extra: true }, 400, 'requisicao_invalida'],
    ];
    for (const [body, status, code] of cases) {
      const response = await put(b, body);
      expect([JSON.stringify(body).slice(0, 60), response.statusCode, response.json().code]).toEqual([
        JSON.stringify(body).slice(0, 60),
        status,
        code,
      ]);
      expect(response.json().message).toMatch(/[a-zãçé]/);
    }
    expect((await get(b)).json()).toEqual(before);
  });

  it('reads the type and size from the bytes of PNG, JPEG and WebP', () => {
    expect(readLogo(makePng(12, 7, [1, 2, 3]))).toEqual({ type: 'image/png', width: 12, height: 7 });
    expect(readLogo(jpegHeader(300, 80))).toEqual({ type: 'image/jpeg', width: 300, height: 80 });
    expect(readLogo(webpHeader(64, 48))).toEqual({ type: 'image/webp', width: 64, height: 48 });
    expect(readLogo(Buffer.from('<svg/>'))).toBeUndefined();
    expect(readLogo(Buffer.alloc(0))).toBeUndefined();
    expect(readLogo(jpegHeader(300, 80).subarray(0, 12))).toBeUndefined();
  });

  it('escapes the name on every page, and shows each channel only its own brand', async () => {
    expect((await put(a, { nome: '<img src=x onerror=alert(1)> "Loja" & Cia', cor: '#ffd400' })).statusCode).toBe(201);
    const linkA = (await createLinkVia(service, a, { cpf: VALID_CPFS[0] })).json();
    const linkB = (await createLinkVia(service, b, { cpf: VALID_CPFS[1] })).json();
    const pageA = (await new JourneyClient(service, linkA.url).page()).body;
    expect(pageA).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;Loja&quot; &amp; Cia');
    expect(pageA).not.toContain('<img src=x');
    expect(pageA).toContain('Oferecido por <strong>&lt;img src=x');
    expect(pageA).not.toContain('Marca Boa');
    const pageB = (await new JourneyClient(service, linkB.url).page()).body;
    expect(pageB).toContain('Marca Boa');
    expect(pageB).not.toContain('Loja');
    // Each page links only its own channel's logo and colour.
    const logoB = (await get(b)).json().logo.url as string;
    expect(pageB).toContain(new URL(logoB).pathname);
    expect(pageA).not.toContain(new URL(logoB).pathname);
  });
});

describe('urlRetorno on POST /v1/links', () => {
  const create = (body: Record<string, unknown>, key?: string) => createLinkVia(service, a, { cpf: VALID_CPFS[2], ...body }, key);

  it('is kept, shown, and part of the Idempotency-Key fingerprint', async () => {
    const url = 'https://app.exemplo.com.br/volta?pedido=7#fim';
    const first = await create({ urlRetorno: url }, 'chave-retorno-0001');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().urlRetorno).toBe(url);
    expect((await service.inject({ method: 'GET', url: `/v1/links/${first.json().id}`, headers: a })).json().urlRetorno).toBe(
      url,
    );
    const replay = await create({ urlRetorno: url }, 'chave-retorno-0001');
    expect([replay.statusCode, replay.json().id]).toEqual([200, first.json().id]);
    for (const other of [{ urlRetorno: 'https://app.exemplo.com.br/outra' }, {}]) {
      const conflict = await create(other, 'chave-retorno-0001');
      expect([conflict.statusCode, conflict.json().code]).toEqual([409, 'idempotency_key_conflito']);
    }
    // A key used without urlRetorno still replays without it.
    const plain = await create({}, 'chave-retorno-0002');
    expect(plain.statusCode).toBe(201);
    expect(plain.json().urlRetorno).toBeUndefined();
    expect((await create({}, 'chave-retorno-0002')).statusCode).toBe(200);
    expect((await create({ urlRetorno: url }, 'chave-retorno-0002')).statusCode).toBe(409);
  });

  it('refuses what is not an https address a browser can be sent to', async () => {
    const bad = [
      'http://app.exemplo.com.br/volta',
      'javascript:alert(1)',
      'data:text/html,<b>oi</b>',
      'ftp://exemplo.com.br/',
      'https://usuario:senha@exemplo.com.br/',
      'https://exemplo.com.br/com espaço',
      'https://exemplo.com.br/\u0000',
      'https://exemplo.com.br/\u202e',
      `https://exemplo.com.br/${'a'.repeat(2030)}`,
      'exemplo.com.br/volta',
      '',
      42,
    ];
    for (const urlRetorno of bad) {
      const response = await create({ urlRetorno });
      expect([String(urlRetorno).slice(0, 40), response.statusCode, response.json().code]).toEqual([
        String(urlRetorno).slice(0, 40),
        400,
        'url_retorno_invalida',
      ]);
    }
  });
});
