// The worker's buffer of claimed rows (src/webhooks/delivery/claim-buffer.ts): each
// channel's rows start oldest event first whatever order the claims returned them in,
// and a row that waited too long for a slot is given back, never started, even when a
// row claimed later sits in front of it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClaimBuffer } from '../../src/webhooks/delivery/claim-buffer.ts';
import type { ClaimedDelivery } from '../../src/webhooks/delivery/types.ts';

const row = (channelId: string, eventAt: number): ClaimedDelivery => ({
  id: `${channelId}-${eventAt}`,
  leaseId: 'lease',
  channelId,
  attempt: 1,
  eventId: `event-${eventAt}`,
  tipo: 'proposta.aprovada',
  payload: '{}',
  url: 'https://example.com/webhook',
  secretSealed: '00',
  previousSecretSealed: null,
  previousValidUntil: null,
  eventAt,
  traceContext: null,
  retryIntervalSeconds: null,
});
const ids = (rows: ClaimedDelivery[]) => rows.map((r) => r.id);
const always = () => true;

describe('ClaimBuffer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("starts each channel's rows oldest event first when two claims answer out of order", () => {
    const buffer = new ClaimBuffer(40_000);
    // The newer claim (events 4-6) answers first, then the older one (events 1-3).
    buffer.push([row('a', 4), row('a', 5), row('b', 10), row('a', 6)]);
    buffer.push([row('a', 1), row('a', 2), row('a', 3)]);
    expect(buffer.size).toBe(7);
    const { ready, stale } = buffer.take(10, (channelId) => channelId === 'a');
    expect(ids(ready)).toEqual(['a-1', 'a-2', 'a-3', 'a-4', 'a-5', 'a-6']);
    expect(stale).toEqual([]);
    expect(ids(buffer.take(10, always).ready)).toEqual(['b-10']);
    expect(buffer.size).toBe(0);
  });

  it('gives back a row that waited too long even behind a later one with an older event', () => {
    const buffer = new ClaimBuffer(1000);
    buffer.push([row('a', 20), row('a', 21)]);
    vi.advanceTimersByTime(800);
    // A retry of an older event, claimed 800 ms later, goes in front of them.
    buffer.push([row('a', 5)]);
    // The channel may not start anything: its share of slots is taken.
    expect(buffer.take(10, () => false)).toEqual({ ready: [], stale: [] });
    vi.advanceTimersByTime(300);
    // The first two waited 1,100 ms (too long: their lease may end before their attempt);
    // the retry 300 ms.
    const { ready, stale } = buffer.take(10, () => false);
    expect(ready).toEqual([]);
    expect(ids(stale)).toEqual(['a-20', 'a-21']);
    expect(buffer.size).toBe(1);
    expect(ids(buffer.take(10, always).ready)).toEqual(['a-5']);
  });

  it('gives back what waited too long at the head of a queue in arrival order', () => {
    const buffer = new ClaimBuffer(1000);
    buffer.push([row('a', 1), row('a', 2)]);
    vi.advanceTimersByTime(1500);
    buffer.push([row('a', 3)]);
    const { ready, stale } = buffer.take(10, always);
    expect(ids(stale)).toEqual(['a-1', 'a-2']);
    expect(ids(ready)).toEqual(['a-3']);
  });
});
