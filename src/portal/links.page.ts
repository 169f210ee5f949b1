// "Links" (/portal/links): the channel's links through GET /v1/links's own service, with
// its filters and cursor, and one link's timeline (/portal/links/:id). A filter the
// service refuses is shown on the page (422) with its message; a cursor it refuses
// (another channel's, made up) and another channel's link are the 404 page.
import { AppError, notFound } from '../errors.ts';
import { listLinks, type LinkListQuery } from '../links/links-list.service.ts';
import type { PortalSection } from './portal-pages.ts';
import { linkTimeline } from './link-timeline.service.ts';
import { DAY_INVALID, dayRange, given } from './form-days.ts';
import { linkListBody, timelineBody, type LinkFilters } from './views/links.ts';

export const linksSection: PortalSection = {
  label: 'Links',
  path: '/portal/links',
  register(portal) {
    portal.page('/portal/links', async ({ session, query }) => {
      const filters: LinkFilters = {};
      for (const key of ['status', 'propostaStatus', 'referenciaExterna', 'desde', 'ate'] as const) {
        const value = given(query[key]);
        if (value !== undefined) filters[key] = value;
      }
      const cursor = given(query.cursor);
      const page = (body: Parameters<typeof linkListBody>[0], status = 200) => ({
        title: 'Links',
        body: linkListBody(body),
        status,
      });
      const range = dayRange(filters.desde, filters.ate);
      if (!range) return page({ filters, error: DAY_INVALID, paged: false }, 422);
      const listQuery: LinkListQuery = {
        ...(filters.status ? { status: filters.status } : {}),
        ...(filters.propostaStatus ? { propostaStatus: filters.propostaStatus } : {}),
        ...(filters.referenciaExterna ? { referenciaExterna: filters.referenciaExterna } : {}),
        ...range,
        ...(cursor ? { cursor } : {}),
      };
      try {
        const list = await listLinks(portal.ctx, session.channelId, listQuery);
        const next = list.proximoCursor
          ? `/portal/links?${new URLSearchParams({ ...filters, cursor: list.proximoCursor }).toString()}`
          : undefined;
        return page({ filters, links: list.links, ...(next ? { nextHref: next } : {}), paged: cursor !== undefined });
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error;
        // Another channel's cursor, or a made-up one, says nothing: the same 404 as a missing page.
        if (error.code === 'cursor_invalido') throw notFound();
        return page({ filters, error: error.message, paged: false }, 422);
      }
    });

    portal.page('/portal/links/:id', async ({ session, params }) => {
      const timeline = await linkTimeline(portal.ctx, session.channelId, params.id ?? '');
      return { title: 'Linha do tempo do link', body: timelineBody(timeline) };
    });
  },
};
