// Which claimed rows may start an attempt (src/webhooks/delivery/dispatch-policy.ts), and
// the slot state that applies those rules (channel-slots.ts): each channel's share of the
// cap and of the worker's slots, the pool's free slots, and containment (one probe at a
// time, the next no sooner than PROBE_INTERVAL_MS after the last ended).
import { describe, expect, it } from 'vitest';
import {
  afterAttempt,
  keptForProbe,
  mayStart,
  PROBE_INTERVAL_MS,
  probeWait,
  shareOfSlots,
  type FailureRun,
  type SlotView,
} from '../../../src/webhooks/delivery/dispatch-policy.ts';
import { ChannelSlots } from '../../../src/webhooks/delivery/channel-slots.ts';
import type { AttemptResult } from '../../../src/webhooks/delivery/types.ts';

const view = (sending: Record<string, number>, options: { share?: number; contained?: string[] } = {}): SlotView => ({
  concurrency: 64,
  share: options.share ?? 3,
  sendingOf: (channelId) => sending[channelId] ?? 0,
  isContained: (channelId) => options.contained?.includes(channelId) ?? false,
});

const attempt = (channelId: string, status: AttemptResult['status']): AttemptResult => ({
  id: 'd',
  leaseId: 'l',
  channelId,
  status,
  nextAttemptAt: null,
  httpStatus: status === 'ENTREGUE' ? 200 : 503,
  error: null,
  latencyMs: 1,
  at: new Date(),
  responseBody: null,
  responseTruncated: false,
});

describe('shareOfSlots', () => {
  it("splits a channel's cap among the workers alive", () => {
    expect(shareOfSlots(32, 1, 64)).toBe(32);
    expect(shareOfSlots(32, 2, 64)).toBe(16);
    expect(shareOfSlots(32, 3, 64)).toBe(10);
  });

  it("gives one channel at most half of a worker's slots, and at least one attempt", () => {
    expect(shareOfSlots(32, 1, 16)).toBe(8);
    expect(shareOfSlots(4, 8, 64)).toBe(1);
    expect(shareOfSlots(32, 0, 64)).toBe(32);
    expect(shareOfSlots(32, 1, 1)).toBe(1);
  });
});

describe('mayStart', () => {
  it('lets a channel start attempts up to its share, counting those started in this round', () => {
    const slots = view({ a: 2 });
    expect(mayStart(slots, 'a')).toBe(true);
    expect(mayStart(slots, 'a', 1)).toBe(false);
    expect(mayStart(view({ a: 3 }), 'a')).toBe(false);
    expect(mayStart(slots, 'b', 2)).toBe(true);
  });

  it('lets a contained channel start one attempt at a time', () => {
    expect(mayStart(view({}, { contained: ['a'] }), 'a')).toBe(true);
    expect(mayStart(view({}, { contained: ['a'] }), 'a', 1)).toBe(false);
    expect(mayStart(view({ a: 1 }, { contained: ['a'] }), 'a')).toBe(false);
  });
});

describe('containment', () => {
  const run = (results: boolean[], containAfter = 3) => {
    let state: FailureRun = { failuresInARow: 0, contained: false };
    return results.map((delivered) => {
      const next = afterAttempt(state, delivered, containAfter);
      state = next;
      return next;
    });
  };

  it('contains a channel at its third failure in a row, once', () => {
    const steps = run([false, false, false, false, false]);
    expect(steps.map((s) => s.contained)).toEqual([false, false, true, true, true]);
    expect(steps.map((s) => s.justContained)).toEqual([false, false, true, false, false]);
    expect(steps.at(-1)!.failuresInARow).toBe(5);
  });

  it('starts the run again after a success, which also releases the channel', () => {
    const steps = run([false, false, true, false, false, false, true]);
    expect(steps.map((s) => s.failuresInARow)).toEqual([1, 2, 0, 1, 2, 3, 0]);
    expect(steps.map((s) => s.contained)).toEqual([false, false, false, false, false, true, false]);
  });

  it("spaces a contained channel's probes by PROBE_INTERVAL_MS from the end of the last", () => {
    expect(probeWait(undefined, 10_000)).toBe(0);
    expect(probeWait(10_000 - 300, 10_000)).toBe(PROBE_INTERVAL_MS - 300);
    expect(probeWait(10_000 - PROBE_INTERVAL_MS - 1, 10_000)).toBe(0);
  });

  it('keeps one of a contained channel’s waiting rows for its probe only when none is under way', () => {
    expect(keptForProbe(0)).toBe(1);
    expect(keptForProbe(1)).toBe(0);
  });
});

describe('ChannelSlots', () => {
  it('counts attempts under way, per channel and in all, and shares the cap among the workers', () => {
    const slots = new ChannelSlots({ cap: 4, concurrency: 16, containAfter: 3 });
    expect(slots.share).toBe(4);
    for (let i = 0; i < 4; i++) slots.started('a');
    slots.started('b');
    expect([slots.inFlight, slots.sendingOf('a'), slots.mayStart('a'), slots.mayStart('b')]).toEqual([5, 4, false, true]);
    slots.workersAlive(2);
    slots.ended('a');
    expect([slots.share, slots.mayStart('a')]).toEqual([2, false]);
    slots.ended('a');
    slots.ended('a');
    expect(slots.mayStart('a')).toBe(true);
    expect([...slots.channels()].sort()).toEqual(['a', 'b']);
  });

  it('contains a failing channel: one probe at a time, the next after the interval, released by a success', () => {
    const slots = new ChannelSlots({ cap: 8, concurrency: 16, containAfter: 3 });
    expect([1, 2, 3].map(() => slots.noteResult(attempt('a', 'PENDENTE')))).toEqual([false, false, true]);
    expect(slots.noteResult(attempt('a', 'PENDENTE'))).toBe(false);
    expect(slots.contained()).toEqual(['a']);
    expect(slots.mayStart('a')).toBe(true);
    slots.started('a');
    expect(slots.mayStart('a')).toBe(false);
    // The probe ends: the next may start PROBE_INTERVAL_MS later.
    slots.ended('a', 50_000);
    expect(slots.probeWait('a', 50_400)).toBe(PROBE_INTERVAL_MS - 400);
    expect(slots.probeWait('b', 50_400)).toBe(0);
    expect(slots.noteResult(attempt('a', 'ENTREGUE'))).toBe(false);
    expect(slots.contained()).toEqual([]);
    expect(slots.probeWait('a', 50_400)).toBe(0);
    slots.started('a');
    expect(slots.mayStart('a')).toBe(true);
  });
});
