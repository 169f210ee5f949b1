// The channel's logo: a small raster image we store and serve ourselves (no external
// assets on the customer's page). SVG is refused: it is a document that can carry script
// and external references. A logo is accepted only when every way of reading it agrees:
// - its container, walked to the last byte, holds one still image and nothing after it,
//   with one declared size (logo-structure.ts);
// - that size is within 1024×1024 and the shape between 1:4 and 8:1, checked before any
//   pixel is decoded (a few KB of PNG can declare 30,000 × 30,000, a bomb for a phone);
// - a PNG's compressed data holds exactly the declared rows (decoders stop there);
// - libvips (sharp) decodes every pixel, with the same pixel limit as a second guard,
//   and finds that size, the same format and no EXIF rotation (a browser would turn the
//   picture, and the shape we checked would not be the shape drawn).
// The bytes are stored as sent once accepted: re-encoding would change the channel's
// file (and could grow it past the 16 KB budget) while everything it could hide after
// the image is already refused.
import type { default as Sharp } from 'sharp';
import { pngPixelDataMismatch, readLogoStructure, type LogoStructure, type LogoType } from './logo-structure.ts';

export type { LogoType };
export type LogoInfo = LogoStructure;

export const MAX_LOGO_BYTES = 16 * 1024;
export const MAX_LOGO_SIDE = 1024;

/** The widest shape accepted (width:height), and the tallest (height:width). */
export const MAX_LOGO_WIDE = 8;
export const MAX_LOGO_TALL = 4;

/** The pages draw the logo this many CSS pixels high and never wider than 8 × that (journey.css `.logo`). */
export const LOGO_DRAWN_HEIGHT = 32;
export const LOGO_DRAWN_MAX_WIDTH = LOGO_DRAWN_HEIGHT * MAX_LOGO_WIDE;

// Loaded on first use: only setting a logo needs libvips, not the start of every process.
// Each logo is decoded once, when it is set: libvips' operation cache would only hold memory.
let loading: Promise<typeof Sharp> | undefined;
function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

export type LogoCheck = { ok: true; logo: LogoInfo } | { ok: false; reason: string };

const FORMATS: Record<string, LogoType> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** The logo's type and size, or the reason (pt-BR, completing "logo inválido: …") it is refused. */
export async function checkLogo(bytes: Buffer): Promise<LogoCheck> {
  const structure = readLogoStructure(bytes);
  if (!structure.ok) return structure;
  const { type, width, height } = structure.logo;
  const size = `${width}×${height}`;
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE) {
    return { ok: false, reason: `${size} pixels; o máximo é ${MAX_LOGO_SIDE}×${MAX_LOGO_SIDE}.` };
  }
  if (width > height * MAX_LOGO_WIDE || height > width * MAX_LOGO_TALL) {
    return {
      ok: false,
      reason:
        `${size} pixels; a largura deve ficar entre 1/${MAX_LOGO_TALL} e ${MAX_LOGO_WIDE} vezes a altura ` +
        `(de 1:${MAX_LOGO_TALL} a ${MAX_LOGO_WIDE}:1), para caber no topo da página.`,
    };
  }
  const leftover = type === 'image/png' ? pngPixelDataMismatch(bytes) : undefined;
  if (leftover) return { ok: false, reason: leftover };
  const decoded = await decode(bytes);
  if (!decoded || FORMATS[decoded.format] !== type) {
    return { ok: false, reason: 'a imagem não pôde ser decodificada (dados corrompidos ou incompletos).' };
  }
  if (decoded.width !== width || decoded.height !== height) {
    return {
      ok: false,
      reason: `o tamanho declarado (${size} pixels) difere do tamanho da imagem (${decoded.width}×${decoded.height} pixels).`,
    };
  }
  if (decoded.orientation !== 1) {
    return { ok: false, reason: 'a imagem pede para ser girada ou espelhada (orientação EXIF); salve-a já na posição final.' };
  }
  return structure;
}

/** Every pixel decoded; undefined when libvips reports an error, a warning or more than one page. */
async function decode(bytes: Buffer) {
  const sharp = await loadSharp();
  try {
    // failOn 'warning': the strictest level; a logo is a small file the channel can export again.
    const image = sharp(bytes, { limitInputPixels: MAX_LOGO_SIDE * MAX_LOGO_SIDE, failOn: 'warning', sequentialRead: true });
    const meta = await image.metadata();
    if ((meta.pages ?? 1) !== 1) return undefined;
    const { info } = await image.raw().toBuffer({ resolveWithObject: true });
    return { format: meta.format, width: info.width, height: info.height, orientation: meta.orientation ?? 1 };
  } catch {
    return undefined;
  }
}
