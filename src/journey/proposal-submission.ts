// Sending the proposal to the bank. The journey is first claimed (revisao → enviando)
// so that a double submit sends once; the bank is called outside any transaction;
// each outcome then commits with its event in one transaction.
import type { CustomerData, Offer } from '../bank/bank-gateway.ts';
import { proposalEvent } from '../events/event-body.ts';
import { recordEvent } from '../events/outbox.ts';
import { insertProposal, moveProposalFrom, toCents, toSnapshot } from '../proposals/proposals.repository.ts';
import { addSeconds } from '../clock.ts';
import { advance, setSigningUrl, type JourneyRow, type LinkRow } from './journey.repository.ts';
import { moveLink } from '../links/link-states.ts';
import type { Context } from '../context.ts';
import { sealSigningUrl } from './signing-url.ts';

/** A claim older than this belongs to a process that died mid-call: it may be retried. */
const STALE_CLAIM_SECONDS = 60;

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'bank' | 'log'>;

export async function submitProposal(deps: Deps, link: LinkRow, journey: JourneyRow): Promise<void> {
  const now = deps.clock.now();
  const claimable =
    journey.step === 'revisao' || (journey.step === 'enviando' && journey.updated_at < addSeconds(now, -STALE_CLAIM_SECONDS));
  if (!claimable) return;
  if (!(await advance(deps.database.db, link.id, journey.step as 'revisao' | 'enviando', { step: 'enviando', updated_at: now })))
    return;

  const offer = (journey.offers as Offer[]).find((o) => o.id === journey.chosen_offer_id)!;
  const customer = JSON.parse(deps.keys.open(journey.customer_sealed!)) as CustomerData;
  const cpf = deps.keys.open(link.cpf_sealed!);
  const linkRef = { id: link.id, referenciaExterna: link.referencia_externa };

  let creation;
  try {
    creation = await deps.bank.createProposal(cpf, offer, customer);
  } catch (error) {
    await advance(deps.database.db, link.id, 'enviando', { step: 'revisao', updated_at: deps.clock.now() });
    throw error;
  }

  const at = deps.clock.now();
  if (!creation.aceita) {
    await deps.database.db.transaction().execute(async (tx) => {
      await advance(tx, link.id, 'enviando', { step: 'revisao', last_failure: creation.motivo, updated_at: at });
      await recordEvent(
        tx,
        link.channel_id,
        proposalEvent({
          tipo: 'proposta.falha',
          at,
          ambiente: link.ambiente,
          link: linkRef,
          proposta: { valor: offer.valor, parcelas: offer.parcelas, valorParcela: offer.valorParcela },
          motivo: creation.motivo,
        }),
      );
    });
    return;
  }

  const proposal = await deps.database.db.transaction().execute(async (tx) => {
    const row = await insertProposal(tx, {
      link_id: link.id,
      channel_id: link.channel_id,
      status: 'CRIADA',
      valor_centavos: toCents(offer.valor),
      parcelas: offer.parcelas,
      valor_parcela_centavos: toCents(offer.valorParcela),
      criada_em: at,
      updated_at: at,
    });
    await moveLink(tx, link.id, 'CONCLUIDO', at);
    await advance(tx, link.id, 'enviando', { step: 'resultado', last_failure: null, updated_at: at });
    await recordEvent(
      tx,
      link.channel_id,
      proposalEvent({ tipo: 'proposta.criada', at, ambiente: link.ambiente, link: linkRef, proposta: toSnapshot(row) }),
    );
    return row;
  });

  const signing = await deps.bank.generateSigningLink(cpf, proposal.numero);
  if (!signing.gerado) {
    deps.log.info({ linkId: link.id, numero: proposal.numero }, 'signing link not generated; proposal stays CRIADA');
    return;
  }
  const signedAt = deps.clock.now();
  await deps.database.db.transaction().execute(async (tx) => {
    await setSigningUrl(tx, link.id, sealSigningUrl(deps.keys, link.id, signing.url), signedAt);
    // The simulator may already have moved the proposal on: only CRIADA advances here.
    const updated = await moveProposalFrom(tx, proposal.numero, 'CRIADA', 'AGUARDANDO_FORMALIZACAO', signedAt);
    if (updated) {
      await recordEvent(
        tx,
        link.channel_id,
        proposalEvent({
          tipo: 'proposta.aguardando_formalizacao',
          at: signedAt,
          ambiente: link.ambiente,
          link: linkRef,
          proposta: toSnapshot(updated),
        }),
      );
    }
  });
}
