// One timer that wakes the worker: for a retry falling due, a held channel's recheck,
// a claim to retry after a failure, or the fallback poll. Setting it replaces the
// previous time; `bringForward` only ever makes it sooner.
export class WakeTimer {
  private timer: NodeJS.Timeout | undefined;
  private firesAt = Number.POSITIVE_INFINITY;
  private readonly fire: () => void;
  private stopped = false;

  constructor(fire: () => void) {
    this.fire = fire;
  }

  /** Wall-clock time it fires (Infinity when none is set). */
  get at(): number {
    return this.firesAt;
  }

  set(delayMs: number): void {
    this.clear();
    if (this.stopped) return;
    this.firesAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.firesAt = Number.POSITIVE_INFINITY;
      this.fire();
    }, delayMs);
    this.timer.unref();
  }

  bringForward(delayMs: number): void {
    if (Date.now() + delayMs < this.firesAt) this.set(delayMs);
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.firesAt = Number.POSITIVE_INFINITY;
  }
}
