// The portal's sections, in nav order: each adds its nav entry and its pages
// (portal-pages.ts). A section is listed here once its pages exist, so the nav never
// links to a page that is not there. Add yours as `import { xSection } from './x.page.ts'`.
import type { PortalSection } from './portal-pages.ts';
import { overviewSection } from './overview.page.ts';
import { linksSection } from './links.page.ts';
import { webhooksSection } from './webhooks.page.ts';
import { brandSection } from './brand.page.ts';
import { sandboxSection } from './sandbox.page.ts';

export const PORTAL_SECTIONS: readonly PortalSection[] = [
  overviewSection,
  linksSection,
  webhooksSection,
  brandSection,
  sandboxSection,
];
