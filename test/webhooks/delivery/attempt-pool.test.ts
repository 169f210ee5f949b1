import { describe, expect, it } from 'vitest';
import { AttemptPool } from '../../../src/webhooks/delivery/attempt-pool.ts';
import { mayTakeSlot, poolLimits } from '../../../src/webhooks/delivery/dispatch-policy.ts';

const limits = poolLimits(8, 1000); // reserve 2, slow share 2, 64 slow sockets

/**
 * Starts as many of `channel` as the pool allows in one round, up to `wanted`, as the
 * worker does (the round decides, then the attempts start); their keys.
 */
function startAll(pool: AttemptPool, channel: string, wanted: number, now: number, underWay = 0): object[] {
  const mayStart = pool.round();
  const keys: object[] = [];
  while (keys.length < wanted && mayStart(channel, underWay, keys.length)) keys.push({});
  for (const key of keys) pool.started(key, channel, now);
  return keys;
}

describe('mayTakeSlot', () => {
  const base = { busy: 0, slowBusy: 0, slowHeld: 0, channelUnderWay: 0, channelSlow: false };

  it('gives every slot while the pool is short of its reserve, and the reserve only to channels with nothing under way', () => {
    expect(mayTakeSlot(limits, { ...base, busy: 5, channelUnderWay: 5 })).toBe(true);
    expect(mayTakeSlot(limits, { ...base, busy: 6, channelUnderWay: 6 })).toBe(false);
    expect(mayTakeSlot(limits, { ...base, busy: 6, channelUnderWay: 0 })).toBe(true);
    expect(mayTakeSlot(limits, { ...base, busy: 7, channelUnderWay: 0 })).toBe(true);
    expect(mayTakeSlot(limits, { ...base, busy: 8, channelUnderWay: 0 })).toBe(false);
  });

  it('holds slow channels to their share, keeps the reserve from them, and stops them when no more sockets may be kept', () => {
    const slow = { ...base, channelSlow: true };
    expect(mayTakeSlot(limits, { ...slow, busy: 1, slowBusy: 1 })).toBe(true);
    expect(mayTakeSlot(limits, { ...slow, busy: 2, slowBusy: 2 })).toBe(false);
    expect(mayTakeSlot(limits, { ...slow, busy: 6, slowBusy: 0 })).toBe(false);
    expect(mayTakeSlot(limits, { ...slow, slowHeld: limits.maxSlow })).toBe(false);
    // A channel that is not slow is not held back by the slow ones' share.
    expect(mayTakeSlot(limits, { ...base, busy: 2, slowBusy: 2, slowHeld: limits.maxSlow })).toBe(true);
  });
});

describe('AttemptPool', () => {
  it('lets go of hanging attempts after slowAfterMs, so that the slots serve the others again', () => {
    const pool = new AttemptPool(limits);
    // Four channels start hanging together: the first fills every slot but the reserve,
    // the others' first attempts take the reserve.
    const hung = [...startAll(pool, 'a', 10, 0), ...startAll(pool, 'b', 10, 0), ...startAll(pool, 'c', 10, 0)];
    expect(hung).toHaveLength(8);
    expect(pool.free).toBe(0);
    expect(startAll(pool, 'healthy', 1, 10)).toHaveLength(0);

    expect(pool.nextReleaseAt()).toBe(1000);
    expect(pool.release(999)).toBe(0);
    expect(pool.release(1000)).toBe(8);
    expect(pool.free).toBe(8);
    expect(pool.isSlow('a') && pool.isSlow('b') && pool.isSlow('c')).toBe(true);
    expect(pool.snapshot(3000)).toEqual({ busy: 0, slowBusy: 0, slowHeld: 8, oldestSlowMs: 3000, slowChannels: 3 });

    // Slow channels now share two slots; a healthy channel finds the rest.
    expect(startAll(pool, 'a', 10, 1000, 6)).toHaveLength(2);
    expect(startAll(pool, 'b', 10, 1000, 1)).toHaveLength(0);
    expect(startAll(pool, 'healthy', 4, 1001)).toHaveLength(4);
    expect(pool.snapshot(1001)).toMatchObject({ busy: 6, slowBusy: 2 });
  });

  it("counts one round's starts of every slow channel against their share", () => {
    const pool = new AttemptPool(limits);
    for (const c of ['a', 'b', 'c']) {
      const [key] = startAll(pool, c, 1, 0);
      pool.ended(key!, 5000); // answered after slowAfterMs: slow
    }
    const mayStart = pool.round();
    expect(mayStart('a', 0, 0)).toBe(true);
    expect(mayStart('b', 0, 0)).toBe(true);
    expect(mayStart('c', 0, 0)).toBe(false);
    expect(mayStart('healthy', 0, 0)).toBe(true);
  });

  it('gives a recovered channel its full share back once an attempt answers in time and none still hangs', () => {
    const pool = new AttemptPool(limits);
    const first = startAll(pool, 'a', 3, 0);
    pool.release(1000);
    expect(pool.isSlow('a')).toBe(true);
    const [quick] = startAll(pool, 'a', 1, 1000, 3);
    pool.ended(quick!, 1100);
    // Two of its attempts still hang: still slow.
    expect(pool.isSlow('a')).toBe(true);
    for (const key of first) pool.ended(key, 10_000);
    const [again] = startAll(pool, 'a', 1, 10_000);
    pool.ended(again!, 10_050);
    expect(pool.isSlow('a')).toBe(false);
    expect(startAll(pool, 'a', 10, 10_100)).toHaveLength(6);
    expect(pool.snapshot(10_100)).toMatchObject({ busy: 6, slowBusy: 0, slowHeld: 0, slowChannels: 0 });
  });

  it('keeps at most maxSlow hanging sockets: past that, slots stay held and slow channels start nothing', () => {
    const small = { ...poolLimits(8, 1000), maxSlow: 4 };
    const pool = new AttemptPool(small);
    startAll(pool, 'a', 6, 0);
    expect(pool.release(2000)).toBe(4);
    expect(pool.snapshot(2000)).toMatchObject({ busy: 2, slowHeld: 4 });
    expect(pool.nextReleaseAt()).toBeUndefined();
    expect(startAll(pool, 'a', 1, 2000, 6)).toHaveLength(0);
    expect(startAll(pool, 'healthy', 10, 2000)).toHaveLength(4); // all but the reserve
  });

  it('never lets a count go below zero when an unknown attempt ends', () => {
    const pool = new AttemptPool(limits);
    pool.ended({}, 0);
    expect(pool.snapshot(0)).toEqual({ busy: 0, slowBusy: 0, slowHeld: 0, oldestSlowMs: 0, slowChannels: 0 });
  });
});
