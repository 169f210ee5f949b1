// The rate attempts finish at (src/webhooks/delivery/attempt-rate.ts), which sizes claims.
import { describe, expect, it } from 'vitest';
import { AttemptRate } from '../../../src/webhooks/delivery/attempt-rate.ts';

describe('AttemptRate', () => {
  it('is unknown until a window of 250 ms closes, then attempts per second over that window', () => {
    const rate = new AttemptRate(0);
    for (let t = 10; t < 250; t += 10) rate.finished(t);
    expect(rate.perSecond).toBeUndefined();
    rate.finished(250);
    expect(rate.perSecond).toBe(100);
    for (let t = 260; t <= 500; t += 20) rate.finished(t);
    expect(rate.perSecond).toBe(52);
  });

  it('starts a new window when work comes after an idle spell, so the spell does not count as slowness', () => {
    const rate = new AttemptRate(0);
    rate.finished(300);
    rate.resume(5000);
    for (let t = 5010; t <= 5250; t += 10) rate.finished(t);
    expect(rate.perSecond).toBe(100);
    // Within a second of the last window: the window goes on.
    rate.finished(5300);
    rate.resume(5400);
    rate.finished(5500);
    expect(rate.perSecond).toBe(8);
  });
});
