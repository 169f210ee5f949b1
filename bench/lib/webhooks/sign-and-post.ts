// The plain sign-and-post task shared by the two reference senders (the raw undici
// loop and the graphile-worker task): Consigna's signature scheme and headers (ours and
// the Standard Webhooks ones, as every Consigna delivery carries both), one
// undici Pool to the receiver, nothing else (no address policy, no timeout signal,
// no history). Consigna's own worker does not use this: it goes through
// src/webhooks/delivery/deliverer.ts and src/webhooks/outbound.ts.
import { Pool } from 'undici';
import { signatureHeader, standardSignatureHeader } from '../../../src/webhooks/signature.ts';

export interface Post {
  (event: { id: string; tipo: string; body: string }, attempt?: number): Promise<void>;
  close(): Promise<void>;
}

export function signAndPost(url: string, secret: string, connections: number): Post {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections, pipelining: 1 });
  const post = (async (event, attempt = 1) => {
    const timestamp = Math.floor(Date.now() / 1000);
    const { statusCode, body } = await pool.request({
      method: 'POST',
      path: target.pathname,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Consigna-Webhooks/1.0',
        'x-service-signature': signatureHeader([secret], timestamp, event.body),
        'x-service-event-id': event.id,
        'x-service-event-type': event.tipo,
        'x-service-delivery-attempt': String(attempt),
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': standardSignatureHeader([secret], event.id, timestamp, event.body),
      },
      body: event.body,
    });
    await body.dump();
    if (statusCode < 200 || statusCode >= 300) throw new Error(`HTTP ${statusCode}`);
  }) as Post;
  post.close = () => pool.close();
  return post;
}
