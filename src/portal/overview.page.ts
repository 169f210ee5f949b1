// The portal's first section, "Visão geral" (GET /portal): read-only.
import type { PortalSection } from './portal-pages.ts';
import { overviewOf } from './overview.service.ts';
import { overviewBody } from './views/overview.ts';

export const overviewSection: PortalSection = {
  label: 'Visão geral',
  path: '/portal',
  register(portal) {
    portal.page('/portal', async ({ session }) => ({
      title: 'Visão geral',
      body: overviewBody(await overviewOf(portal.ctx, session.channelId)),
    }));
  },
};
