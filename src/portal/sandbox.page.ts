// "Sandbox" (/portal/sandbox, sandbox only): the test inbox and the simulators, through
// the services of POST /v1/sandbox/receptor, /v1/links/{id}/jornada/simular and
// /v1/links/{id}/proposta/simular. Their refusals (an invalid transition, no proposal
// yet, …) are shown on the page; another channel's link is not found, like a missing one.
import { AppError } from '../errors.ts';
import { ALLOWED_STATUSES, ensureInbox, inboxOfChannel } from '../sandbox/inbox.service.ts';
import { simulateJourney } from '../journey/simulation.service.ts';
import { simulateProposalStatus } from '../proposals/simulator.service.ts';
import { SIMULATABLE, type SimulatableStatus } from '../proposals/states.ts';
import { listLinks } from '../links/links-list.service.ts';
import { getLink } from '../links/links.service.ts';
import { isUuid } from '../crypto/random.ts';
import type { Context } from '../context.ts';
import type { PortalPage, PortalSection } from './portal-pages.ts';
import { recentChanges, RECENT_CHANGES } from './changes.service.ts';
import { recentChangesPanel } from './views/components.ts';
import { sandboxBody, type SandboxView } from './views/sandbox.ts';

const RECENT_LINKS = 20;

export const SANDBOX_CHANGE_LABELS: Readonly<Record<string, string>> = {
  'sandbox.receptor_status': 'Status do receptor de testes alterado',
  'sandbox.jornada_simulada': 'Jornada simulada',
  ...Object.fromEntries(SIMULATABLE.map((s) => [`sandbox.proposta_${s.toLowerCase()}`, `Proposta simulada: ${s}`])),
};

const DONE: Readonly<Record<string, string>> = {
  receptor: 'Receptor de testes salvo.',
  jornada: 'Jornada simulada: a proposta foi enviada (veja o status abaixo).',
  proposta: 'Status da proposta alterado.',
  'sem-mudanca': 'A proposta já estava nesse status: nada mudou.',
};

const inboxTarget = (channelId: string) => ({ alvoTipo: 'receptor', alvoId: channelId });
const linkTarget = (linkId: string) => ({ alvoTipo: 'link', alvoId: linkId });

async function sandboxPage(
  ctx: Context,
  channelId: string,
  csrf: string,
  linkId: string | undefined,
  message?: SandboxView['message'] & { status?: number },
): Promise<PortalPage> {
  // A link id that is not a UUID names nothing: a 404 like another channel's (getLink's).
  const selected = linkId !== undefined ? await getLink(ctx, channelId, linkId) : undefined;
  const [inbox, { links }, inboxChanges, linkChanges] = await Promise.all([
    inboxOfChannel(ctx, channelId),
    listLinks(ctx, channelId, { limite: RECENT_LINKS }),
    recentChanges(ctx, channelId, inboxTarget(channelId)),
    selected ? recentChanges(ctx, channelId, linkTarget(selected.id)) : [],
  ]);
  const changes = [...inboxChanges, ...linkChanges]
    .sort((a, b) => b.criadoEm.getTime() - a.criadoEm.getTime())
    .slice(0, RECENT_CHANGES);
  const view: SandboxView = {
    statuses: ALLOWED_STATUSES,
    simulatable: SIMULATABLE,
    links: selected && !links.some((l) => l.id === selected.id) ? [selected, ...links] : links,
    csrf,
    ...(inbox ? { inbox } : {}),
    ...(selected ? { selected } : {}),
    ...(message ? { message } : {}),
  };
  return {
    title: 'Sandbox',
    body: sandboxBody(view, recentChangesPanel(changes, SANDBOX_CHANGE_LABELS)),
    ...(message?.status ? { status: message.status } : {}),
  };
}

/** The simulators' refusals (409: no proposal yet, invalid transition, link expired…), shown on the page. */
async function orRefusal<T>(run: () => Promise<T>): Promise<T | { refused: { text: string; kind: 'erro'; status: number } }> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && (error.status === 409 || error.status === 400)) {
      return { refused: { text: error.message, kind: 'erro', status: error.status === 400 ? 422 : 409 } };
    }
    throw error;
  }
}

export const sandboxSection: PortalSection = {
  label: 'Sandbox',
  path: '/portal/sandbox',
  sandboxOnly: true,
  register(portal) {
    const { ctx } = portal;
    portal.page('/portal/sandbox', async ({ session, query, csrf }) => {
      const done = query.feito !== undefined ? DONE[query.feito] : undefined;
      return sandboxPage(ctx, session.channelId, csrf, query.link, done ? { text: done, kind: 'sucesso' } : undefined);
    });

    portal.action('/portal/sandbox/receptor', async ({ session, form, csrf }) => {
      const result = await orRefusal(() => ensureInbox(ctx, session.channelId, Number(form.status)));
      if ('refused' in result) return sandboxPage(ctx, session.channelId, csrf, undefined, result.refused);
      return {
        redirect: '/portal/sandbox?feito=receptor',
        change: { acao: 'sandbox.receptor_status', ...inboxTarget(session.channelId) },
      };
    });

    portal.action('/portal/sandbox/jornada', async ({ session, form, csrf }) => {
      const linkId = form.link ?? '';
      const result = await orRefusal(() => simulateJourney(ctx, session.channelId, linkId));
      if ('refused' in result) return sandboxPage(ctx, session.channelId, csrf, linkId, result.refused);
      return {
        redirect: `/portal/sandbox?link=${result.id}&feito=jornada`,
        change: { acao: 'sandbox.jornada_simulada', ...linkTarget(result.id) },
      };
    });

    portal.action('/portal/sandbox/proposta', async ({ session, form, csrf }) => {
      const linkId = form.link ?? '';
      const status = form.status ?? '';
      if (!(SIMULATABLE as readonly string[]).includes(status) || !isUuid(linkId)) {
        const text = `Escolha um link e um status: ${SIMULATABLE.join(', ')}.`;
        return sandboxPage(ctx, session.channelId, csrf, undefined, { text, kind: 'erro', status: 422 });
      }
      const result = await orRefusal(() => simulateProposalStatus(ctx, session.channelId, linkId, status as SimulatableStatus));
      if ('refused' in result) return sandboxPage(ctx, session.channelId, csrf, linkId, result.refused);
      if (!result.alterado) return { redirect: `/portal/sandbox?link=${linkId}&feito=sem-mudanca` };
      return {
        redirect: `/portal/sandbox?link=${linkId}&feito=proposta`,
        change: { acao: `sandbox.proposta_${status.toLowerCase()}`, ...linkTarget(linkId) },
      };
    });
  },
};
