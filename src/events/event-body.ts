// The body of every event, exactly as signed and sent. No personal data: channels
// correlate by link.id and link.referenciaExterna (docs/rules.md §4).
import { uuidv7 } from '../crypto/random.ts';

export const PROPOSAL_EVENT_TYPES = [
  'proposta.criada',
  'proposta.aguardando_formalizacao',
  'proposta.formalizada',
  'proposta.aprovada',
  'proposta.recusada',
  'proposta.cancelada',
  'proposta.falha',
] as const;

export type ProposalEventType = (typeof PROPOSAL_EVENT_TYPES)[number];

export interface ProposalSnapshot {
  numero: number;
  status: string;
  valor: number;
  parcelas: number;
  valorParcela: number;
}

export interface EventBody {
  id: string;
  tipo: string;
  ocorridoEm: string;
  ambiente: string;
  link?: { id: string; referenciaExterna: string | null };
  proposta?: Partial<ProposalSnapshot>;
  motivo?: string;
  mensagem?: string;
}

export function proposalEvent(input: {
  tipo: ProposalEventType;
  at: Date;
  ambiente: string;
  link: { id: string; referenciaExterna: string | null };
  proposta: ProposalSnapshot | Omit<ProposalSnapshot, 'numero' | 'status'>;
  motivo?: string;
}): EventBody {
  return {
    id: uuidv7(input.at.getTime()),
    tipo: input.tipo,
    ocorridoEm: input.at.toISOString(),
    ambiente: input.ambiente,
    link: { id: input.link.id, referenciaExterna: input.link.referenciaExterna },
    proposta: input.proposta,
    ...(input.motivo !== undefined ? { motivo: input.motivo } : {}),
  };
}

export function testEvent(at: Date, ambiente: string): EventBody {
  return {
    id: uuidv7(at.getTime()),
    tipo: 'webhook.teste',
    ocorridoEm: at.toISOString(),
    ambiente,
    mensagem: 'Evento de teste da Consigna: se você recebeu e validou a assinatura, seu webhook está pronto.',
  };
}
