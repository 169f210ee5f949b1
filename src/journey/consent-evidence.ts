// The evidence of one link's consent, for the operator (consigna links consent): the
// version and text the customer accepted, when, and the sealed IP and user agent
// (gone once the link's personal data was erased).
import type { Context } from '../context.ts';
import { isUuid } from '../crypto/random.ts';
import { CONSENT_TEXTS, type ConsentEvidence } from './consent.ts';

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
  const sealed = row.consent_sealed ? (JSON.parse(deps.keys.open(row.consent_sealed)) as ConsentEvidence) : undefined;
  return {
    linkId: row.id,
    canalId: row.channel_id,
    ...(row.consent_version && row.consent_at
      ? {
          consentimento: {
            versao: row.consent_version,
            texto: CONSENT_TEXTS[row.consent_version] ?? '(texto desconhecido)',
            concedidoEm: row.consent_at.toISOString(),
            ...(sealed ?? {}),
          },
        }
      : {}),
    ...(row.personal_data_erased_at ? { dadosPessoaisRemovidosEm: row.personal_data_erased_at.toISOString() } : {}),
  };
}
