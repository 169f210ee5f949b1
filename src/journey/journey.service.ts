// The customer's journey on the hosted page (docs/rules.md §7). Its state lives in the
// database, so any api process can serve the next step and a customer can close the
// page and come back to the same step. Every step moves only from the step it
// expects: a reload, a back button or a double submit changes nothing.
import type { Context } from '../context.ts';
import type { Offer } from '../bank/bank-gateway.ts';
import { effectiveStatus, moveLink } from '../links/link-states.ts';
import { hashLinkToken } from '../links/links.service.ts';
import { isValidCelular } from '../links/celular.ts';
import { validateCustomerData, type FieldErrors } from './customer-data.ts';
import {
  advance,
  findJourney,
  findLinkById,
  findLinkByTokenHash,
  openJourney,
  recordConsent,
  type JourneyRow,
  type LinkRow,
  type Step,
} from './journey.repository.ts';
import { submitProposal } from './proposal-submission.ts';
import { CONSENT_VERSION, sealConsent, type ConsentEvidence } from './consent.ts';
import { inStoredTrace } from '../observability/tracing.ts';

export type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config' | 'bank' | 'log'>;

export const MAX_CODE_ATTEMPTS = 5;

export type Page =
  | { kind: 'invalido' }
  | { kind: 'expirado'; link: LinkRow }
  | { kind: 'cancelado'; reason: string | null; link: LinkRow }
  | { kind: 'step'; step: Step; link: LinkRow; journey: JourneyRow };

export type ActionResult = { kind: 'done' } | { kind: 'invalid'; errors: Record<string, string>; values: Record<string, string> };

const DONE: ActionResult = { kind: 'done' };
const invalid = (errors: Record<string, string>, values: Record<string, string> = {}): ActionResult => ({
  kind: 'invalid',
  errors,
  values,
});

export const END_REASONS: Record<string, string> = {
  sms_recusado: 'O banco não conseguiu enviar o código por SMS para você.',
  inelegivel: 'O banco informou que você não é elegível ao consignado privado neste momento.',
  sem_oferta: 'O banco não tem ofertas disponíveis para você neste momento.',
};

/** Whether a link token names a link (any status). */
export async function linkExists(deps: Deps, token: string): Promise<boolean> {
  return (await findLinkByTokenHash(deps.database.db, hashLinkToken(deps, token))) !== undefined;
}

/**
 * Which journey a step acts on: the token of the link's URL (the hosted pages), or the
 * link's id (the sandbox's journey simulation, which runs the same steps over the API).
 */
export type JourneyKey = string | { linkId: string };

const findLink = (deps: Deps, key: JourneyKey): Promise<LinkRow | undefined> =>
  typeof key === 'string'
    ? findLinkByTokenHash(deps.database.db, hashLinkToken(deps, key))
    : findLinkById(deps.database.db, key.linkId);

/** What GET shows; the first open of a link moves it to ABERTO. */
export async function loadPage(deps: Deps, key: JourneyKey): Promise<Page> {
  const link = await findLink(deps, key);
  if (!link) return { kind: 'invalido' };
  const status = effectiveStatus(link.status, link.expira_em, deps.clock.now());
  if (status === 'EXPIRADO') return { kind: 'expirado', link };
  let journey = await findJourney(deps.database.db, link.id);
  if (status === 'CANCELADO') return { kind: 'cancelado', reason: journey?.end_reason ?? null, link };
  if (!journey) {
    const now = deps.clock.now();
    await inStoredTrace(link.trace_context, 'jornada abrir', { 'consigna.link.id': link.id }, () =>
      deps.database.db.transaction().execute((tx) => openJourney(tx, link.id, now)),
    );
    journey = (await findJourney(deps.database.db, link.id))!;
    link.status = link.status === 'CRIADO' ? 'ABERTO' : link.status;
  }
  return { kind: 'step', step: journey.step as Step, link, journey };
}

type Live = { link: LinkRow; journey: JourneyRow };

/**
 * Runs a step action only on a live link; anything else just goes back to GET. The
 * step is a span of the link's trace (it continues the span that created the link).
 */
async function onLiveJourney(
  deps: Deps,
  key: JourneyKey,
  name: string,
  action: (live: Live) => Promise<ActionResult>,
): Promise<ActionResult> {
  const page = await loadPage(deps, key);
  if (page.kind !== 'step') return DONE;
  const live = { link: page.link, journey: page.journey };
  const attributes = { 'consigna.link.id': live.link.id, 'consigna.jornada.etapa': live.journey.step };
  return inStoredTrace(live.link.trace_context, `jornada ${name}`, attributes, async (span) => {
    const result = await action(live);
    span?.setAttribute('consigna.jornada.resultado', result.kind === 'done' ? 'ok' : 'invalido');
    return result;
  });
}

export const start = (deps: Deps, key: JourneyKey) =>
  onLiveJourney(deps, key, 'comecar', async ({ link }) => {
    await advance(deps.database.db, link.id, 'inicio', { step: 'celular', updated_at: deps.clock.now() });
    return DONE;
  });

/** The masked suggestion, submitted unchanged, means "use the suggested number". */
export function suggestedCelular(deps: Deps, link: LinkRow): string | undefined {
  return link.celular_sealed ? deps.keys.open(link.celular_sealed) : undefined;
}

export const sendCode = (deps: Deps, key: JourneyKey, input: { celular?: string }) =>
  onLiveJourney(deps, key, 'celular', async ({ link, journey }) => {
    if (journey.step !== 'celular' && journey.step !== 'codigo') return DONE;
    const typed = (input.celular ?? '').trim();
    const suggested = suggestedCelular(deps, link);
    const digits = typed.replace(/\D/g, '');
    const celular =
      suggested && typed.includes('*') ? suggested : digits.length === 13 && digits.startsWith('55') ? digits.slice(2) : digits;
    if (!isValidCelular(celular)) {
      return invalid(
        { celular: 'Celular inválido: informe DDD + número com 9 dígitos, por exemplo (11) 98765-4321.' },
        { celular: typed },
      );
    }
    const cpf = deps.keys.open(link.cpf_sealed!);
    const dispatch = await deps.bank.sendCode(cpf, celular);
    const now = deps.clock.now();
    if (!dispatch.enviado) {
      await deps.database.db.transaction().execute(async (tx) => {
        if (
          await advance(tx, link.id, ['celular', 'codigo'], { step: 'encerrado', end_reason: 'sms_recusado', updated_at: now })
        ) {
          await moveLink(tx, link.id, 'CANCELADO', now);
        }
      });
      return DONE;
    }
    await advance(deps.database.db, link.id, ['celular', 'codigo'], {
      step: 'codigo',
      celular_sealed: deps.keys.seal(celular),
      code_attempts: 0,
      code_sent_at: now,
      updated_at: now,
    });
    return DONE;
  });

export const confirmCode = (deps: Deps, key: JourneyKey, input: { codigo?: string }) =>
  onLiveJourney(deps, key, 'codigo', async ({ link, journey }) => {
    if (journey.step !== 'codigo') return DONE;
    if (journey.code_attempts >= MAX_CODE_ATTEMPTS) {
      return invalid({ codigo: 'Você errou o código 5 vezes. Peça um novo código para continuar.' });
    }
    const codigo = (input.codigo ?? '').replace(/\s/g, '');
    if (!/^\d{6}$/.test(codigo)) return invalid({ codigo: 'O código tem 6 dígitos.' });
    const cpf = deps.keys.open(link.cpf_sealed!);
    const celular = deps.keys.open(journey.celular_sealed!);
    const now = deps.clock.now();
    if (!(await deps.bank.verifyCode(cpf, celular, codigo))) {
      const attempts = journey.code_attempts + 1;
      await advance(deps.database.db, link.id, 'codigo', { code_attempts: attempts, updated_at: now });
      const left = MAX_CODE_ATTEMPTS - attempts;
      return invalid({
        codigo:
          left > 0
            ? `Código incorreto. Você tem mais ${left} ${left === 1 ? 'tentativa' : 'tentativas'}.`
            : 'Código incorreto. Você errou 5 vezes: peça um novo código para continuar.',
      });
    }
    await deps.database.db.transaction().execute(async (tx) => {
      if (await advance(tx, link.id, 'codigo', { step: 'consulta', updated_at: now })) {
        await moveLink(tx, link.id, 'EM_ANDAMENTO', now);
      }
    });
    return DONE;
  });

/** Back to the phone step to receive a new code (after a wrong number or 5 wrong codes). */
export const changePhone = (deps: Deps, key: JourneyKey) =>
  onLiveJourney(deps, key, 'reenviar', async ({ link }) => {
    await advance(deps.database.db, link.id, 'codigo', { step: 'celular', code_attempts: 0, updated_at: deps.clock.now() });
    return DONE;
  });

/**
 * The consent step: the authorisation is recorded (text version, time, and the sealed IP
 * and user agent) before the bank is queried, every time the customer submits it.
 */
export const consultOffers = (deps: Deps, key: JourneyKey, input: { autorizo?: string }, evidence: ConsentEvidence) =>
  onLiveJourney(deps, key, 'consulta', async ({ link, journey }) => {
    if (journey.step !== 'consulta') return DONE;
    if (!input.autorizo) return invalid({ autorizo: 'Para consultar as ofertas, marque a autorização.' });
    await recordConsent(deps.database.db, link.id, sealConsent(deps.keys, link.id, CONSENT_VERSION, deps.clock.now(), evidence));
    const cpf = deps.keys.open(link.cpf_sealed!);
    const eligibility = await deps.bank.checkEligibility(cpf);
    const offers = eligibility.elegivel ? await deps.bank.listOffers(cpf) : [];
    const now = deps.clock.now();
    if (!eligibility.elegivel || offers.length === 0) {
      const reason = eligibility.elegivel ? 'sem_oferta' : 'inelegivel';
      await deps.database.db.transaction().execute(async (tx) => {
        if (await advance(tx, link.id, 'consulta', { step: 'encerrado', end_reason: reason, updated_at: now })) {
          await moveLink(tx, link.id, 'CANCELADO', now);
        }
      });
      return DONE;
    }
    await advance(deps.database.db, link.id, 'consulta', { step: 'ofertas', offers: JSON.stringify(offers), updated_at: now });
    return DONE;
  });

export const offersOf = (journey: JourneyRow): Offer[] => (journey.offers as Offer[] | null) ?? [];

export const chooseOffer = (deps: Deps, key: JourneyKey, input: { oferta?: string }) =>
  onLiveJourney(deps, key, 'oferta', async ({ link, journey }) => {
    if (journey.step !== 'ofertas') return DONE;
    const offer = offersOf(journey).find((o) => o.id === input.oferta);
    if (!offer) return invalid({ oferta: 'Escolha uma das ofertas.' });
    await advance(deps.database.db, link.id, 'ofertas', {
      step: 'dados',
      chosen_offer_id: offer.id,
      updated_at: deps.clock.now(),
    });
    return DONE;
  });

export const submitCustomerData = (deps: Deps, key: JourneyKey, input: Record<string, string | undefined>) =>
  onLiveJourney(deps, key, 'dados', async ({ link, journey }) => {
    if (journey.step !== 'dados') return DONE;
    const { data, errors } = validateCustomerData(input, deps.clock.now());
    if (!data) {
      const values = Object.fromEntries(['nome', 'dataNascimento', 'email', 'chavePix'].map((k) => [k, String(input[k] ?? '')]));
      return invalid(errors as Record<string, string>, values);
    }
    await advance(deps.database.db, link.id, 'dados', {
      step: 'revisao',
      customer_sealed: deps.keys.seal(JSON.stringify(data)),
      updated_at: deps.clock.now(),
    });
    return DONE;
  });

/** "Alterar": back from the data step to the offers, or from review to the data. */
export const goBack = (deps: Deps, key: JourneyKey) =>
  onLiveJourney(deps, key, 'voltar', async ({ link, journey }) => {
    const previous: Partial<Record<string, Step>> = { dados: 'ofertas', revisao: 'dados' };
    const to = previous[journey.step];
    if (to)
      await advance(deps.database.db, link.id, journey.step as Step, {
        step: to,
        last_failure: null,
        updated_at: deps.clock.now(),
      });
    return DONE;
  });

export const sendProposal = (deps: Deps, key: JourneyKey) =>
  onLiveJourney(deps, key, 'proposta', async (live) => {
    await submitProposal(deps, live.link, live.journey);
    return DONE;
  });

export type { FieldErrors };
