// POST /v1/links/{id}/jornada/simular (sandbox only, docs/rules.md §6): the customer's
// journey up to the proposal, run over the API through the very steps the hosted pages
// call, so that a channel's test suite can reach every proposal event with HTTP calls
// alone. The CPF scenarios play out as in a browser, because the same bank answers.
import { conflict, notFound } from '../errors.ts';
import { isUuid } from '../crypto/random.ts';
import { SANDBOX_CODE } from '../bank/sandbox-bank.ts';
import { effectiveStatus } from '../links/link-states.ts';
import { findLinkOfChannel } from '../links/links.repository.ts';
import { getLink } from '../links/links.service.ts';
import type { LinkResource } from '../links/link-resource.ts';
import * as journey from './journey.service.ts';

type Deps = journey.Deps;

/** The phone used when the link was created without one. */
export const SIMULATED_PHONE = '11987654321';

/** Fictitious customer data: valid for every rule of the data step. */
export const SIMULATED_CUSTOMER = {
  nome: 'Cliente Sandbox da Silva',
  dataNascimento: '1990-05-20',
  email: 'cliente.sandbox@exemplo.com.br',
  chavePix: 'cliente.sandbox@exemplo.com.br',
} as const;

/** Each step moves the journey on; more rounds than steps means something went round in circles. */
const MAX_ROUNDS = 16;

export async function simulateJourney(deps: Deps, channelId: string, linkId: string): Promise<LinkResource> {
  if (deps.config.ambiente !== 'SANDBOX' || !isUuid(linkId)) throw notFound('Link não encontrado.');
  const link = await findLinkOfChannel(deps.database.db, channelId, linkId);
  if (!link) throw notFound('Link não encontrado.');
  const status = effectiveStatus(link.status, link.expira_em, deps.clock.now());
  if (status === 'EXPIRADO') throw conflict('link_expirado', 'Este link expirou: crie outro link para simular a jornada.');
  if (status === 'CANCELADO') {
    throw conflict('link_finalizado', 'A jornada deste link já terminou sem proposta (link CANCELADO): crie outro link.');
  }
  if (status === 'CONCLUIDO') {
    throw conflict(
      'jornada_concluida',
      'A proposta deste link já foi criada: use POST /v1/links/{id}/proposta/simular para mudar o status dela.',
    );
  }

  const key = { linkId };
  let submitted = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const page = await journey.loadPage(deps, key);
    if (page.kind !== 'step') break;
    const result = await nextStep(deps, key, page, submitted);
    if (result === 'stop') break;
    if (result === 'submitted') submitted = true;
    else if (result.kind === 'invalid') {
      // The simulated input is valid for every rule: a refusal is a defect, not the caller's fault.
      throw new Error(`journey simulation: step ${page.step} refused ${Object.keys(result.errors).join(', ')}`);
    }
  }
  return getLink(deps, channelId, linkId);
}

type StepOutcome = journey.ActionResult | 'submitted' | 'stop';

async function nextStep(
  deps: Deps,
  key: journey.JourneyKey,
  page: Extract<journey.Page, { kind: 'step' }>,
  submitted: boolean,
): Promise<StepOutcome> {
  const { link, journey: state } = page;
  switch (page.step) {
    case 'inicio':
      return journey.start(deps, key);
    case 'celular':
      return journey.sendCode(deps, key, { celular: journey.suggestedCelular(deps, link) ?? SIMULATED_PHONE });
    case 'codigo':
      // Wrong codes typed earlier on the hosted page may have used up the attempts.
      return state.code_attempts >= journey.MAX_CODE_ATTEMPTS
        ? journey.changePhone(deps, key)
        : journey.confirmCode(deps, key, { codigo: SANDBOX_CODE });
    case 'consulta':
      return journey.consultOffers(deps, key, { autorizo: 'sim' }, { origem: 'simulacao' });
    case 'ofertas':
      return journey.chooseOffer(deps, key, { oferta: journey.offersOf(state)[0]?.id });
    case 'dados':
      return journey.submitCustomerData(deps, key, { ...SIMULATED_CUSTOMER });
    case 'revisao':
      // One submission per call: a refused proposal (…515) stays at the review, open for a retry.
      if (submitted) return 'stop';
      await journey.sendProposal(deps, key);
      return 'submitted';
    default:
      return 'stop'; // enviando (another submission is running), resultado, encerrado
  }
}
