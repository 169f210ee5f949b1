import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { waitFor } from '../helpers/wait.ts';
import { channelWithRegisteredInbox } from '../sandbox/support.ts';
import { metricsFor } from '../../src/metrics/metrics.ts';
import { startDeliveryWorker } from '../../src/webhooks/delivery/worker.ts';
import { deliveryMetricsFor } from '../../src/webhooks/delivery/delivery-metrics.ts';

describe('GET /metrics', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('exposes request counts and latency by route pattern, deliveries and the queue, and nothing secret', async () => {
    const { auth, channel } = await channelWithRegisteredInbox(service);
    const token = auth.authorization!.slice('Bearer '.length);
    const link = (await createLinkVia(service, auth, { cpf: '12345678909' })).json();
    await service.inject({ method: 'GET', url: `/v1/links/${link.id}`, headers: auth });
    const client = new JourneyClient(service, link.url);
    await client.upToReview();
    await client.post('proposta');

    const before = await (await service.inject({ method: 'GET', url: '/metrics' })).body;
    expect(before).toMatch(/consigna_webhook_queue_depth 2/);

    const metrics = deliveryMetricsFor(service.ctx, metricsFor(service.ctx).registry);
    const worker = await startDeliveryWorker(service.ctx, { onAttempt: (c, r) => metrics.observeAttempt(c, r) });
    try {
      await waitFor(async () =>
        /consigna_webhook_queue_depth 0/.test((await service.inject({ method: 'GET', url: '/metrics' })).body),
      );
    } finally {
      await worker.stop();
    }
    const response = await service.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = response.body;
    expect(text).toMatch(/consigna_http_requests_total\{method="GET",route="\/v1\/links\/:id",status="200"\} 1/);
    expect(text).toMatch(
      /consigna_http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="\/v1\/links",status="201"\}/,
    );
    expect(text).toMatch(/consigna_http_requests_total\{method="GET",route="\/c\/:token",status="200"\}/);
    expect(text).toMatch(/consigna_webhook_attempts_total\{outcome="ENTREGUE"\} 2/);
    expect(text).toMatch(/consigna_webhook_event_to_delivery_seconds_count 2/);
    // Measured from the event's own time as the claim returns it: a number of seconds, not NaN.
    const eventToDelivery = Number(/consigna_webhook_event_to_delivery_seconds_sum (\S+)/.exec(text)?.[1]);
    expect(eventToDelivery).toBeGreaterThanOrEqual(0);
    expect(eventToDelivery).toBeLessThan(600);
    expect(text).toMatch(/consigna_webhook_oldest_due_age_seconds 0/);
    expect(text).toMatch(/consigna_process_resident_memory_bytes/);
    for (const secret of [token, link.id, new URL(link.url).pathname.split('/').pop()!, channel.clientSecret, '12345678909']) {
      expect(text).not.toContain(secret);
    }
  });
});
