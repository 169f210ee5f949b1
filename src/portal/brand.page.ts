// "Marca" (/portal/marca): the channel's name, colour and logo on its customers' pages,
// through the brand service (PUT/DELETE /v1/marca's): its refusals shown on the form (422).
// The logo comes as a multipart upload (one file, the service's byte limit).
import { AppError } from '../errors.ts';
import {
  checkBrand,
  getBrand,
  pageBrand,
  putBrand,
  removeBrand,
  storedLogoBase64,
  type BrandResource,
} from '../brand/brand.service.ts';
import { MAX_LOGO_BYTES } from '../brand/logo.ts';
import type { Context } from '../context.ts';
import type { Change, PortalPage, PortalSection } from './portal-pages.ts';
import { recentChanges } from './changes.service.ts';
import { recentChangesPanel } from './views/components.ts';
import { brandBody, type BrandView } from './views/brand.ts';

export const BRAND_CHANGE_LABELS: Readonly<Record<string, string>> = {
  'marca.alterada': 'Marca alterada',
  'marca.removida': 'Marca removida',
};

/** Which form field each of the brand service's refusals is about. */
const FIELD_OF: Readonly<Record<string, string>> = {
  nome_invalido: 'nome',
  cor_invalida: 'cor',
  logo_invalido: 'logo',
  logo_muito_grande: 'logo',
};

const target = (channelId: string) => ({ alvoTipo: 'marca', alvoId: channelId });
const change = (channelId: string, acao: string): Change => ({ acao, ...target(channelId) });

async function currentBrand(ctx: Context, channelId: string): Promise<BrandResource | undefined> {
  try {
    return await getBrand(ctx, channelId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return undefined;
    throw error;
  }
}

async function brandPage(
  ctx: Context,
  channelId: string,
  csrf: string,
  extra: Pick<BrandView, 'values' | 'errors' | 'done' | 'draft'> = {},
): Promise<PortalPage> {
  const [brand, page, changes] = await Promise.all([
    currentBrand(ctx, channelId),
    pageBrand(ctx, channelId),
    recentChanges(ctx, channelId, target(channelId)),
  ]);
  const view: BrandView = { page, sandbox: ctx.config.ambiente === 'SANDBOX', csrf, ...extra, ...(brand ? { brand } : {}) };
  return {
    title: 'Marca',
    body: brandBody(view, recentChangesPanel(changes, BRAND_CHANGE_LABELS)),
    ...(extra.errors ? { status: 422 } : {}),
  };
}

/** A brand service refusal (400) as the form's error on its field; anything else is thrown on. */
function fieldErrorOf(error: unknown): Record<string, string> {
  if (!(error instanceof AppError) || error.status !== 400) throw error;
  return { [FIELD_OF[error.code] ?? 'nome']: error.message };
}

/** "1a73e8" is taken as "#1a73e8"; empty means no colour. */
function colourOf(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return /^[0-9a-fA-F]{6}$/.test(trimmed) ? `#${trimmed}` : trimmed;
}

export const brandSection: PortalSection = {
  label: 'Marca',
  path: '/portal/marca',
  register(portal) {
    const { ctx } = portal;
    portal.page('/portal/marca', async ({ session, query, csrf }) => {
      const done = query.feito === 'salvo' || query.feito === 'removido' ? query.feito : undefined;
      return brandPage(ctx, session.channelId, csrf, done ? { done } : {});
    });

    /** The brand the form describes: a new file, else the stored logo unless "Remover o logo atual". */
    const inputOf = async (channelId: string, form: Record<string, string>, file: { bytes: Buffer } | undefined) => ({
      nome: form.nome ?? '',
      cor: colourOf(form.cor ?? ''),
      logo: file
        ? file.bytes.toString('base64')
        : form.removerLogo === 'sim'
          ? undefined
          : await storedLogoBase64(ctx, channelId),
    });
    const spec = { field: 'logo', maxBytes: MAX_LOGO_BYTES };

    portal.upload('/portal/marca', spec, async ({ session, form, file, problem, csrf }) => {
      const values = { nome: form.nome ?? '', cor: form.cor ?? '' };
      if (problem) return brandPage(ctx, session.channelId, csrf, { values, errors: { logo: problem } });
      try {
        await putBrand(ctx, session.channelId, await inputOf(session.channelId, form, file));
      } catch (error) {
        return brandPage(ctx, session.channelId, csrf, { values, errors: fieldErrorOf(error) });
      }
      return { redirect: '/portal/marca?feito=salvo', change: change(session.channelId, 'marca.alterada') };
    });

    // "Pré-visualizar": the same form checked by the same rules, shown and stored nowhere (no change).
    portal.upload('/portal/marca/previa', spec, async ({ session, form, file, problem, csrf }) => {
      const values = { nome: form.nome ?? '', cor: form.cor ?? '' };
      if (problem) return brandPage(ctx, session.channelId, csrf, { values, errors: { logo: problem } });
      try {
        const draft = await checkBrand(await inputOf(session.channelId, form, file));
        return { ...(await brandPage(ctx, session.channelId, csrf, { values, draft })), status: 200 };
      } catch (error) {
        return brandPage(ctx, session.channelId, csrf, { values, errors: fieldErrorOf(error) });
      }
    });

    portal.action('/portal/marca/remover', async ({ session }) => {
      const brand = await currentBrand(ctx, session.channelId);
      if (!brand) return { redirect: '/portal/marca' };
      await removeBrand(ctx, session.channelId);
      return { redirect: '/portal/marca?feito=removido', change: change(session.channelId, 'marca.removida') };
    });
  },
};
