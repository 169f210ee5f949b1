// The channel's accent colour on our pages: white text sits on it (the header, the
// buttons) and it colours links on the light backgrounds, so it must reach WCAG 2.1's
// 4.5:1 against both (1.4.3, AA). A colour that does not is darkened, keeping its hue,
// until it does: the readable fallback the channel is told about (`corAplicada`).

export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** What the pages use without a brand colour (journey.css `--marca`, `--marca-escura`). */
export const DEFAULT_ACCENT = '#0b6e4f';

/** The backgrounds the accent meets: white text and cards, and the page background. */
const BACKGROUNDS = ['#ffffff', '#f3f5f8'];
export const MIN_CONTRAST = 4.5;

type Rgb = [number, number, number];

const parse = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const format = (rgb: Rgb): string => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2.1 contrast ratio of two `#rrggbb` colours, from 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(parse(a)), luminance(parse(b))].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const readable = (hex: string) => BACKGROUNDS.every((bg) => contrast(hex, bg) >= MIN_CONTRAST);

/** The colour as the pages use it: `#rrggbb` lowercase, darkened until readable; and its hover shade. */
export function accentFor(hex: string): { accent: string; dark: string } {
  const rgb = parse(hex.toLowerCase());
  let factor = 1;
  let accent = format(rgb);
  while (!readable(accent) && factor > 0) {
    factor = Math.max(0, factor - 0.02);
    accent = format(rgb.map((c) => c * factor) as Rgb);
  }
  return { accent, dark: format(parse(accent).map((c) => c * 0.78) as Rgb) };
}
