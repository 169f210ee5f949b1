// The logo's container, walked from its first byte to its last before any pixel is
// decoded. Decoders read the first image header they meet and stop at the image's end,
// so a file can say one thing to us and another to a browser: a second PNG IHDR or JPEG
// start-of-frame with another size, a WebP canvas of 1×1 holding a far larger picture,
// frames of an animation, or a document appended after the end (the decoders ignore it,
// and whoever reads the stored bytes another way finds it). Hence, for each format:
// exactly one image header, every declared size the same, no animation, and the file
// ends where the image ends.

import zlib from 'node:zlib';

export type LogoType = 'image/png' | 'image/jpeg' | 'image/webp';

export interface LogoStructure {
  type: LogoType;
  width: number;
  height: number;
}

export type StructureResult = { ok: true; logo: LogoStructure } | { ok: false; reason: string };

/** pt-BR, each completing "logo inválido: …". */
export const REASONS = {
  format: 'use uma imagem PNG, JPEG ou WebP (SVG não é aceito).',
  malformed: 'a imagem está incompleta ou malformada.',
  multiple: 'o arquivo tem mais de um cabeçalho de imagem; envie uma única imagem.',
  animated: 'imagens animadas não são aceitas.',
  trailing: (bytes: number) => `há ${bytes} bytes depois do fim da imagem; envie só a imagem.`,
  mismatch: (declared: string, real: string) =>
    `o tamanho declarado (${declared} pixels) difere do tamanho da imagem (${real} pixels).`,
  pixelData: 'os dados da imagem não correspondem ao tamanho declarado (sobram ou faltam linhas).',
} as const;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const refuse = (reason: string): StructureResult => ({ ok: false, reason });

function sized(type: LogoType, width: number, height: number): StructureResult {
  return width > 0 && height > 0 ? { ok: true, logo: { type, width, height } } : refuse(REASONS.malformed);
}

/** Sniffs the type from the first bytes (never from what the sender says) and walks the file. */
export function readLogoStructure(bytes: Uint8Array): StructureResult {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return png(b);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return webp(b);
  return refuse(REASONS.format);
}

/** Chunks from the signature to IEND: IHDR first and once, some IDAT, no APNG frames. */
function png(b: Buffer): StructureResult {
  let at = 8;
  let header: { width: number; height: number } | undefined;
  let pixels = false;
  while (at + 12 <= b.length) {
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    const next = at + 12 + length;
    if (length > 0x7fffffff || next > b.length) break;
    if (header === undefined && type !== 'IHDR') return refuse(REASONS.malformed);
    if (type === 'IHDR') {
      if (header) return refuse(REASONS.multiple);
      if (length !== 13) return refuse(REASONS.malformed);
      header = { width: b.readUInt32BE(at + 8), height: b.readUInt32BE(at + 12) };
    } else if (type === 'acTL' || type === 'fcTL' || type === 'fdAT') {
      return refuse(REASONS.animated);
    } else if (type === 'IDAT') {
      pixels = true;
    } else if (type === 'IEND') {
      if (!header || !pixels) return refuse(REASONS.malformed);
      if (next < b.length) return refuse(REASONS.trailing(b.length - next));
      return sized('image/png', header.width, header.height);
    }
    at = next;
  }
  return refuse(REASONS.malformed); // no IEND: cut short, or a chunk runs past the end
}

// Start-of-frame markers SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
const isFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Segments from SOI to EOI, through the scans' entropy-coded data: one frame, then scans. */
function jpeg(b: Buffer): StructureResult {
  let at = 2;
  let frame: { width: number; height: number } | undefined;
  let scanned = false;
  while (at + 1 < b.length) {
    if (b[at] !== 0xff) return refuse(REASONS.malformed);
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte before a marker
      continue;
    }
    if (marker === 0xd9) {
      const end = at + 2;
      if (!frame || !scanned) return refuse(REASONS.malformed);
      if (end < b.length) return refuse(REASONS.trailing(b.length - end));
      return sized('image/jpeg', frame.width, frame.height);
    }
    if (marker === 0xd8) return refuse(REASONS.multiple); // a second image starts
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    if (at + 4 > b.length) break;
    const next = at + 2 + b.readUInt16BE(at + 2);
    if (next > b.length || next < at + 4) break;
    if (isFrame(marker)) {
      if (frame) return refuse(REASONS.multiple);
      if (next - at < 10) return refuse(REASONS.malformed);
      frame = { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    at = next;
    if (marker === 0xda) {
      if (!frame) return refuse(REASONS.malformed);
      scanned = true;
      at = entropyEnd(b, at);
    }
  }
  return refuse(REASONS.malformed); // no EOI
}

/** Where a scan's entropy-coded data ends: the first 0xFF that starts a marker (not 00, RSTn or fill). */
function entropyEnd(b: Buffer, from: number): number {
  let at = b.indexOf(0xff, from);
  while (at !== -1 && at + 1 < b.length) {
    const next = b[at + 1]!;
    if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return at;
    at = b.indexOf(0xff, at + 1);
  }
  return b.length;
}

/**
 * RIFF chunks. Simple files are one VP8 or VP8L chunk; extended ones (VP8X) hold one
 * bitstream among metadata chunks, and the canvas they declare must be its size.
 */
function webp(b: Buffer): StructureResult {
  const end = 8 + b.readUInt32LE(4);
  if (end > b.length) return refuse(REASONS.malformed);
  let canvas: { width: number; height: number } | undefined;
  let image: { width: number; height: number } | undefined;
  let at = 12;
  while (at + 8 <= end) {
    const fourcc = b.toString('latin1', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    const data = at + 8;
    const next = data + size + (size & 1);
    if (next > end) return refuse(REASONS.malformed);
    if (at === 12 && fourcc === 'VP8X') {
      if (size < 10) return refuse(REASONS.malformed);
      if (b[data]! & 0x02) return refuse(REASONS.animated);
      canvas = { width: b.readUIntLE(data + 4, 3) + 1, height: b.readUIntLE(data + 7, 3) + 1 };
    } else if (fourcc === 'VP8X') {
      return refuse(REASONS.multiple);
    } else if (fourcc === 'VP8 ' || fourcc === 'VP8L') {
      if (image) return refuse(REASONS.multiple);
      const frame = fourcc === 'VP8 ' ? vp8Size(b, data, size) : vp8lSize(b, data, size);
      if (!frame) return refuse(REASONS.malformed);
      image = frame;
      // A simple file is the bitstream alone: anything after it is not part of the image.
      if (!canvas && next < b.length) return refuse(REASONS.trailing(b.length - next));
    } else if (fourcc === 'ANIM' || fourcc === 'ANMF') {
      return refuse(REASONS.animated);
    } else if (!canvas) {
      return refuse(REASONS.malformed); // a simple file starts with its bitstream
    }
    at = next;
  }
  if (at !== end) return refuse(REASONS.malformed);
  if (end < b.length) return refuse(REASONS.trailing(b.length - end));
  if (!image) return refuse(REASONS.malformed);
  if (canvas && (canvas.width !== image.width || canvas.height !== image.height)) {
    return refuse(REASONS.mismatch(`${canvas.width}×${canvas.height}`, `${image.width}×${image.height}`));
  }
  return sized('image/webp', image.width, image.height);
}

/** A lossy key frame: start code 9D 01 2A, then 14-bit width and height. */
function vp8Size(b: Buffer, data: number, size: number) {
  if (size < 10 || b[data + 3] !== 0x9d || b[data + 4] !== 0x01 || b[data + 5] !== 0x2a) return undefined;
  return { width: b.readUInt16LE(data + 6) & 0x3fff, height: b.readUInt16LE(data + 8) & 0x3fff };
}

/** A lossless bitstream: signature 2F, then 14-bit width−1 and height−1, and a zero version. */
function vp8lSize(b: Buffer, data: number, size: number) {
  if (size < 5 || b[data] !== 0x2f) return undefined;
  const bits = b.readUInt32LE(data + 1);
  if (bits >>> 29 !== 0) return undefined;
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

// Adam7's passes: first column and row, then the steps between them.
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * For a PNG whose structure and size were accepted: undefined when its compressed data
 * inflates to exactly the scanlines its IHDR declares and the zlib stream ends exactly at
 * the last IDAT byte; otherwise the reason. Decoders stop at the declared rows, so rows or
 * bytes beyond them would be carried along unseen. Inflating never goes past the declared
 * size (at most about 8 MB for 1024×1024 at 16 bits per channel with alpha).
 */
export function pngPixelDataMismatch(bytes: Uint8Array): string | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [width, height, depth, colour, interlace] = [b.readUInt32BE(16), b.readUInt32BE(20), b[24]!, b[25]!, b[28]!];
  const channels = CHANNELS[colour];
  if (channels === undefined) return REASONS.malformed;
  const rowBytes = (w: number) => (w === 0 ? 0 : 1 + Math.ceil((w * channels * depth) / 8));
  const expected =
    interlace === 0
      ? height * rowBytes(width)
      : ADAM7.reduce((sum, [x0, y0, dx, dy]) => {
          const w = Math.max(0, Math.ceil((width - x0) / dx));
          const h = Math.max(0, Math.ceil((height - y0) / dy));
          return sum + (w === 0 ? 0 : h * rowBytes(w));
        }, 0);
  const idat: Buffer[] = [];
  for (let at = 8; at + 12 <= b.length; at += 12 + b.readUInt32BE(at)) {
    if (b.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(b.subarray(at + 8, at + 8 + b.readUInt32BE(at)));
  }
  const compressed = Buffer.concat(idat);
  try {
    const { buffer, engine } = zlib.inflateSync(compressed, { maxOutputLength: expected + 1, info: true }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    if (buffer.length !== expected || engine.bytesWritten !== compressed.length) return REASONS.pixelData;
  } catch {
    return REASONS.pixelData; // more than declared (the limit), or a broken stream
  }
  return undefined;
}
