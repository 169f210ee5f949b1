// How much a worker claims, and of which channel (src/webhooks/delivery/claim-policy.ts):
// the batch from the rate attempts finish at, the room the worker has, how many claims run
// at once, each channel's holding from its share and its endpoint's pace, and what the
// claims' answers say of the queue when several run side by side.
import { describe, expect, it } from 'vitest';
import {
  afterClaim,
  batchSize,
  channelLimits,
  CLAIM_AHEAD,
  claimSize,
  claimWorthMaking,
  IDLE_QUEUE,
  MAX_BATCH,
  roomAfterClaim,
  roomOf,
  aheadOf,
  worthClaiming,
  type ChannelView,
  type PoolState,
  type QueueState,
} from '../../../src/webhooks/delivery/claim-policy.ts';

describe('batchSize', () => {
  it('claims four rounds of slots until the rate is known, a quarter second of attempts after', () => {
    expect(batchSize(undefined, 64)).toBe(256);
    expect(batchSize(2000, 64)).toBe(500);
    expect(batchSize(1200, 64)).toBe(300);
  });

  it('claims one round of slots at least, and MAX_BATCH at most', () => {
    expect(batchSize(10, 64)).toBe(64);
    expect(batchSize(0, 8)).toBe(8);
    expect(batchSize(100_000, 64)).toBe(MAX_BATCH);
    expect(batchSize(undefined, 200)).toBe(MAX_BATCH);
  });
});

describe('claimSize', () => {
  const idle: PoolState = {
    concurrency: 64,
    rate: 1200,
    inFlight: 0,
    startable: 0,
    claimsRunning: 0,
    reserved: 0,
    moreDue: false,
    woken: true,
  };

  it('asks for a batch when there is room for it', () => {
    expect(claimSize(idle)).toBe(300);
  });

  it('runs one claim at a time on an idle queue, two while a backlog is known', () => {
    expect(claimSize({ ...idle, claimsRunning: 1, reserved: 300 })).toBe(0);
    const backlog = { ...idle, moreDue: true, woken: false };
    expect(claimSize({ ...backlog, claimsRunning: 1, reserved: 300 })).toBe(300);
    expect(claimSize({ ...backlog, claimsRunning: 2, reserved: 300 })).toBe(0);
  });

  it('gives a notification during a backlog a third claim of its own, of one round of slots', () => {
    expect(claimSize({ ...idle, moreDue: true, woken: true, claimsRunning: 2, reserved: 100 })).toBe(64);
    expect(claimSize({ ...idle, moreDue: true, woken: true, claimsRunning: 3 })).toBe(0);
  });

  it('leaves room for the attempts under way, the rows that may start and the rows already asked for', () => {
    // Room: 64 slots and two batches ahead, 664 rows; 400 of them taken.
    expect(claimSize({ ...idle, inFlight: 64, startable: 200, reserved: 136, moreDue: true, claimsRunning: 1 })).toBe(264);
    // Under half a batch of room: finishing attempts will ask again.
    expect(claimSize({ ...idle, inFlight: 64, startable: 300, reserved: 151, moreDue: true, claimsRunning: 1 })).toBe(0);
  });
});

describe("each channel's holding", () => {
  const view = (
    options: { share?: number; perSecond?: number; holding?: number; wait?: Record<string, number> } = {},
  ): ChannelView => ({
    share: options.share ?? 8,
    perSecond: () => options.perSecond ?? 0,
    holding: () => options.holding ?? 0,
    probeWait: (channelId) => options.wait?.[channelId] ?? 0,
  });

  it('holds one share of an endpoint whose pace is not known, plus a quarter second of attempts once it is', () => {
    expect(aheadOf(view(), 'a')).toBe(8);
    expect(aheadOf(view({ perSecond: 100 }), 'a')).toBe(8 + 25);
    expect(aheadOf(view({ perSecond: 100_000 }), 'a')).toBe(CLAIM_AHEAD * 8);
  });

  it('claims only the room left, and only when it is at least half the holding', () => {
    expect(roomOf(view({ perSecond: 100, holding: 20 }), 'a')).toBe(13);
    expect(roomOf(view({ holding: 20 }), 'a')).toBe(0);
    expect(worthClaiming(view({ perSecond: 100, holding: 17 }), 'a')).toBe(true);
    expect(worthClaiming(view({ perSecond: 100, holding: 18 }), 'a')).toBe(false);
    expect(worthClaiming(view({ share: 1, holding: 0 }), 'a')).toBe(true);
  });

  it("limits a claim to each channel's room, none for a channel held enough of or between probes", () => {
    const byChannel: Record<string, number> = { fast: 0, full: 8 };
    const plan = channelLimits(['fast', 'full', 'resting', 'resting2'], {
      share: 8,
      perSecond: (channelId) => (channelId === 'fast' ? 100 : 0),
      holding: (channelId) => byChannel[channelId] ?? 0,
      probeWait: (channelId) => ({ resting: 700, resting2: 300 })[channelId] ?? 0,
    });
    expect(Object.fromEntries(plan.limits)).toEqual({ fast: 33, full: 0, resting: 0, resting2: 0 });
    expect([...plan.full]).toEqual(['full']);
    expect(plan.probeSoonest).toBe(300);
    expect(channelLimits([], view()).probeSoonest).toBe(Number.POSITIVE_INFINITY);
  });

  it('makes no claim limited to nothing while attempts or claims are under way, unless woken', () => {
    const none = new Map([['a', 0]]);
    expect(claimWorthMaking(none, { woken: false, busy: true })).toBe(false);
    expect(claimWorthMaking(none, { woken: true, busy: true })).toBe(true);
    expect(claimWorthMaking(none, { woken: false, busy: false })).toBe(true);
    expect(
      claimWorthMaking(
        new Map([
          ['a', 0],
          ['b', 3],
        ]),
        { woken: false, busy: true },
      ),
    ).toBe(true);
    expect(claimWorthMaking(new Map(), { woken: false, busy: true })).toBe(true);
  });

  it('after a claim, marks the channels now held enough of, and says whether another has room for more', () => {
    const holding: Record<string, number> = { a: 8, b: 0 };
    const after = roomAfterClaim(
      [{ channelId: 'a' }, { channelId: 'a' }, { channelId: 'b' }, { channelId: 'c' }],
      new Set(['c']),
      {
        ...view(),
        holding: (channelId) => holding[channelId] ?? 0,
      },
    );
    expect(after).toEqual({ roomForMore: true, nowFull: ['a'] });
    expect(roomAfterClaim([{ channelId: 'a' }], new Set(), { ...view(), holding: () => 8 })).toEqual({
      roomForMore: false,
      nowFull: ['a'],
    });
  });
});

describe('afterClaim', () => {
  const answer = { taken: 10, wanted: 100, more: false, held: [] as string[], newest: true, roomForMore: false };

  it('says more is due when the batch came back full, or a channel was cut to its share and has room here', () => {
    expect(afterClaim(IDLE_QUEUE, { ...answer, taken: 100 })).toMatchObject({ moreDue: true, backlog: true });
    expect(afterClaim(IDLE_QUEUE, { ...answer, more: true, roomForMore: true })).toMatchObject({ moreDue: true, backlog: true });
    // Cut to its share but held enough of here: its attempts' end brings the next claim.
    expect(afterClaim(IDLE_QUEUE, { ...answer, more: true })).toMatchObject({ moreDue: false, backlog: true });
    expect(afterClaim(IDLE_QUEUE, answer)).toEqual({ moreDue: false, backlog: false, held: new Set() });
  });

  it('takes the newest claim at its word, and lets an older one add to it but never take "more" back', () => {
    const busy: QueueState = { moreDue: true, backlog: true, held: new Set(['x']) };
    expect(afterClaim(busy, { ...answer, held: ['y'] })).toEqual({ moreDue: false, backlog: false, held: new Set(['y']) });
    expect(afterClaim(busy, { ...answer, held: ['y'], newest: false })).toEqual({
      moreDue: true,
      backlog: true,
      held: new Set(['x', 'y']),
    });
    expect(afterClaim(IDLE_QUEUE, { ...answer, taken: 100, newest: false })).toMatchObject({ moreDue: true, backlog: true });
  });
});
