// The dispatch stage: claimed rows wait in the buffer (claim-buffer.ts: one queue per
// channel, served in turns) until dispatch-policy.ts lets them start; each attempt is
// signed and sent with no transaction open (attempt), and what it led to decided
// (retry-policy.ts). Rows that waited too long for a slot, and a contained channel's
// extra rows, go back to the queue unattempted.
import type { Context } from '../../context.ts';
import { signingSecrets } from '../signature.ts';
import type { ChannelView, PoolState } from './claim-policy.ts';
import { ChannelPace } from './channel-pace.ts';
import { ChannelSlots } from './channel-slots.ts';
import { AttemptRate } from './attempt-rate.ts';
import { ClaimBuffer } from './claim-buffer.ts';
import type { Deliverer } from './deliverer.ts';
import { keptForProbe, poolLimits } from './dispatch-policy.ts';
import { AttemptPool, type PoolSnapshot } from './attempt-pool.ts';
import { outcome } from './retry-policy.ts';
import { openedSecrets } from './secret-cache.ts';
import { releaseClaims } from './sql/release-claims.ts';
import type { AttemptResult, ClaimedDelivery, StageDeps } from './types.ts';

type AttemptDeps = Pick<Context, 'keys' | 'clock' | 'config'> & { deliverer: Deliverer };

/** One attempt: signs with the webhook's secrets, sends, and says what it led to. Throws only on a fault of ours. */
export function attempter(deps: AttemptDeps): (claimed: ClaimedDelivery) => Promise<AttemptResult> {
  const secretCache = openedSecrets(deps.keys);
  return async (claimed) => {
    const secrets = signingSecrets(
      secretCache,
      {
        secret_sealed: claimed.secretSealed,
        previous_secret_sealed: claimed.previousSecretSealed,
        previous_valid_until: claimed.previousValidUntil,
      },
      deps.clock.now(),
    );
    const sent = await deps.deliverer.send({
      url: claimed.url,
      body: claimed.payload,
      eventId: claimed.eventId,
      tipo: claimed.tipo,
      attempt: claimed.attempt,
      secrets,
      deliveryId: claimed.id,
      channelId: claimed.channelId,
      traceContext: claimed.traceContext,
    });
    return outcome(claimed, sent, deps.clock.now(), deps.config.retryDelaysSeconds);
  };
}

export interface DispatchEvents {
  /** An attempt's result, its slot still taken. */
  result(claimed: ClaimedDelivery, result: AttemptResult): void;
  /** An attempt contained its channel here (dispatch-policy.ts, afterAttempt). */
  contained(channelId: string): void;
  /** An attempt's slot is free again (after its result, or a fault of ours). */
  ended(channelId: string): void;
  /** Slots were let go of by requests past the slow threshold (attempt-pool.ts). */
  released(): void;
}

export class Dispatcher {
  readonly slots: ChannelSlots;
  /** Which attempts hold one of the `concurrency` slots (the others are slow: a socket each). */
  readonly attempts: AttemptPool;
  readonly buffer: ClaimBuffer;
  readonly paces = new ChannelPace();
  readonly rate = new AttemptRate();
  private readonly deps: StageDeps;
  private readonly events: DispatchEvents;
  private readonly attempt: (claimed: ClaimedDelivery) => Promise<AttemptResult>;
  private stopping = false;
  private idle: (() => void) | undefined;
  private releaseTimer: NodeJS.Timeout | undefined;
  private releaseAt = Number.POSITIVE_INFINITY;

  constructor(deps: StageDeps & AttemptDeps, events: DispatchEvents) {
    const { concurrency, leaseSeconds, deliveryTimeoutMs, maxInFlightPerChannel, containAfter } = deps.config.worker;
    this.deps = deps;
    this.events = events;
    this.attempt = attempter(deps);
    this.slots = new ChannelSlots({ cap: maxInFlightPerChannel, concurrency, containAfter });
    this.attempts = new AttemptPool(poolLimits(concurrency, deps.config.worker.slowAfterMs));
    // A buffered row must start early enough for its attempt (≤ one timeout) and the
    // recording of its result to end inside its lease: one that waited longer (slow
    // receivers filling every slot) is given back instead. The configuration keeps the
    // lease ≥ 3 timeouts, so this leaves at least one timeout of waiting.
    this.buffer = new ClaimBuffer(leaseSeconds * 1000 - 2 * deliveryTimeoutMs);
  }

  /** The attempts under way and waiting, for the size of the next claim (claim-policy.ts, claimSize). */
  pool(): Pick<PoolState, 'concurrency' | 'inFlight' | 'rate' | 'startable'> {
    const { slots, buffer } = this;
    return {
      concurrency: slots.concurrency,
      inFlight: this.attempts.busy,
      rate: this.rate.perSecond,
      startable: buffer.size - buffer.waiting(this.mayStart),
    };
  }

  /** May one more of this channel's attempts start now: its share, then a slot. */
  readonly mayStart = (channelId: string, startedNow = 0): boolean =>
    this.slots.mayStart(channelId, startedNow) && this.attempts.round()(channelId, this.slots.sendingOf(channelId), startedNow);

  /** The slots now, and the requests past the slow threshold (metrics, heartbeat). */
  poolSnapshot(): PoolSnapshot {
    return this.attempts.snapshot(Date.now());
  }

  /** The channels this worker knows (seen lately, buffered, or being sent), and each as the claim rules see it. */
  channels(): Set<string> {
    return new Set([...this.paces.channels(), ...this.buffer.channels(), ...this.slots.channels()]);
  }

  /** `claimingOf`: a channel's rows asked for by the claims under way (claim-stage.ts). */
  channelView(claimingOf: (channelId: string) => number): ChannelView {
    const { slots, buffer, paces } = this;
    return {
      get share() {
        return slots.share;
      },
      perSecond: (channelId) => paces.perSecond(channelId, slots.share),
      holding: (channelId) => buffer.countOf(channelId) + slots.sendingOf(channelId) + claimingOf(channelId),
      probeWait: (channelId) => slots.probeWait(channelId),
    };
  }

  /** Starts buffered deliveries while slots are free; gives back rows that waited too long. */
  dispatch(): void {
    if (this.stopping) return;
    const { slots, attempts } = this;
    const round = attempts.round();
    const { ready, stale } = this.buffer.take(
      attempts.free,
      (channelId, here) => slots.mayStart(channelId, here) && round(channelId, slots.sendingOf(channelId), here),
    );
    for (const claimed of ready) void this.run(claimed);
    if (stale.length > 0) void this.giveBack(stale);
    this.armRelease();
  }

  /** Wakes when the oldest slot holder passes the slow threshold, to let go of its slot. */
  private armRelease(): void {
    const at = this.attempts.nextReleaseAt();
    if (at === undefined || at >= this.releaseAt || this.stopping) return;
    clearTimeout(this.releaseTimer);
    this.releaseAt = at;
    this.releaseTimer = setTimeout(
      () => {
        this.releaseAt = Number.POSITIVE_INFINITY;
        if (this.attempts.release(Date.now()) > 0) this.events.released();
        this.armRelease();
      },
      Math.max(0, at - Date.now()),
    );
    this.releaseTimer.unref();
  }

  /**
   * A claim made before the shared state said "contained" may bring more of such a
   * channel's rows: one may wait here for its probe, the rest go back unattempted.
   */
  shedContained(): void {
    for (const channelId of this.slots.contained()) {
      const rows = this.buffer.takeChannel(channelId);
      if (rows.length === 0) continue;
      const keep = keptForProbe(this.slots.sendingOf(channelId));
      this.buffer.push(rows.slice(0, keep));
      if (rows.length > keep) void this.giveBack(rows.slice(keep));
    }
  }

  /** No attempt starts from now on. */
  stop(): void {
    this.stopping = true;
    clearTimeout(this.releaseTimer);
  }

  /** After stop: gives back what never started, and waits for the attempts under way to end. */
  async drain(): Promise<void> {
    const unstarted = this.buffer.drain();
    if (unstarted.length > 0) await this.giveBack(unstarted);
    if (this.slots.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve));
  }

  private async run(claimed: ClaimedDelivery): Promise<void> {
    this.slots.started(claimed.channelId);
    const startedAt = Date.now();
    this.attempts.started(claimed, claimed.channelId, startedAt);
    try {
      const result = await this.attempt(claimed);
      this.events.result(claimed, result);
      // Contained here: its buffered rows go back unattempted.
      if (this.slots.noteResult(result)) {
        this.shedContained();
        this.events.contained(claimed.channelId);
      }
    } catch (error) {
      // The lease expires and the delivery is tried again: never lost.
      this.deps.log.error({ err: error, deliveryId: claimed.id }, 'delivery attempt crashed');
    } finally {
      this.slots.ended(claimed.channelId);
      this.attempts.ended(claimed, Date.now());
      this.rate.finished();
      this.paces.finished(claimed.channelId, Date.now() - startedAt);
      this.events.ended(claimed.channelId);
      if (this.slots.inFlight === 0) this.idle?.();
    }
  }

  /** Unstarted claims become due again at once (if this fails, their leases expire: never lost). */
  private giveBack(unstarted: ClaimedDelivery[]): Promise<void> {
    return releaseClaims(this.deps.db, unstarted, this.deps.clock.now()).then(
      () => undefined,
      (error: Error) =>
        this.deps.log.warn(
          { err: { message: error.message }, count: unstarted.length },
          'giving back unstarted deliveries failed',
        ),
    );
  }
}
