import type { Config } from '../config/config.ts';
import { openContext, startRoles, type Roles } from '../server.ts';
import { ensureDemoChannel } from '../channels/demo-channel.ts';
import { printCredentials } from './credentials-output.ts';

export async function runServe(config: Config, roles: Roles, options: { demo: boolean }): Promise<number> {
  const ctx = await openContext(config);
  if (config.allowInsecureWebhooks) {
    ctx.log.warn('CONSIGNA_ALLOW_INSECURE_WEBHOOKS=true: http and loopback webhook targets are allowed (development only)');
  }
  let running;
  try {
    if (options.demo) {
      const issued = await ensureDemoChannel(ctx);
      if (issued) printCredentials(issued, false, 'Demo channel created (printed only this once).');
    }
    running = await startRoles(ctx, roles, {
      // `consigna channels …` while this process holds the embedded data folder; loaded on first use.
      control: { channels: async (payload) => (await import('./channels.command.ts')).answerChannelsRequest(ctx, payload) },
    });
  } catch (error) {
    await ctx.release();
    throw error;
  }
  const base = config.publicBaseUrl;
  if (roles.api) {
    console.log(`Consigna ${config.ambiente} listening on ${running.url} (${ctx.database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})
  Integration guide (pt-BR): ${base}/docs
  API reference:             ${base}/docs/referencia
  OpenAPI:                   ${base}/openapi.yaml
  Stop with Ctrl-C (SIGTERM also drains and exits).`);
  } else {
    console.log(`Consigna worker running (${ctx.database.kind}).`);
  }

  return new Promise((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) {
        ctx.log.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      ctx.log.info({ signal }, 'shutting down');
      const deadline = setTimeout(() => {
        ctx.log.error('shutdown took too long; exiting');
        process.exit(1);
      }, config.shutdownTimeoutMs);
      deadline.unref();
      running.stop().then(
        () => resolve(0),
        (error: Error) => {
          ctx.log.error({ err: error }, 'shutdown failed');
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
