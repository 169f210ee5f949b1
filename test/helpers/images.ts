// Real images for the brand tests, built when the test runs (no fixtures to keep in sync):
// a PNG of any size and colour byte by byte, JPEG and WebP encoded by sharp, and crafted
// files whose headers say one thing while the file holds another.
import zlib from 'node:zlib';
import sharp from 'sharp';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return chunk('IHDR', header);
}

/** An RGB PNG of `raw` scanlines (each a filter byte, 0, then the row's RGB bytes). */
function rgbPng(width: number, height: number, raw: Buffer, level?: number): Buffer {
  const idat = zlib.deflateSync(raw, level === undefined ? {} : { level });
  return Buffer.concat([SIGNATURE, ihdr(width, height), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** A valid RGB PNG filled with one colour. */
export function makePng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  return rgbPng(width, height, Buffer.concat(Array.from({ length: height }, () => row)));
}

/**
 * A valid RGB PNG of seeded noise (mulberry32): it compresses badly, so it stands for a
 * heavy logo, and the same seed gives the same bytes on every run (bench/pages.bench.ts).
 */
export function noisyPng(width: number, height: number, seed = 1): Buffer {
  let state = seed >>> 0;
  const nextByte = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) & 0xff;
  };
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) for (let i = 1; i < stride; i++) raw[y * stride + i] = nextByte();
  return rgbPng(width, height, raw, 9);
}

/** A PNG header claiming `width`×`height` (a decompression bomb's shape), with no real picture. */
export function pngHeaderClaiming(width: number, height: number): Buffer {
  return Buffer.concat([SIGNATURE, ihdr(width, height), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A complete PNG (IHDR, IDAT, IEND) declaring `width`×`height` whose IDAT holds only
 * `rows` black rows: a picture cut short, or, with a large claim, a decompression bomb's
 * shape in a few hundred bytes.
 */
export function pngShortOfRows(width: number, height: number, rows: number): Buffer {
  return rgbPng(width, height, Buffer.alloc(rows * (1 + width * 3)), 9);
}

/**
 * A PNG whose IHDR declares `width`×`height` while its IDAT holds `extraRows` more rows:
 * decoders stop at the declared rows, the rest travels unseen.
 */
export function pngWithHiddenRows(width: number, height: number, extraRows: number): Buffer {
  const png = pngShortOfRows(width, height + extraRows, height + extraRows);
  return Buffer.concat([SIGNATURE, ihdr(width, height), png.subarray(8 + 12 + 13)]);
}

/** A valid PNG whose IDAT carries `hidden` after the end of its zlib stream. */
export function pngWithDataAfterStream(width: number, height: number, hidden: string): Buffer {
  const raw = Buffer.alloc(height * (1 + width * 3));
  const idat = Buffer.concat([zlib.deflateSync(raw), Buffer.from(hidden, 'utf8')]);
  return Buffer.concat([SIGNATURE, ihdr(width, height), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** A PNG of the declared size whose scanlines name a filter that does not exist (9): only decoding finds it. */
export function pngWithBadFilter(width: number, height: number): Buffer {
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) raw[y * (1 + width * 3)] = 9;
  return rgbPng(width, height, raw);
}

/** A real JPEG of one colour (baseline, or progressive: several scans). */
export function makeJpeg(
  width: number,
  height: number,
  colour: [number, number, number],
  options: { progressive?: boolean; orientation?: number } = {},
): Promise<Buffer> {
  const jpeg = sharp(makePng(width, height, colour)).jpeg({ progressive: options.progressive ?? false });
  return (options.orientation ? jpeg.withMetadata({ orientation: options.orientation }) : jpeg).toBuffer();
}

/** A real WebP of one colour: lossy (VP8), lossless (VP8L), or with alpha (extended, VP8X). */
export function makeWebp(
  width: number,
  height: number,
  colour: [number, number, number],
  kind: 'lossy' | 'lossless' | 'alpha' = 'lossy',
): Promise<Buffer> {
  const image = sharp(makePng(width, height, colour));
  return (kind === 'alpha' ? image.ensureAlpha(0.5) : image).webp({ lossless: kind === 'lossless' }).toBuffer();
}

/** A valid PNG with a second IHDR, claiming `width`×`height`, right after the first. */
export function pngWithSecondHeader(png: Buffer, width: number, height: number): Buffer {
  const afterIhdr = 8 + 12 + 13;
  return Buffer.concat([png.subarray(0, afterIhdr), ihdr(width, height), png.subarray(afterIhdr)]);
}

/** A valid PNG made an APNG: an animation control chunk (acTL, 2 frames) after IHDR. */
export function pngAnimated(png: Buffer): Buffer {
  const afterIhdr = 8 + 12 + 13;
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(2, 0);
  return Buffer.concat([png.subarray(0, afterIhdr), chunk('acTL', actl), png.subarray(afterIhdr)]);
}

/** The bytes with something appended after the image's end (an HTML document, say). */
export function withTrailer(image: Buffer, trailer: string): Buffer {
  return Buffer.concat([image, Buffer.from(trailer, 'utf8')]);
}

/** A real JPEG with a second start-of-frame (SOF0), claiming `width`×`height`, right after the first. */
export function jpegWithSecondFrame(jpeg: Buffer, width: number, height: number): Buffer {
  let at = 2;
  while (!(jpeg[at + 1]! >= 0xc0 && jpeg[at + 1]! <= 0xc2)) at += 2 + jpeg.readUInt16BE(at + 2);
  const end = at + 2 + jpeg.readUInt16BE(at + 2);
  const frame = Buffer.from(jpeg.subarray(at, end));
  frame[1] = 0xc0;
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  return Buffer.concat([jpeg.subarray(0, end), frame, jpeg.subarray(end)]);
}

function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...chunks]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, body]);
}

function riffChunk(fourcc: string, data: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  return Buffer.concat([Buffer.from(fourcc, 'latin1'), size, data, Buffer.alloc(data.length & 1)]);
}

/**
 * An extended WebP whose VP8X canvas is `canvas`×`canvas` while its one bitstream, a real
 * lossless image with its header rewritten, says `width`×`height`.
 */
export async function webpCanvasHolding(canvas: number, width: number, height: number): Promise<Buffer> {
  const lossless = await makeWebp(16, 16, [30, 120, 60], 'lossless');
  const vp8l = Buffer.from(lossless.subarray(20, 20 + lossless.readUInt32LE(16)));
  vp8l.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
  const vp8x = Buffer.alloc(10);
  vp8x.writeUIntLE(canvas - 1, 4, 3);
  vp8x.writeUIntLE(canvas - 1, 7, 3);
  return riff([riffChunk('VP8X', vp8x), riffChunk('VP8L', vp8l)]);
}
