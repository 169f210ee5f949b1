// How fast each channel's endpoint answers, as this worker sees it: how many of its
// rows are worth claiming ahead of its attempts (claim-policy.ts, aheadOf).
//
// Read off each attempt's duration, not off a count of attempts ended: a slow
// endpoint's attempts end in waves (a share of them every few seconds), and a count
// over a short window read such a wave as a fast endpoint, claiming its rows far ahead
// of any free slot.

// Weight of the newest attempt in the moving average.
const WEIGHT = 0.2;
// A channel with no attempt for this long is forgotten.
const FORGET_MS = 60_000;

interface Pace {
  latencyMs: number;
  at: number;
}

export class ChannelPace {
  private readonly paces = new Map<string, Pace>();

  finished(channelId: string, latencyMs: number, now = Date.now()): void {
    const pace = this.paces.get(channelId);
    if (pace) {
      pace.latencyMs += WEIGHT * (latencyMs - pace.latencyMs);
      pace.at = now;
    } else this.paces.set(channelId, { latencyMs, at: now });
  }

  /** Attempts a second the channel's endpoint takes with `atOnce` of them under way (0: not known yet). */
  perSecond(channelId: string, atOnce: number): number {
    const pace = this.paces.get(channelId);
    return pace ? (atOnce * 1000) / Math.max(1, pace.latencyMs) : 0;
  }

  /** The channels seen lately (older ones are forgotten on the way). */
  channels(now = Date.now()): string[] {
    const seen: string[] = [];
    for (const [channelId, pace] of this.paces) {
      if (now - pace.at > FORGET_MS) this.paces.delete(channelId);
      else seen.push(channelId);
    }
    return seen;
  }
}
