// "Webhooks" (/portal/webhooks): the webhook's URL and events (edited through the API's
// own registerWebhook), its health, the deliveries and each one's attempts, and the
// actions (resend one, recover the failed ones after a confirmation that counts them,
// the test event, a new secret), each through the webhooks domain's services and each
// recorded as a change shown under "Alterações recentes".
import { html } from '../http/html.ts';
import { AppError, notFound } from '../errors.ts';
import { PROPOSAL_EVENT_TYPES } from '../events/event-body.ts';
import type { DeliveryStatus } from '../db/tables.ts';
import { findWebhook, registerWebhook, rotateSecret, toWebhookResource, webhookHealth } from '../webhooks/webhooks.service.ts';
import {
  countRecoverable,
  DELIVERY_STATUSES,
  getDelivery,
  listDeliveries,
  recoverDeliveries,
  resendDelivery,
  sendTestEvent,
} from '../webhooks/deliveries.service.ts';
import type { Context } from '../context.ts';
import { constantTimeEqual } from '../crypto/keys.ts';
import type { PortalPage, PortalSection, PortalSession } from './portal-pages.ts';
import { recentChanges, recordChange, type Change } from './changes.service.ts';
import { DAY_INVALID, dayRange, given } from './form-days.ts';
import { dateTime, integer, notice, panel, postForm, recentChangesPanel } from './views/components.ts';
import {
  actionsPanel,
  attemptsTable,
  configForm,
  deliveriesTable,
  deliveryFilterForm,
  deliveryHref,
  deliverySummary,
  healthPanel,
  secretPanel,
  WEBHOOK_CHANGE_LABELS,
  type RecentFigures,
} from './views/webhooks.ts';

/** The latest deliveries the health's success rate and latency are taken over. */
export const HEALTH_SAMPLE = 100;
const DELIVERIES_PAGE = 20;
const NO_WEBHOOK =
  'Nenhum webhook registrado para este canal. Registre a URL pela API (PUT /v1/webhooks): o segredo é mostrado só nessa resposta.';

const webhookTarget = (channelId: string) => ({ alvoTipo: 'webhook', alvoId: channelId });

/**
 * The deliveries list's cursor (the events' kind) names a position, not a channel: the
 * portal binds it to the session's channel with a keyed tag, so another channel's cursor,
 * or one made up, is the 404 page like a missing one.
 */
const cursorTag = (ctx: Context, channelId: string, cursor: string): string =>
  ctx.keys.hash('portal-deliveries-cursor', `${channelId}\n${cursor}`).subarray(0, 16).toString('base64url');
const boundCursor = (ctx: Context, channelId: string, cursor: string): string => `${cursor}.${cursorTag(ctx, channelId, cursor)}`;
function unboundCursor(ctx: Context, channelId: string, bound: string): string {
  const [cursor = '', tag = '', ...rest] = bound.split('.');
  if (rest.length > 0 || !constantTimeEqual(Buffer.from(tag), Buffer.from(cursorTag(ctx, channelId, cursor)))) throw notFound();
  return cursor;
}

/** Success rate and median latency over the latest finished deliveries: the API keeps counters, not a rate. */
async function recentFigures(ctx: Context, channelId: string): Promise<RecentFigures> {
  const { entregas } = await listDeliveries(ctx, channelId, { limite: HEALTH_SAMPLE });
  const finished = entregas.filter((d) => d.status !== 'PENDENTE');
  const latencies = finished.flatMap((d) => (d.ultimaLatenciaMs !== undefined ? [d.ultimaLatenciaMs] : [])).sort((a, b) => a - b);
  return {
    olhadas: finished.length,
    entregues: finished.filter((d) => d.status === 'ENTREGUE').length,
    falharam: finished.filter((d) => d.status === 'FALHOU').length,
    ...(latencies.length > 0 ? { latenciaMedianaMs: latencies[Math.floor((latencies.length - 1) / 2)]! } : {}),
  };
}

/** The webhook page; `form` shows the configuration form again with what was sent and its error. */
async function webhookPage(
  ctx: Context,
  request: { session: PortalSession; csrf: string; query: Record<string, string | undefined> },
  form?: { url: string; eventos: string[]; error: string },
): Promise<PortalPage> {
  const { session, csrf, query } = request;
  const row = await findWebhook(ctx, session.channelId);
  if (!row) return { title: 'Webhooks', body: notice(NO_WEBHOOK, 'info') };
  const webhook = toWebhookResource(ctx, row);
  const [health, figures, changes] = await Promise.all([
    webhookHealth(ctx, session.channelId),
    recentFigures(ctx, session.channelId),
    recentChanges(ctx, session.channelId, webhookTarget(session.channelId)),
  ]);
  const requeued =
    query.reenfileiradas !== undefined && /^\d{1,9}$/.test(query.reenfileiradas) ? Number(query.reenfileiradas) : undefined;
  return {
    title: 'Webhooks',
    status: form ? 422 : 200,
    body: html`${requeued !== undefined ? notice(`${integer(requeued)} ${requeued === 1 ? 'entrega reenfileirada' : 'entregas reenfileiradas'}: serão enviadas de novo em instantes.`, 'sucesso') : ''}
${query.salvo === '1' ? notice('URL e eventos salvos.', 'sucesso') : ''}
${panel('Endereço e eventos', configForm({ csrf, url: form?.url ?? webhook.url, eventos: form?.eventos ?? webhook.eventos, ...(form ? { error: form.error } : {}) }), 'configuracao')}
${healthPanel(health, figures)}
${panel('Entregas', html`<p><a href="/portal/webhooks/entregas">Todas as entregas</a> · <a href="/portal/webhooks/entregas?status=FALHOU">Entregas que falharam</a> (${integer(health.falhas)})</p>`, 'entregas')}
${actionsPanel(csrf)}
${secretPanel(csrf, webhook)}
${recentChangesPanel(changes, WEBHOOK_CHANGE_LABELS)}`,
  };
}

/** A page an action answers with directly (its change recorded right after the service ran). */
async function recordedPage(ctx: Context, session: PortalSession, change: Change, page: PortalPage): Promise<PortalPage> {
  await recordChange(ctx.database.db, session, change, ctx.clock.now());
  return { status: 200, ...page };
}

const statusOf = (text: string | undefined): DeliveryStatus | undefined =>
  (DELIVERY_STATUSES as readonly string[]).includes(text ?? '') ? (text as DeliveryStatus) : undefined;

export const webhooksSection: PortalSection = {
  label: 'Webhooks',
  path: '/portal/webhooks',
  register(portal) {
    const { ctx } = portal;

    portal.page('/portal/webhooks', (request) => webhookPage(ctx, request));

    portal.action('/portal/webhooks/configuracao', async (request) => {
      const { session, form } = request;
      const eventos = PROPOSAL_EVENT_TYPES.filter((tipo) => form[`eventos.${tipo}`] !== undefined);
      if (!(await findWebhook(ctx, session.channelId))) throw notFound(NO_WEBHOOK);
      try {
        await registerWebhook(ctx, session.channelId, { url: form.url ?? '', eventos });
      } catch (error) {
        if (error instanceof AppError && error.status === 400) {
          return webhookPage(ctx, { ...request, query: {} }, { url: form.url ?? '', eventos, error: error.message });
        }
        throw error;
      }
      return {
        redirect: '/portal/webhooks?salvo=1',
        change: { acao: 'webhook.configuracao_alterada', ...webhookTarget(session.channelId) },
      };
    });

    portal.action('/portal/webhooks/segredo', async ({ session }) => {
      const rotated = await rotateSecret(ctx, session.channelId);
      return recordedPage(
        ctx,
        session,
        { acao: 'webhook.segredo_rotacionado', ...webhookTarget(session.channelId) },
        {
          title: 'Novo segredo gerado',
          body: html`${notice('Guarde este segredo agora: ele não será mostrado de novo.', 'sucesso')}
<p><code class="segredo" id="novo-segredo">${rotated.segredo ?? ''}</code></p>
${rotated.segredoAnteriorValidoAte ? html`<p>O segredo anterior continua valendo até ${dateTime(new Date(rotated.segredoAnteriorValidoAte))} (24 horas): troque-o no seu receptor até lá.</p>` : ''}
<p><a href="/portal/webhooks">Voltar aos webhooks</a></p>`,
        },
      );
    });

    portal.action('/portal/webhooks/teste', async ({ session }) => {
      const result = await sendTestEvent(ctx, session.channelId);
      const answer = result.httpStatus !== undefined ? `HTTP ${result.httpStatus}` : (result.erro ?? 'sem resposta');
      return recordedPage(
        ctx,
        session,
        { acao: 'webhook.teste_enviado', ...webhookTarget(session.channelId) },
        {
          title: 'Evento de teste enviado',
          body: html`${notice(
            result.entregue
              ? `Entregue: o receptor respondeu ${answer} em ${integer(result.latenciaMs)} ms.`
              : `Não entregue: ${answer} (${integer(result.latenciaMs)} ms).`,
            result.entregue ? 'sucesso' : 'erro',
          )}
<p><a href="/portal/webhooks">Voltar aos webhooks</a></p>`,
        },
      );
    });

    portal.page('/portal/webhooks/recuperar', async ({ session, query, csrf }) => {
      const range = dayRange(given(query.desde), given(query.ate));
      const back = html`<p><a href="/portal/webhooks">Voltar aos webhooks</a></p>`;
      if (!range)
        return { title: 'Recuperar entregas que falharam', status: 422, body: html`${notice(DAY_INVALID, 'erro')}${back}` };
      let count: number;
      try {
        count = await countRecoverable(ctx, session.channelId, range);
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error;
        return { title: 'Recuperar entregas que falharam', status: 422, body: html`${notice(error.message, 'erro')}${back}` };
      }
      const period = html`${range.desde ? html` criadas desde ${dateTime(new Date(range.desde))}` : ''}${range.ate ? html` criadas antes de ${dateTime(new Date(range.ate))}` : ''}`;
      const hidden = html`${range.desde ? html`<input type="hidden" name="desde" value="${range.desde}">` : ''}${range.ate ? html`<input type="hidden" name="ate" value="${range.ate}">` : ''}`;
      return {
        title: 'Recuperar entregas que falharam',
        body:
          count === 0
            ? html`<p>Nenhuma entrega que falhou${period}: nada a reenfileirar.</p>${back}`
            : html`<p><strong>${integer(count)} ${count === 1 ? 'entrega que falhou será reenfileirada' : 'entregas que falharam serão reenfileiradas'}</strong>${period}, com as tentativas zeradas, e enviadas de novo na ordem em que ocorreram.</p>
${postForm({ action: '/portal/webhooks/recuperar', csrf, button: `Reenfileirar ${integer(count)} ${count === 1 ? 'entrega' : 'entregas'}`, fields: hidden })}
${back}`,
      };
    });

    portal.action('/portal/webhooks/recuperar', async ({ session, form }) => {
      const range = { ...(given(form.desde) ? { desde: form.desde! } : {}), ...(given(form.ate) ? { ate: form.ate! } : {}) };
      try {
        const { reenfileiradas } = await recoverDeliveries(ctx, session.channelId, { status: 'FALHOU', ...range });
        return {
          redirect: `/portal/webhooks?reenfileiradas=${reenfileiradas}`,
          change: { acao: 'webhook.entregas_recuperadas', ...webhookTarget(session.channelId) },
        };
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error;
        return { title: 'Recuperar entregas que falharam', body: notice(error.message, 'erro') };
      }
    });

    portal.page('/portal/webhooks/entregas', async ({ session, query }) => {
      if (!(await findWebhook(ctx, session.channelId))) return { title: 'Entregas do webhook', body: notice(NO_WEBHOOK, 'info') };
      const status = statusOf(given(query.status));
      const asked = given(query.cursor);
      const cursor = asked !== undefined ? unboundCursor(ctx, session.channelId, asked) : undefined;
      let list;
      try {
        list = await listDeliveries(ctx, session.channelId, {
          limite: DELIVERIES_PAGE,
          ...(status ? { status } : {}),
          ...(cursor ? { cursor } : {}),
        });
      } catch (error) {
        if (error instanceof AppError && error.code === 'cursor_invalido') throw notFound();
        throw error;
      }
      const next = list.proximoCursor
        ? `/portal/webhooks/entregas?${new URLSearchParams({
            ...(status ? { status } : {}),
            cursor: boundCursor(ctx, session.channelId, list.proximoCursor),
          }).toString()}`
        : undefined;
      return {
        title: 'Entregas do webhook',
        body: html`${panel('Filtro', deliveryFilterForm(status), 'filtro')}
${deliveriesTable(list.entregas, cursor ? 'Entregas, continuação (mais recentes primeiro)' : 'Entregas, mais recentes primeiro')}
${next ? html`<p><a class="botao secundario" href="${next}">Mais antigas</a></p>` : ''}
<p><a href="/portal/webhooks">Voltar aos webhooks</a></p>`,
      };
    });

    portal.page('/portal/webhooks/entregas/:id', async ({ session, params, query, csrf }) => {
      const delivery = await getDelivery(ctx, session.channelId, params.id ?? '');
      const changes = await recentChanges(ctx, session.channelId, { alvoTipo: 'entrega', alvoId: delivery.id });
      return {
        title: 'Entrega do webhook',
        body: html`${query.reenviada === '1' ? notice(`Reenviada: agora ${delivery.status === 'ENTREGUE' ? 'entregue' : delivery.status === 'FALHOU' ? 'falhou de novo' : 'pendente, com novas tentativas agendadas'}.`, delivery.status === 'ENTREGUE' ? 'sucesso' : 'info') : ''}
${panel('Resumo', deliverySummary(delivery), 'resumo')}
${panel('Tentativas e respostas do receptor', attemptsTable(delivery.historico), 'tentativas')}
${
  delivery.status === 'PENDENTE'
    ? html`<p class="discreto">Pendente: será tentada de novo no horário agendado.</p>`
    : postForm({ action: `${deliveryHref(delivery.id)}/reenviar`, csrf, button: 'Reenviar esta entrega' })
}
${recentChangesPanel(changes, WEBHOOK_CHANGE_LABELS)}
<p><a href="/portal/webhooks/entregas">Voltar às entregas</a></p>`,
      };
    });

    portal.action('/portal/webhooks/entregas/:id/reenviar', async ({ session, params }) => {
      const id = (params.id ?? '').toLowerCase();
      try {
        await resendDelivery(ctx, session.channelId, id);
      } catch (error) {
        if (error instanceof AppError && error.status === 409) {
          return {
            title: 'Entrega pendente',
            status: 409,
            body: html`${notice(error.message, 'erro')}<p><a href="${deliveryHref(id)}">Voltar à entrega</a></p>`,
          };
        }
        throw error;
      }
      return {
        redirect: `${deliveryHref(id)}?reenviada=1`,
        change: { acao: 'entrega.reenviada', alvoTipo: 'entrega', alvoId: id },
      };
    });
  },
};
