// POST /v1/links/{id}/proposta/simular: applies a status as if the bank reported
// it. The change and its event commit together; the same status is a no-op.
import type { Context } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import { isUuid } from '../crypto/random.ts';
import { proposalEvent } from '../events/event-body.ts';
import { recordEvent } from '../events/outbox.ts';
import { EVENT_FOR, transition, type SimulatableStatus } from './states.ts';
import { lockProposalOfLink, setProposalStatus, toSnapshot } from './proposals.repository.ts';
import { findLinkOfChannel } from '../links/links.repository.ts';
import { inStoredTrace } from '../observability/tracing.ts';

type Deps = Pick<Context, 'database' | 'clock' | 'config'>;

export interface SimulationResult {
  status: string;
  alterado: boolean;
}

export async function simulateProposalStatus(
  deps: Deps,
  channelId: string,
  linkId: string,
  to: SimulatableStatus,
): Promise<SimulationResult> {
  if (deps.config.ambiente !== 'SANDBOX' || !isUuid(linkId)) throw notFound('Link não encontrado.');
  return deps.database.db.transaction().execute(async (tx) => {
    const link = await findLinkOfChannel(tx, channelId, linkId);
    if (!link) throw notFound('Link não encontrado.');
    const proposal = await lockProposalOfLink(tx, linkId);
    if (!proposal) throw conflict('sem_proposta', 'O cliente ainda não enviou a proposta deste link.');
    const result = transition(proposal.status, to);
    if (result.kind === 'unchanged') return { status: proposal.status, alterado: false };
    if (result.kind === 'invalid') throw conflict('transicao_invalida', `Transição inválida: ${result.reason}`);
    // The change is a span of the link's trace, like the journey that led to it.
    const attributes = { 'consigna.link.id': link.id, 'consigna.proposta.status': to };
    return inStoredTrace(link.trace_context, 'proposta status', attributes, async () => {
      const now = deps.clock.now();
      const updated = await setProposalStatus(tx, proposal.numero, to, now);
      await recordEvent(
        tx,
        channelId,
        proposalEvent({
          tipo: EVENT_FOR[to],
          at: now,
          ambiente: link.ambiente,
          link: { id: link.id, referenciaExterna: link.referencia_externa },
          proposta: toSnapshot(updated),
        }),
      );
      return { status: updated.status, alterado: true };
    });
  });
}
