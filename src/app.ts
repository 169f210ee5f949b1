// The application: the HTTP server (src/http/fastify.ts) with every domain's routes,
// in the order they must be registered. `buildApp` is what `serve`/`api` listen with
// and what tests `inject` into.
import type { Context } from './context.ts';
import { createHttpServer, type App } from './http/fastify.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerAssetRoutes } from './http/assets.ts';
import { registerHealthRoutes } from './http/health.routes.ts';
import { metricsFor } from './metrics/metrics.ts';
import { deliveryMetricsFor } from './webhooks/delivery/delivery-metrics.ts';
import { registerAuth } from './auth/bearer.plugin.ts';
import { registerTokenRoutes } from './auth/token.routes.ts';
import { registerPingRoutes } from './channels/ping.routes.ts';
import { registerLinkRoutes } from './links/links.routes.ts';
import { registerSimulatorRoutes } from './proposals/simulator.routes.ts';
import { registerJourneyRoutes } from './journey/journey.routes.ts';
import { registerJourneySimulationRoutes } from './journey/simulation.routes.ts';
import { registerExpirySimulationRoutes } from './links/expiry-simulation.routes.ts';
import { journeyAssets } from './journey/views/assets.ts';
import { registerEventRoutes } from './events/events.routes.ts';
import { registerReportRoutes } from './reports/funnel.routes.ts';
import { registerBrandRoutes } from './brand/brand.routes.ts';
import { registerWebhookRoutes } from './webhooks/webhooks.routes.ts';
import { registerRetrySimulationRoutes } from './webhooks/retry-simulation.routes.ts';
import { refuseExhaustedInboxTokens, registerInboxRoutes } from './sandbox/inbox.routes.ts';
import { registerInboxStreamRoutes } from './sandbox/inbox-stream.routes.ts';
import { registerViewerRoutes } from './sandbox/viewer.routes.ts';
import { viewerAssets } from './sandbox/views/assets.ts';
import { docsAssets, registerDocsRoutes } from './docs/docs.routes.ts';
import { registerPortalApiRoutes } from './portal/sessions.routes.ts';
import { registerPortalRoutes } from './portal/portal.routes.ts';
import { portalAssets } from './portal/views/assets.ts';

export type { App };

export async function buildApp(ctx: Context): Promise<App> {
  const { app, limiter } = createHttpServer(ctx);
  await registerOpenApi(app, ctx);
  await registerAuth(app, ctx, limiter);
  registerHealthRoutes(app, ctx);
  // The queue's gauges on this process's /metrics too: they read the shared queue.
  deliveryMetricsFor(ctx, metricsFor(ctx).registry);
  registerTokenRoutes(app, ctx);
  registerPingRoutes(app, ctx);
  registerLinkRoutes(app, ctx);
  registerSimulatorRoutes(app, ctx);
  registerJourneySimulationRoutes(app, ctx);
  registerExpirySimulationRoutes(app, ctx);
  registerJourneyRoutes(app, ctx, limiter);
  registerEventRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  registerRetrySimulationRoutes(app, ctx);
  registerBrandRoutes(app, ctx);
  registerPortalApiRoutes(app, ctx);
  registerPortalRoutes(app, ctx, limiter);
  if (ctx.config.ambiente === 'SANDBOX') {
    refuseExhaustedInboxTokens(app, ctx, limiter);
    registerInboxRoutes(app, ctx, limiter);
    registerInboxStreamRoutes(app, ctx, limiter);
    registerViewerRoutes(app, ctx, limiter);
  }
  registerDocsRoutes(app, ctx);
  registerAssetRoutes(
    app,
    ctx.config.ambiente === 'SANDBOX'
      ? [journeyAssets, viewerAssets, docsAssets, portalAssets]
      : [journeyAssets, docsAssets, portalAssets],
  );

  return app;
}
