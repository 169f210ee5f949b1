// The channel's brand on the pages we host for its customers (docs/rules.md §7.6): a
// display name, an optional logo and accent colour. Set by the channel (PUT /v1/marca) or
// by the operator (`consigna channels brand`). Without one, the pages use the channel's
// name and our colours: they always say who offers the credit.
import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { hasVisibleLetterOrDigit, isCleanText } from '../text/unicode.ts';
import { FIELD_MESSAGES } from '../text/messages.ts';
import { accentFor, DEFAULT_ACCENT, HEX_COLOUR } from './colour.ts';
import { checkLogo, LOGO_DRAWN_HEIGHT, LOGO_DRAWN_MAX_WIDTH, MAX_LOGO_BYTES } from './logo.ts';
import { deleteBrandRow, findBrandRow, findLogo, findPageBrand, upsertBrandRow, type BrandRow } from './brand.repository.ts';

type Deps = Pick<Context, 'database' | 'clock' | 'config'>;

export interface BrandInput {
  nome?: unknown;
  cor?: unknown;
  /** The image's bytes in base64. */
  logo?: unknown;
}

export interface BrandResource {
  nome: string;
  cor?: string;
  corAplicada: string;
  logo?: { url: string; tipo: string; largura: number; altura: number; bytes: number };
  atualizadoEm: string;
}

/** What a hosted page shows of the channel. */
export interface PageBrand {
  nome: string;
  /** The box the logo is drawn in, in CSS pixels: its shape, bounded (logoBox). */
  logo?: { url: string; width: number; height: number };
  /** The stylesheet that sets the accent colour, when the channel has one. */
  css?: string;
}

const NAME_MAX = 60;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const logoPath = (hash: string) => `/marca/logo/${hash}`;
export const accentPath = (accent: string) => `/marca/cor/${accent.slice(1)}.css`;
/** The same accent under other names (--previa-marca), for a preview beside the brand in use. */
export const previewAccentPath = (accent: string) => `/marca/previa/${accent.slice(1)}.css`;

/** Validates everything before anything is stored: a bad field leaves the brand as it was. */
async function parseBrand(input: BrandInput): Promise<Omit<BrandRow, 'channel_id' | 'updated_at'>> {
  const nome = typeof input.nome === 'string' ? input.nome.trim() : undefined;
  // The name is the only thing that says who offers the credit: blanks alone name no one.
  if (!nome || nome.length > NAME_MAX || !isCleanText(nome) || !hasVisibleLetterOrDigit(nome)) {
    throw badRequest('nome_invalido', FIELD_MESSAGES.nome_invalido!);
  }
  let cor: string | null = null;
  if (input.cor !== undefined && input.cor !== null) {
    if (typeof input.cor !== 'string' || !HEX_COLOUR.test(input.cor))
      throw badRequest('cor_invalida', FIELD_MESSAGES.cor_invalida!);
    cor = input.cor.toLowerCase();
  }
  let logo: Pick<BrandRow, 'logo' | 'logo_type' | 'logo_hash' | 'logo_width' | 'logo_height'> = {
    logo: null,
    logo_type: null,
    logo_hash: null,
    logo_width: null,
    logo_height: null,
  };
  if (input.logo !== undefined && input.logo !== null) {
    if (typeof input.logo !== 'string' || input.logo.length === 0 || !BASE64.test(input.logo)) {
      throw badRequest('logo_invalido', 'logo inválido: envie os bytes da imagem (PNG, JPEG ou WebP) em base64.');
    }
    const bytes = Buffer.from(input.logo, 'base64');
    if (bytes.length > MAX_LOGO_BYTES) {
      throw badRequest(
        'logo_muito_grande',
        `O logo tem ${bytes.length} bytes; o limite é ${MAX_LOGO_BYTES} (16 KB), para a página continuar leve no celular.`,
      );
    }
    const checked = await checkLogo(bytes);
    if (!checked.ok) throw badRequest('logo_invalido', `logo inválido: ${checked.reason}`);
    const info = checked.logo;
    logo = {
      logo: bytes,
      logo_type: info.type,
      logo_hash: createHash('sha256').update(bytes).digest('hex'),
      logo_width: info.width,
      logo_height: info.height,
    };
  }
  return { nome, cor, ...logo };
}

function toResource(deps: Deps, row: BrandRow): BrandResource {
  return {
    nome: row.nome,
    ...(row.cor ? { cor: row.cor } : {}),
    corAplicada: row.cor ? accentFor(row.cor).accent : DEFAULT_ACCENT,
    ...(row.logo && row.logo_hash
      ? {
          logo: {
            url: `${deps.config.publicBaseUrl}${logoPath(row.logo_hash)}`,
            tipo: row.logo_type!,
            largura: row.logo_width!,
            altura: row.logo_height!,
            bytes: row.logo.byteLength,
          },
        }
      : {}),
    atualizadoEm: row.updated_at.toISOString(),
  };
}

/** A brand as it would be stored, checked by the same rules and stored nowhere (the portal's preview). */
export interface BrandDraft {
  nome: string;
  cor?: string;
  corAplicada: string;
  logo?: { tipo: string; bytes: Buffer; largura: number; altura: number };
}

export async function checkBrand(input: BrandInput): Promise<BrandDraft> {
  const row = await parseBrand(input);
  return {
    nome: row.nome,
    ...(row.cor ? { cor: row.cor } : {}),
    corAplicada: row.cor ? accentFor(row.cor).accent : DEFAULT_ACCENT,
    ...(row.logo
      ? { logo: { tipo: row.logo_type!, bytes: Buffer.from(row.logo), largura: row.logo_width!, altura: row.logo_height! } }
      : {}),
  };
}

export async function putBrand(
  deps: Deps,
  channelId: string,
  input: BrandInput,
): Promise<{ created: boolean; brand: BrandResource }> {
  const row: BrandRow = { channel_id: channelId, ...(await parseBrand(input)), updated_at: deps.clock.now() };
  const created = await upsertBrandRow(deps.database.db, row);
  return { created, brand: toResource(deps, row) };
}

export async function getBrand(deps: Deps, channelId: string): Promise<BrandResource> {
  const row = await findBrandRow(deps.database.db, channelId);
  if (!row) throw notFound('Nenhuma marca definida para o canal: as páginas usam o nome do canal.');
  return toResource(deps, row);
}

export async function removeBrand(deps: Deps, channelId: string): Promise<void> {
  if (!(await deleteBrandRow(deps.database.db, channelId))) {
    throw notFound('Nenhuma marca definida para o canal: as páginas usam o nome do canal.');
  }
}

/** The stored logo's bytes in base64 (as putBrand takes them), to keep it through a form that sends none. */
export async function storedLogoBase64(deps: Pick<Context, 'database'>, channelId: string): Promise<string | undefined> {
  const row = await findBrandRow(deps.database.db, channelId);
  return row?.logo ? Buffer.from(row.logo).toString('base64') : undefined;
}

export async function pageBrand(deps: Pick<Context, 'database'>, channelId: string): Promise<PageBrand> {
  const row = await findPageBrand(deps.database.db, channelId);
  if (!row) return { nome: 'Consigna' };
  return {
    nome: row.nome ?? row.name,
    ...(row.logo_hash ? { logo: { url: logoPath(row.logo_hash), ...logoBox(row.logo_width!, row.logo_height!) } } : {}),
    ...(row.cor ? { css: accentPath(accentFor(row.cor).accent) } : {}),
  };
}

/**
 * The box a page draws the logo in: LOGO_DRAWN_HEIGHT high and as wide as its shape asks,
 * up to LOGO_DRAWN_MAX_WIDTH. Accepted logos fit (8:1 at most); a shape stored before that
 * rule is letterboxed inside the box (object-fit: contain), never wider than the bound.
 */
export function logoBox(width: number, height: number): { width: number; height: number } {
  const natural = Math.max(1, Math.round((width * LOGO_DRAWN_HEIGHT) / Math.max(1, height)));
  return { width: Math.min(natural, LOGO_DRAWN_MAX_WIDTH), height: LOGO_DRAWN_HEIGHT };
}

/** GET /marca/logo/{hash}: the bytes and their type. */
export async function logoBytes(deps: Pick<Context, 'database'>, hash: string) {
  return /^[0-9a-f]{64}$/.test(hash) ? findLogo(deps.database.db, hash) : undefined;
}

/** GET /marca/cor/{rrggbb}.css: the accent as custom properties, made readable whatever the path says. */
export function accentStylesheet(hex: string, name: 'marca' | 'previa-marca' = 'marca'): string | undefined {
  if (!/^[0-9a-f]{6}$/.test(hex)) return undefined;
  const { accent, dark } = accentFor(`#${hex}`);
  return `:root{--${name}:${accent};--${name}-escura:${dark}}\n`;
}
