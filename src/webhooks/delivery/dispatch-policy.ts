// Which claimed rows may start an attempt now: pure rules over a snapshot of the
// worker's slots (SlotView; channel-slots.ts keeps the state, dispatch-stage.ts applies
// the rules to the buffer).
//
// - The pool: a worker has `concurrency` attempt slots, held by the requests answering
//   now; one not answered within the slow threshold lets go of its slot (mayTakeSlot,
//   attempt-pool.ts keeps the state).
// - Each channel's share: a channel's cap (CONSIGNA_WORKER_MAX_IN_FLIGHT_PER_CHANNEL) is
//   shared by the workers alive (worker-registry.ts), each sending at most cap ÷ workers
//   of its attempts at once, so together they never exceed it; and at most half of a
//   worker's slots, so an endpoint that hangs leaves the other half to every other
//   channel while it is being recognised.
// - Containment, a circuit breaker: after `containAfter` failed attempts in a row a
//   channel gets one attempt at a time (a probe) until one succeeds, here at once,
//   before the shared state (channel-health.ts) says so.

/**
 * A contained channel's next probe starts no sooner than this after the last one
 * ended: one at a time is enough for an endpoint that hangs, but one that fails at once
 * (503, connection refused) would otherwise be probed as fast as it answers.
 */
export const PROBE_INTERVAL_MS = 1000;

/** The slots as the rules see them. */
export interface SlotView {
  /** The worker's attempt slots (CONSIGNA_WORKER_CONCURRENCY). */
  readonly concurrency: number;
  /** Attempts of one channel that may be under way at once (shareOfSlots). */
  readonly share: number;
  sendingOf(channelId: string): number;
  isContained(channelId: string): boolean;
}

/** A channel's share of one worker's slots: its cap split among the workers alive, half the slots at most, one at least. */
export function shareOfSlots(cap: number, workersAlive: number, concurrency: number): number {
  return Math.max(1, Math.min(Math.floor(cap / Math.max(1, workersAlive)), Math.floor(concurrency / 2)));
}

/** May one more of this channel's attempts start, `startedNow` having just been started? A contained channel: one at a time. */
export function mayStart(slots: SlotView, channelId: string, startedNow = 0): boolean {
  return slots.sendingOf(channelId) + startedNow < (slots.isContained(channelId) ? 1 : slots.share);
}

/** Milliseconds before a contained channel's next probe may start (0: now, or no probe has ended yet). */
export function probeWait(lastProbeEndedAt: number | undefined, now: number): number {
  return lastProbeEndedAt === undefined ? 0 : Math.max(0, lastProbeEndedAt + PROBE_INTERVAL_MS - now);
}

/** A channel's run of failed attempts here, and whether it is contained. */
export interface FailureRun {
  failuresInARow: number;
  contained: boolean;
}

/** The run after one more attempt: a success ends it (and the containment); `justContained` when this failure contains the channel. */
export function afterAttempt(run: FailureRun, delivered: boolean, containAfter: number): FailureRun & { justContained: boolean } {
  if (delivered) return { failuresInARow: 0, contained: false, justContained: false };
  const failuresInARow = run.failuresInARow + 1;
  const justContained = !run.contained && failuresInARow >= containAfter;
  return { failuresInARow, contained: run.contained || justContained, justContained };
}

/**
 * Of a contained channel's rows waiting here (claimed before the shared state said
 * "contained"), how many may stay for its probe: one when no attempt of it is under way,
 * none otherwise; the rest go back unattempted.
 */
export function keptForProbe(sending: number): number {
  return sending === 0 ? 1 : 0;
}

export interface PoolLimits {
  /** Slots: attempts answering at once. */
  concurrency: number;
  /** An attempt not answered by then stops holding its slot. */
  slowAfterMs: number;
  /** Attempts past slowAfterMs kept at once (each holds a socket, not a slot). */
  maxSlow: number;
  /** Slots kept for channels with nothing under way here. */
  reserve: number;
  /** Slots that slow channels' attempts may hold together. */
  slowShare: number;
}

export function poolLimits(concurrency: number, slowAfterMs: number): PoolLimits {
  return {
    concurrency,
    slowAfterMs,
    maxSlow: 8 * concurrency,
    reserve: Math.floor(concurrency / 4),
    slowShare: Math.max(1, Math.floor(concurrency / 4)),
  };
}

/** What the slot decision reads. */
export interface SlotState {
  /** Slots held now, plus those given out in the current round. */
  busy: number;
  /** Of those, held by slow channels' attempts. */
  slowBusy: number;
  /** Attempts past slowAfterMs, holding no slot. */
  slowHeld: number;
  /** This channel's attempts under way here (slot or not, given out this round included). */
  channelUnderWay: number;
  channelSlow: boolean;
}

/** May one more attempt of this channel take a slot now? */
export function mayTakeSlot(limits: PoolLimits, s: SlotState): boolean {
  if (s.busy >= limits.concurrency) return false;
  if (s.channelSlow) {
    // Its attempt would hang again: only while it can be let go of in time, and within the share.
    if (s.slowBusy >= limits.slowShare || s.slowHeld >= limits.maxSlow) return false;
  }
  if (s.busy >= limits.concurrency - limits.reserve && (s.channelUnderWay > 0 || s.channelSlow)) return false;
  return true;
}
