// PUT/GET/DELETE /v1/marca and what the pages load of it (docs/rules.md §7.6): bad input
// stores nothing, the logo is sniffed and bounded, the colour is made readable, the name
// is escaped, and one channel's brand never shows on another's pages. Also the link's
// urlRetorno (§7.7) and its place in the idempotency fingerprint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import {
  jpegWithSecondFrame,
  makeJpeg,
  makePng,
  makeWebp,
  pngAnimated,
  pngHeaderClaiming,
  pngShortOfRows,
  pngWithBadFilter,
  pngWithDataAfterStream,
  pngWithHiddenRows,
  pngWithSecondHeader,
  webpCanvasHolding,
  withTrailer,
} from '../helpers/images.ts';
import { contrast } from '../../src/brand/colour.ts';
import { checkLogo } from '../../src/brand/logo.ts';
import { upsertBrandRow } from '../../src/brand/brand.repository.ts';

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
      // Blanks only (clean text, but naming no one), the Hangul fillers being letters (Lo).
      [{ ...good, nome: '\u2800\u2800\u2800' }, 400, 'nome_invalido'],
      [{ ...good, nome: '\u3164' }, 400, 'nome_invalido'],
      [{ ...good, nome: '\u115f\u1160\uffa0' }, 400, 'nome_invalido'],
      [{ ...good, nome: '\u200b\u00ad\u2003\u202f\u205f\u2062\u3000\ufe0f\u{e0041}' }, 400, 'nome_invalido'],
      [{ ...good, nome: '★ -- ★' }, 400, 'nome_invalido'],
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
      // Shapes the header cannot draw: wider than 8:1, taller than 1:4.
      [{ ...good, logo: makePng(1024, 1, [0, 0, 0]).toString('base64') }, 400, 'logo_invalido'],
      [{ ...good, logo: makePng(257, 32, [0, 0, 0]).toString('base64') }, 400, 'logo_invalido'],
      [{ ...good, logo: makePng(8, 33, [0, 0, 0]).toString('base64') }, 400, 'logo_invalido'],
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

  it('accepts a name with one visible letter or digit among blanks, trimmed', async () => {
    const response = await put(b, { nome: ' \u3164Loja 7\u2800 ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().nome).toBe('\u3164Loja 7\u2800');
  });

  it('reads the type and size of PNG, JPEG (baseline and progressive) and WebP (lossy, lossless, extended)', async () => {
    const images: Array<[Buffer, string]> = [
      [makePng(12, 7, [1, 2, 3]), 'image/png'],
      [await makeJpeg(12, 7, [1, 2, 3]), 'image/jpeg'],
      [await makeJpeg(12, 7, [1, 2, 3], { progressive: true }), 'image/jpeg'],
      [await makeWebp(12, 7, [1, 2, 3], 'lossy'), 'image/webp'],
      [await makeWebp(12, 7, [1, 2, 3], 'lossless'), 'image/webp'],
      [await makeWebp(12, 7, [1, 2, 3], 'alpha'), 'image/webp'],
      [makePng(256, 32, [1, 2, 3]), 'image/png'], // the widest shape, 8:1
      [makePng(8, 32, [1, 2, 3]), 'image/png'], // the tallest, 1:4
    ];
    for (const [bytes, type] of images) {
      const [width, height] = type === 'image/png' ? [bytes.readUInt32BE(16), bytes.readUInt32BE(20)] : [12, 7];
      expect(await checkLogo(bytes)).toEqual({ ok: true, logo: { type, width, height } });
    }
    for (const bytes of [Buffer.from('<svg/>'), Buffer.alloc(0), (await makeJpeg(12, 7, [1, 2, 3])).subarray(0, 12)]) {
      expect(await checkLogo(bytes)).toMatchObject({ ok: false });
    }
  });

  it('stores a JPEG and a WebP as sent and serves each with its type', async () => {
    for (const [bytes, type] of [
      [await makeJpeg(64, 32, [10, 90, 200], { progressive: true }), 'image/jpeg'],
      [await makeWebp(64, 32, [10, 90, 200], 'alpha'), 'image/webp'],
    ] as const) {
      const response = await put(b, { nome: 'Marca Boa', logo: bytes.toString('base64') });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().logo).toMatchObject({ tipo: type, largura: 64, altura: 32, bytes: bytes.length });
      const served = await service.inject({ method: 'GET', url: new URL(response.json().logo.url).pathname });
      expect([served.statusCode, served.headers['content-type'], served.headers['cache-control']]).toEqual([
        200,
        type,
        'public, max-age=31536000, immutable',
      ]);
      expect(served.rawPayload.equals(bytes)).toBe(true);
    }
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

// A logo says one size in its first header and holds another, or carries more than an
// image: each is refused whole (logo_invalido, with the reason in pt-BR), nothing stored.
describe('a logo is read to its last byte', () => {
  const refused = async (bytes: Buffer, reason: RegExp) => {
    const before = await get(b);
    const response = await put(b, { nome: 'Marca Boa', logo: bytes.toString('base64') });
    expect([response.statusCode, response.json().code], response.body).toEqual([400, 'logo_invalido']);
    expect(response.json().message).toMatch(reason);
    expect((await get(b)).body).toBe(before.body);
  };
  const png = makePng(96, 32, [200, 30, 30]);

  it('refuses a PNG with a second IHDR of 30000×30000', async () => {
    await refused(pngWithSecondHeader(png, 30_000, 30_000), /^logo inválido: .*mais de um cabeçalho de imagem/);
  });

  it('refuses a JPEG with a second start-of-frame of 60000×60000', async () => {
    const jpeg = await makeJpeg(96, 32, [200, 30, 30]);
    await refused(jpegWithSecondFrame(jpeg, 60_000, 60_000), /mais de um cabeçalho de imagem/);
  });

  it('refuses a WebP whose 1×1 canvas (VP8X) holds a 16384×16384 image', async () => {
    await refused(await webpCanvasHolding(1, 16_384, 16_384), /declarado \(1×1 pixels\) difere .*16384×16384/);
  });

  it('refuses a PNG with an HTML document after IEND, and any format with bytes after its end', async () => {
    const html = '<html><body><script>alert(document.domain)</script></body></html>';
    await refused(withTrailer(png, html), new RegExp(`há ${Buffer.byteLength(html)} bytes depois do fim da imagem`));
    await refused(withTrailer(await makeJpeg(96, 32, [1, 2, 3]), 'x'), /há 1 bytes depois do fim/);
    await refused(withTrailer(await makeWebp(96, 32, [1, 2, 3]), 'xy'), /há 2 bytes depois do fim/);
  });

  it('refuses a PNG whose compressed data holds more than its declared rows, or bytes after its zlib stream', async () => {
    await refused(pngWithHiddenRows(96, 32, 32), /sobram ou faltam linhas/);
    await refused(pngWithDataAfterStream(96, 32, '<html>oculto</html>'), /sobram ou faltam linhas/);
    // Interlaced or not, palette or RGBA, 8 or 16 bits: a PNG that holds what it declares passes.
    for (const png of [
      await sharp(makePng(97, 33, [1, 2, 3]))
        .png({ progressive: true })
        .toBuffer(),
      await sharp(makePng(97, 33, [1, 2, 3]))
        .png({ palette: true })
        .toBuffer(),
      await sharp(makePng(97, 33, [1, 2, 3]))
        .png({ palette: true, colours: 2, progressive: true })
        .toBuffer(),
      await sharp(makePng(97, 33, [1, 2, 3]))
        .ensureAlpha()
        .toColourspace('rgb16')
        .png()
        .toBuffer(),
      await sharp(makePng(97, 33, [1, 2, 3]))
        .toColourspace('b-w')
        .png({ progressive: true })
        .toBuffer(),
    ]) {
      expect(await checkLogo(png)).toEqual({ ok: true, logo: { type: 'image/png', width: 97, height: 33 } });
    }
  });

  it('refuses an animation, an EXIF rotation, missing rows, undecodable data and a declared bomb', async () => {
    await refused(pngAnimated(png), /animadas/);
    await refused(await makeJpeg(96, 32, [1, 2, 3], { orientation: 6 }), /orientação EXIF/);
    await refused(pngShortOfRows(96, 32, 16), /sobram ou faltam linhas/);
    await refused(pngWithBadFilter(96, 32), /não pôde ser decodificada/);
    // A complete PNG declaring 30000×30000 over a few hundred bytes: refused on its header.
    const bomb = pngShortOfRows(30_000, 30_000, 1);
    expect(bomb.length).toBeLessThan(16 * 1024);
    await refused(bomb, /30000×30000 pixels; o máximo é 1024×1024/);
    await refused(pngHeaderClaiming(30_000, 30_000), /incompleta ou malformada/);
  });

  it('draws a stored logo of any shape within 256×32 on the pages', async () => {
    // A shape refused today, stored before the rule: the page still draws it in the bound.
    const channel = await service.createChannel({ name: 'Canal Antigo' });
    const wide = makePng(1024, 1, [0, 0, 0]);
    await upsertBrandRow(service.ctx.database.db, {
      channel_id: channel.canalId,
      nome: 'Marca Antiga',
      cor: null,
      logo: wide,
      logo_type: 'image/png',
      logo_hash: 'a'.repeat(64),
      logo_width: 1024,
      logo_height: 1,
      updated_at: new Date(),
    });
    const link = (await createLinkVia(service, await service.bearer(channel), { cpf: VALID_CPFS[3] })).json();
    const page = (await new JourneyClient(service, link.url).page()).body;
    expect(page).toMatch(/<img class="logo" src="\/marca\/logo\/a{64}" alt="" width="256" height="32">/);
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
