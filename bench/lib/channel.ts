// A channel with a webhook, written straight into a bench database through the
// service's own functions: for suites that measure the queue, not the HTTP API. The
// webhook points at a closed port (nothing is meant to be delivered).
import { randomBytes } from 'node:crypto';
import type { Database } from '../../src/db/database.ts';
import { deriveKeys } from '../../src/crypto/keys.ts';
import { systemClock } from '../../src/clock.ts';
import type { Config } from '../../src/config/config.ts';
import { createChannel } from '../../src/channels/channels.service.ts';
import { registerWebhook } from '../../src/webhooks/webhooks.service.ts';

/** Returns the new channel's id. */
export async function channelWithWebhook(database: Database, name: string): Promise<string> {
  const deps = {
    database,
    keys: deriveKeys(randomBytes(32)),
    clock: systemClock,
    config: { ambiente: 'SANDBOX', allowInsecureWebhooks: true, publicBaseUrl: 'http://127.0.0.1:9' } as Config,
  };
  const channel = await createChannel(deps, { name });
  await registerWebhook(deps, channel.canalId, { url: 'http://127.0.0.1:9/hook' });
  return channel.canalId;
}
