// The channel's logo: a small raster image we store and serve ourselves (no external
// assets on the customer's page). The type comes from the bytes, never from what the
// sender says, and the size in pixels is read from the header too: a few KB of PNG can
// hold a 30,000 × 30,000 picture that would exhaust a phone's memory when decoded.
// SVG is refused: it is a document that can carry script and external references.

export type LogoType = 'image/png' | 'image/jpeg' | 'image/webp';

export const MAX_LOGO_BYTES = 16 * 1024;
export const MAX_LOGO_SIDE = 1024;

export interface LogoInfo {
  type: LogoType;
  width: number;
  height: number;
}

/** The image's type and size in pixels, or undefined when it is not a PNG, JPEG or WebP we can read. */
export function readLogo(bytes: Uint8Array): LogoInfo | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 24 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    if (b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return sized('image/png', b.readUInt32BE(16), b.readUInt32BE(20));
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return webp(b);
  return undefined;
}

function sized(type: LogoType, width: number, height: number): LogoInfo | undefined {
  return width > 0 && height > 0 ? { type, width, height } : undefined;
}

/** Walks the JPEG markers to the first start-of-frame, which holds the size. */
function jpeg(b: Buffer): LogoInfo | undefined {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized('image/jpeg', b.readUInt16BE(at + 7), b.readUInt16BE(at + 5));
    }
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** The three WebP forms: lossy (VP8), lossless (VP8L) and extended (VP8X). */
function webp(b: Buffer): LogoInfo | undefined {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return sized('image/webp', b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  }
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return sized('image/webp', (bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return sized('image/webp', b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1);
  return undefined;
}
