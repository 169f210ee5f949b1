// The Link resource of the contract, built from storage rows at the boundary.
import { effectiveStatus } from './link-states.ts';
import type { LinkView } from './links.repository.ts';
import type { LinkStatus, ProposalStatus } from '../db/tables.ts';

export interface LinkResource {
  id: string;
  status: LinkStatus;
  ambiente: string;
  cpfMascarado: string;
  referenciaExterna?: string;
  urlRetorno?: string;
  expiraEm: string;
  criadoEm: string;
  abertoEm?: string;
  proposta?: { numero: number; status: ProposalStatus; criadaEm: string };
  dadosPessoaisRemovidosEm?: string;
  consentimento?: { versao: string; concedidoEm: string };
}

export function toLinkResource(view: LinkView, now: Date): LinkResource {
  return {
    id: view.id,
    status: effectiveStatus(view.status, view.expira_em, now),
    ambiente: view.ambiente,
    cpfMascarado: view.cpf_masked,
    ...(view.referencia_externa !== null ? { referenciaExterna: view.referencia_externa } : {}),
    ...(view.return_url !== null ? { urlRetorno: view.return_url } : {}),
    expiraEm: view.expira_em.toISOString(),
    criadoEm: view.criado_em.toISOString(),
    ...(view.aberto_em ? { abertoEm: view.aberto_em.toISOString() } : {}),
    ...(view.proposta_numero !== null
      ? {
          proposta: {
            numero: view.proposta_numero,
            status: view.proposta_status!,
            criadaEm: view.proposta_criada_em!.toISOString(),
          },
        }
      : {}),
    ...(view.consent_version && view.consent_at
      ? { consentimento: { versao: view.consent_version, concedidoEm: view.consent_at.toISOString() } }
      : {}),
    ...(view.personal_data_erased_at ? { dadosPessoaisRemovidosEm: view.personal_data_erased_at.toISOString() } : {}),
  };
}
