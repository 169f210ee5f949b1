// Real images for the brand tests, built byte by byte (no fixtures to keep in sync):
// a PNG of any size and colour, and headers that claim a size they do not carry.
import zlib from 'node:zlib';

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

/** The start of a baseline JPEG: SOI, an APP0 segment, then SOF0 with the size. */
export function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A lossless WebP header (VP8L) with the size. */
export function webpHeader(width: number, height: number): Buffer {
  const bits = Buffer.alloc(4);
  bits.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14));
  const vp8l = Buffer.concat([Buffer.from('VP8L', 'latin1'), Buffer.from([5, 0, 0, 0, 0x2f]), bits, Buffer.alloc(6)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + vp8l.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, Buffer.from('WEBP', 'latin1'), vp8l]);
}
