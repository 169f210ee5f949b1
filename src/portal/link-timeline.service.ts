// One link's timeline for the portal (docs/rules.md §10.6), from the domains' own
// services: the link as GET /v1/links/{id} shows it, where its journey is, its events as
// GET /v1/eventos lists them and each one's delivery as GET /v1/webhooks/entregas does.
// getLink comes first: another channel's link, or a malformed id, is 404 before anything else.
import type { Context } from '../context.ts';
import { getLink } from '../links/links.service.ts';
import type { LinkResource } from '../links/link-resource.ts';
import { journeyProgress, type JourneyProgress } from '../journey/journey-progress.ts';
import { listEvents } from '../events/events.service.ts';
import type { EventBody } from '../events/event-body.ts';
import { findWebhook } from '../webhooks/webhooks.service.ts';
import { listDeliveries, type DeliveryResource } from '../webhooks/deliveries.service.ts';

type Deps = Pick<Context, 'database' | 'clock'>;

/** A link has a handful of proposal events; a page this long holds them all. */
export const TIMELINE_EVENTS = 100;

export interface TimelineEvent {
  id: string;
  tipo: string;
  ocorridoEm: string;
  propostaStatus?: string;
  motivo?: string;
  entrega?: DeliveryResource;
}

export interface LinkTimeline {
  link: LinkResource;
  jornada?: JourneyProgress;
  /** Oldest first. */
  eventos: TimelineEvent[];
  /** Whether there are more events than shown. */
  maisEventos: boolean;
}

export async function linkTimeline(deps: Deps, channelId: string, id: string): Promise<LinkTimeline> {
  const link = await getLink(deps, channelId, id);
  const [jornada, page, deliveries] = await Promise.all([
    journeyProgress(deps, link.id),
    listEvents(deps, channelId, { linkId: link.id, limite: TIMELINE_EVENTS }),
    deliveriesOf(deps, channelId, link.id),
  ]);
  const { eventos, proximoCursor } = JSON.parse(page) as { eventos: EventBody[]; proximoCursor?: string };
  const byEvent = new Map(deliveries.map((d) => [d.eventoId, d]));
  return {
    link,
    ...(jornada ? { jornada } : {}),
    eventos: eventos.reverse().map((e) => ({
      id: e.id,
      tipo: e.tipo,
      ocorridoEm: e.ocorridoEm,
      ...(typeof e.proposta?.status === 'string' ? { propostaStatus: e.proposta.status } : {}),
      ...(e.motivo !== undefined ? { motivo: e.motivo } : {}),
      ...(byEvent.has(e.id) ? { entrega: byEvent.get(e.id)! } : {}),
    })),
    maisEventos: proximoCursor !== undefined,
  };
}

/** The link's deliveries (none without a webhook: listDeliveries would say 404). */
async function deliveriesOf(deps: Deps, channelId: string, linkId: string): Promise<DeliveryResource[]> {
  if (!(await findWebhook(deps, channelId))) return [];
  return (await listDeliveries(deps, channelId, { linkId, limite: TIMELINE_EVENTS })).entregas;
}
