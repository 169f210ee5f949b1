// Attempts finished per second in this worker, which sizes its claims
// (claim-policy.ts, batchSize): measured over windows of at least WINDOW_MS, undefined
// until the first one closes.
const WINDOW_MS = 250;
// A window left open this long with no work restarts when work comes (see resume).
const IDLE_MS = 1000;

export class AttemptRate {
  private windowStart: number;
  private count = 0;
  private rate: number | undefined;

  constructor(now = Date.now()) {
    this.windowStart = now;
  }

  get perSecond(): number | undefined {
    return this.rate;
  }

  /**
   * Work comes to an idle worker. A window that spanned the idle spell would say the rate
   * is near zero, and a burst's first claims would be of one round of slots each: it
   * starts afresh.
   */
  resume(now = Date.now()): void {
    if (now - this.windowStart <= IDLE_MS) return;
    this.windowStart = now;
    this.count = 0;
  }

  finished(now = Date.now()): void {
    this.count += 1;
    if (now - this.windowStart < WINDOW_MS) return;
    this.rate = (this.count * 1000) / (now - this.windowStart);
    this.windowStart = now;
    this.count = 0;
  }
}
