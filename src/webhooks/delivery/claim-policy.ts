// How much to claim, and of which channel: pure rules over a snapshot of the worker
// (claim-stage.ts makes the claims, worker.ts's loop asks these rules when).
//
// A claim asks for about CLAIM_SECONDS of work at the rate attempts are finishing: fast
// receivers get large batches, slow ones small batches that other workers can share.
// Per channel, a worker holds (claimed, waiting or being sent) its share of slots plus
// CLAIM_SECONDS of attempts at the pace its endpoint answers (channel-pace.ts),
// CLAIM_AHEAD shares at most. Claimed rows count their attempt: a slow endpoint's rows
// must not wait here by the hundred for a slot (the other workers could send them, and
// its deliveries would show attempts not yet made).

/**
 * Rows per claim at most: enough to amortize a claim over many deliveries, few enough
 * that one worker does not hoard a queue that several could share
 * (bench/README.md, webhook-throughput).
 */
export const MAX_BATCH = 500;
/** A claim asks for this much work at the current rate. */
export const CLAIM_SECONDS = 0.25;
/**
 * A worker holds at most this many times a channel's share of slots: enough rows to
 * amortize its claims (one channel's drain needs batches of hundreds), few enough that
 * the other workers get some of it.
 */
export const CLAIM_AHEAD = 16;

/** Rows per claim: CLAIM_SECONDS of attempts at `rate` (a second), one round of slots at least; four rounds while the rate is not known. */
export function batchSize(rate: number | undefined, concurrency: number): number {
  return Math.min(MAX_BATCH, rate === undefined ? 4 * concurrency : Math.max(concurrency, Math.round(rate * CLAIM_SECONDS)));
}

/** What the worker has under way, for the size of its next claim. */
export interface PoolState {
  concurrency: number;
  /** Attempts finished per second (undefined: not known yet). */
  rate: number | undefined;
  inFlight: number;
  /** Buffered rows whose channel may start an attempt now (rows waiting for their channel's share take no room). */
  startable: number;
  claimsRunning: number;
  /** Rows asked for by the claims under way. */
  reserved: number;
  /** The last claims said more is due. */
  moreDue: boolean;
  /** A notification or the timer asks to look for due rows. */
  woken: boolean;
}

/**
 * Rows the next claim asks for, 0 for none now. The rows claimed wait in the buffer, so
 * the next batch is claimed while this one is sent and a free slot never waits for a
 * round trip. One claim at a time on an idle queue; a second beside it while a backlog is
 * known (on a busy machine a claim can take longer than sending what the previous one
 * brought); and a third, of one round of slots, for a notification during a backlog, so
 * that new events (another channel's, first in its turns) need not wait behind the
 * backlog's large claims. None while the room left is under half a batch: finishing
 * attempts ask again.
 */
export function claimSize(pool: PoolState): number {
  const fastLane = pool.moreDue && pool.woken;
  if (pool.claimsRunning >= (pool.moreDue ? 2 : 1) + (fastLane ? 1 : 0)) return 0;
  const batch = fastLane && pool.claimsRunning >= 2 ? pool.concurrency : batchSize(pool.rate, pool.concurrency);
  const room = pool.concurrency + 2 * batch - pool.inFlight - pool.startable - pool.reserved;
  return room < Math.max(1, Math.floor(batch / 2)) ? 0 : Math.min(room, batch);
}

/** One channel as the claim rules see it. */
export interface ChannelView {
  /** Attempts of one channel this worker may have under way at once (dispatch-policy.ts, shareOfSlots). */
  readonly share: number;
  /** Attempts a second the channel's endpoint takes with `share` of them under way (0: not known yet). */
  perSecond(channelId: string): number;
  /** Its rows this worker holds: buffered, being sent, or asked for by the claims under way. */
  holding(channelId: string): number;
  /** Milliseconds before a contained channel's next probe may start (0: now, or not contained). */
  probeWait(channelId: string): number;
}

/** Rows of a channel this worker should hold: its share, plus CLAIM_SECONDS at its pace, CLAIM_AHEAD shares at most. */
export function aheadOf(view: ChannelView, channelId: string): number {
  return Math.min(CLAIM_AHEAD * view.share, view.share + Math.floor(view.perSecond(channelId) * CLAIM_SECONDS));
}

/** Rows of a channel a claim may bring now. */
export function roomOf(view: ChannelView, channelId: string): number {
  return Math.max(0, aheadOf(view, channelId) - view.holding(channelId));
}

/** A claim for less than half of a channel's holding is not worth its statement. */
export function worthClaiming(view: ChannelView, channelId: string): boolean {
  return roomOf(view, channelId) >= Math.max(1, Math.floor(aheadOf(view, channelId) / 2));
}

export interface ChannelLimits {
  /** Per channel, the most rows the claim may take (0: none). */
  limits: Map<string, number>;
  /** Channels this worker holds enough of: their attempts' end brings their next claim. */
  full: Set<string>;
  /** Milliseconds until the soonest probe of a contained channel may start (Infinity: none waits). */
  probeSoonest: number;
}

/** Per channel this worker knows, how many rows the next claim may take. */
export function channelLimits(channels: Iterable<string>, view: ChannelView): ChannelLimits {
  const limits = new Map<string, number>();
  const full = new Set<string>();
  let probeSoonest = Number.POSITIVE_INFINITY;
  for (const channelId of channels) {
    // A contained channel between probes: none now (the timer comes back for it).
    const wait = view.probeWait(channelId);
    if (wait > 0) {
      limits.set(channelId, 0);
      probeSoonest = Math.min(probeSoonest, wait);
      continue;
    }
    const worth = worthClaiming(view, channelId);
    limits.set(channelId, worth ? roomOf(view, channelId) : 0);
    if (!worth) full.add(channelId);
  }
  return { limits, full, probeSoonest };
}

/**
 * Whether a claim is worth its statement. Only a wake looks for channels this worker
 * does not know yet; otherwise, while attempts or claims are under way (they ask again
 * as they end), a claim in which every channel it knows is limited to nothing would come
 * back empty (test/webhooks/claim-count.test.ts).
 */
export function claimWorthMaking(limits: ReadonlyMap<string, number>, state: { woken: boolean; busy: boolean }): boolean {
  if (state.woken || !state.busy || limits.size === 0) return true;
  for (const n of limits.values()) if (n > 0) return true;
  return false;
}

/** What the claims said about the queue. */
export interface QueueState {
  /** More may be due: finishing attempts claim again as soon as there is room for a batch. */
  moreDue: boolean;
  /** The last claim left due rows behind: results wait a little for the next claim to take them along. */
  backlog: boolean;
  /** Contained channels left with due rows (their probe is under way). */
  held: ReadonlySet<string>;
}

export const IDLE_QUEUE: QueueState = { moreDue: false, backlog: false, held: new Set() };

/**
 * Of the channels a claim brought rows of, those this worker now holds enough of
 * (`nowFull`), and whether another has room for more (`roomForMore`: its attempts ended
 * while the claim ran, and nothing else would bring its next claim).
 */
export function roomAfterClaim(
  rows: Iterable<{ channelId: string }>,
  full: ReadonlySet<string>,
  view: ChannelView,
): { roomForMore: boolean; nowFull: string[] } {
  let roomForMore = false;
  const nowFull = new Set<string>();
  for (const { channelId } of rows) {
    if (full.has(channelId) || nowFull.has(channelId)) continue;
    if (worthClaiming(view, channelId)) roomForMore = true;
    else nowFull.add(channelId);
  }
  return { roomForMore, nowFull: [...nowFull] };
}

/** A claim's answer, as the queue state needs it. */
export interface ClaimAnswerSummary {
  taken: number;
  wanted: number;
  /** Some channel had more due than its share (claim-due.ts). */
  more: boolean;
  held: readonly string[];
  /** No claim started after this one has answered yet. */
  newest: boolean;
  roomForMore: boolean;
}

/**
 * Claims run side by side and may answer in any order. The newest one started saw the
 * latest state: what it says holds. An older one adds to it and never takes back a
 * "more is due": one limited to nothing says "no more" only of the channels it looked at,
 * and a drain would stop until the poll. More is due when the batch came back full, or
 * when a channel was cut to its share and this worker has room for more of it (not on
 * `more` alone, which channels held enough of here would turn into empty claims).
 */
export function afterClaim(state: QueueState, answer: ClaimAnswerSummary): QueueState {
  const filled = answer.taken === answer.wanted;
  const more = filled || (answer.more && answer.roomForMore);
  const leftOver = filled || answer.more;
  return answer.newest
    ? { moreDue: more, backlog: leftOver, held: new Set(answer.held) }
    : { moreDue: state.moreDue || more, backlog: state.backlog || leftOver, held: new Set([...state.held, ...answer.held]) };
}
