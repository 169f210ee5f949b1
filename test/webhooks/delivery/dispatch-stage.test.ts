// The dispatch stage (src/webhooks/delivery/dispatch-stage.ts) with real receivers and a
// real queue: an attempt is a signed POST whose answer becomes a result; claimed rows
// start within each channel's share, in turns, the rest waiting; a channel that keeps
// failing is contained and its waiting rows go back unattempted; a stopping stage gives
// back what never started and waits for what did.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attempter, Dispatcher } from '../../../src/webhooks/delivery/dispatch-stage.ts';
import { createDeliverer, type Deliverer } from '../../../src/webhooks/delivery/deliverer.ts';
import { createOutbound, type Outbound } from '../../../src/webhooks/outbound.ts';
import type { AttemptResult, ClaimedDelivery } from '../../../src/webhooks/delivery/types.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { openQueue, type Queue } from './queue.ts';

describe('the dispatch stage', () => {
  let queue: Queue;
  let outbound: Outbound;
  let deliverer: Deliverer;
  const receivers: Receiver[] = [];
  const dispatchers: Dispatcher[] = [];

  beforeAll(async () => {
    queue = await openQueue({
      CONSIGNA_WORKER_CONCURRENCY: '8',
      CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL: '2',
      CONSIGNA_WORKER_CONTAIN_AFTER: '3',
    });
    outbound = createOutbound({ allowInsecure: true, timeoutMs: 5000, userAgent: 'test' });
    deliverer = createDeliverer({ outbound, clock: queue.clock, publicBaseUrl: queue.config.publicBaseUrl });
  });
  afterEach(async () => {
    for (const d of dispatchers.splice(0)) {
      d.stop();
      await d.drain();
    }
    for (const r of receivers.splice(0)) await r.close();
  });
  afterAll(async () => {
    await outbound?.close();
    await queue?.close();
  });

  const receiver = async (options: Parameters<typeof startReceiver>[0] = {}) => {
    const r = await startReceiver(options);
    receivers.push(r);
    return r;
  };

  /** A dispatcher that goes on dispatching as attempts end, as the loop does; what it reported. */
  function dispatcher() {
    const results: Array<{ claimed: ClaimedDelivery; result: AttemptResult }> = [];
    const contained: string[] = [];
    const ended: string[] = [];
    const d: Dispatcher = new Dispatcher(
      { ...queue, deliverer },
      {
        result: (claimed, result) => results.push({ claimed, result }),
        contained: (channelId) => contained.push(channelId),
        ended: (channelId) => {
          ended.push(channelId);
          d.dispatch();
        },
        released: () => d.dispatch(),
      },
    );
    dispatchers.push(d);
    return { d, results, contained, ended };
  }

  it('sends a signed attempt and says what its answer leads to', async () => {
    const ok = await receiver();
    const down = await receiver({ status: 503 });
    const a = await queue.channel(ok.url);
    const b = await queue.channel(down.url);
    await queue.enqueue(a, 1);
    await queue.enqueue(b, 1);
    const claimed = await queue.claim(a, b);
    const attempt = attempter({ ...queue, deliverer });
    const [delivered, failed] = await Promise.all([
      attempt(claimed.find((c) => c.channelId === a)!),
      attempt(claimed.find((c) => c.channelId === b)!),
    ]);
    expect(delivered).toMatchObject({ status: 'ENTREGUE', httpStatus: 200, channelId: a });
    expect(failed).toMatchObject({ status: 'PENDENTE', httpStatus: 503, channelId: b });
    expect(failed.nextAttemptAt!.getTime() - failed.at.getTime()).toBe(1000);
    const [request] = ok.requests;
    const sent = claimed.find((c) => c.channelId === a)!;
    expect(request!.headers['x-service-event-id']).toBe(sent.eventId);
    expect(request!.headers['x-service-delivery-attempt']).toBe('1');
    expect(request!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(request!.body).toBe(sent.payload);
  });

  it("starts each channel's rows up to its share, in turns, oldest event first, the rest waiting", async () => {
    const slow = await receiver();
    const fast = await receiver();
    slow.hold();
    const a = await queue.channel(slow.url);
    const b = await queue.channel(fast.url);
    await queue.enqueue(a, 5);
    await queue.enqueue(b, 3);
    const { d, results } = dispatcher();
    // Rows of a claim come in any order: each channel's still start oldest first.
    d.buffer.push((await queue.claim(a, b)).reverse());
    d.dispatch();
    // B's three went out, two at a time; A waits with two of its five under way.
    await expect.poll(() => results.length).toBe(3);
    await expect.poll(() => slow.requests.length).toBe(2);
    expect(results.every((r) => r.result.status === 'ENTREGUE' && r.claimed.channelId === b)).toBe(true);
    expect(fast.mostOpen).toBeLessThanOrEqual(2);
    expect(d.slots.sendingOf(a)).toBe(2);
    expect(d.buffer.waiting(d.slots.mayStart)).toBe(3);
    slow.release();
    await expect.poll(() => results.length, { timeout: 10_000 }).toBe(8);
    const order = results.filter((r) => r.claimed.channelId === a).map((r) => r.claimed.eventAt);
    // Released together, the first two may answer in either order; the waiting three follow in order.
    expect(order.slice(2)).toEqual([...order.slice(2)].sort((x, y) => x - y));
    expect(Math.max(...order.slice(0, 2))).toBeLessThan(Math.min(...order.slice(2)));
    expect(slow.mostOpen).toBe(2);
  });

  it('contains a channel at its third failure in a row and gives its waiting rows back unattempted', async () => {
    const down = await receiver({ status: 503 });
    const c = await queue.channel(down.url);
    await queue.enqueue(c, 6);
    const { d, results, contained } = dispatcher();
    d.buffer.push(await queue.claim(c));
    d.dispatch();
    await expect.poll(() => results.length).toBe(4);
    expect(contained).toEqual([c]);
    expect(d.buffer.size).toBe(0);
    const rows = await queue.rows(c);
    // Four attempted (their claims hold them); two given back: due, no lease, no attempt counted.
    expect(rows.filter((r) => r.lease_id === null).map((r) => r.tentativas)).toEqual([0, 0]);
    expect(down.requests).toHaveLength(4);
    expect(d.slots.contained()).toEqual([c]);
  });

  it('when stopping, gives back what never started and waits for the attempts under way', async () => {
    const held = await receiver();
    held.hold();
    const e = await queue.channel(held.url);
    await queue.enqueue(e, 4);
    const { d, ended } = dispatcher();
    d.buffer.push(await queue.claim(e));
    d.dispatch();
    await expect.poll(() => held.requests.length).toBe(2);
    d.stop();
    let drained = false;
    const draining = d.drain().then(() => (drained = true));
    await expect.poll(async () => (await queue.rows(e)).filter((r) => r.lease_id === null).length).toBe(2);
    expect(drained).toBe(false);
    held.release();
    await draining;
    expect(ended).toEqual([e, e]);
    expect(held.requests).toHaveLength(2);
  });
});
