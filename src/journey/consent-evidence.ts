// The evidence of one link's consent, for the operator (consigna links consent): the
// version and text the customer accepted, when, and the sealed IP and user agent
// (gone once the link's personal data was erased), with whether the sealed part is this
// link's own (`selo`, docs/rules.md §7.8).
import type { Context } from '../context.ts';
import { isUuid } from '../crypto/random.ts';
import { CONSENT_TEXTS, openConsent, type ConsentEvidence, type ConsentSeal } from './consent.ts';

export interface ConsentExport {
  linkId: string;
  canalId: string;
  consentimento?: {
    versao: string;
    texto: string;
    concedidoEm: string;
    origem?: ConsentEvidence['origem'];
    ip?: string;
    userAgent?: string;
    /** Whether the sealed IP and user agent are this link's (absent once erased); never shown when `invalido`. */
    selo?: ConsentSeal;
  };
  dadosPessoaisRemovidosEm?: string;
}

export async function consentEvidence(
  deps: Pick<Context, 'database' | 'keys'>,
  linkId: string,
): Promise<ConsentExport | undefined> {
  if (!isUuid(linkId)) return undefined;
  const row = await deps.database.db
    .selectFrom('links as l')
    .leftJoin('journeys as j', 'j.link_id', 'l.id')
    .select(['l.id', 'l.channel_id', 'l.personal_data_erased_at', 'j.consent_version', 'j.consent_at', 'j.consent_sealed'])
    .where('l.id', '=', linkId.toLowerCase())
    .executeTakeFirst();
  if (!row) return undefined;
  const opened =
    row.consent_sealed && row.consent_version && row.consent_at
      ? openConsent(deps.keys, row.id, row.consent_version, row.consent_at, row.consent_sealed)
      : undefined;
  return {
    linkId: row.id,
    canalId: row.channel_id,
    ...(row.consent_version && row.consent_at
      ? {
          consentimento: {
            versao: row.consent_version,
            texto: CONSENT_TEXTS[row.consent_version] ?? '(texto desconhecido)',
            concedidoEm: row.consent_at.toISOString(),
            ...(opened?.evidence ?? {}),
            ...(opened ? { selo: opened.selo } : {}),
          },
        }
      : {}),
    ...(row.personal_data_erased_at ? { dadosPessoaisRemovidosEm: row.personal_data_erased_at.toISOString() } : {}),
  };
}
