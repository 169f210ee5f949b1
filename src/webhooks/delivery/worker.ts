// The delivery engine's loop: claim → dispatch → record, woken by the scheduler.
//   claim      claim-stage.ts, one committed statement under a lease (how many rows, of
//              which channel: claim-policy.ts); it also records the attempts ended since.
//   dispatch   dispatch-stage.ts: rows wait for a slot (dispatch-policy.ts), are signed
//              and sent with no transaction open, their outcome decided (retry-policy.ts).
//   record     recorder.ts: results ride along with the next claim or are written alone.
//   scheduler  scheduler.ts: retries falling due, held channels, backoff, the poll.
// At least once, never lost: only a recorded 2xx marks a row ENTREGUE. Until then it is
// PENDENTE under a lease that, if this process dies, runs out and makes it due again; a
// late result for a lease that ran out is ignored. Sent twice at worst, never zero times.
import type { Context } from '../../context.ts';
import { DELIVERIES_CHANNEL } from '../../events/outbox.ts';
import { ClaimStage, type ClaimAnswer } from './claim-stage.ts';
import * as claimPolicy from './claim-policy.ts';
import type { Deliverer } from './deliverer.ts';
import { Dispatcher } from './dispatch-stage.ts';
import { Recorder, recordDelay, RECORD_DELAY_MS } from './recorder.ts';
import { Scheduler } from './scheduler.ts';
import type { AttemptResult, ClaimedDelivery } from './types.ts';
import { joinWorkers } from './worker-registry.ts';

export interface WorkerHooks {
  /** After each attempt (metrics). */
  onAttempt?(claimed: ClaimedDelivery, result: AttemptResult): void;
}

export interface DeliveryWorker {
  /** Stops claiming, lets in-flight attempts finish and records them. */
  stop(): Promise<void>;
  /** Claims now (tests, and the resend path, use it to skip the wait). */
  wake(): void;
  readonly inFlight: number;
  /** Claimed here, waiting because their channel already has its share of attempts under way. */
  readonly waitingForShare: number;
}

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config' | 'log'> & { deliverer: Deliverer };

export async function startDeliveryWorker(deps: Deps, hooks: WorkerHooks = {}): Promise<DeliveryWorker> {
  const stage = { ...deps, db: deps.database.db, log: deps.log.child({ role: 'worker' }) };
  let stopping = false;
  // Reasons to claim: what the claims said of the queue (claim-policy.ts, QueueState); a wake
  // (NOTIFY, the timer) no claim has answered yet; a channel held enough of here has room again.
  let queue = claimPolicy.IDLE_QUEUE;
  let woken = false;
  let roomAgain = false;
  // Channels left out of the last claim because this worker holds enough of them.
  let full = new Set<string>();

  const scheduler = new Scheduler(stage, () => wake());
  const recorder = new Recorder(stage, (written) => scheduler.retriesRecorded(written));
  const dispatcher = new Dispatcher(stage, { result, contained: () => recorder.flushHealth(), ended });
  const { slots, buffer } = dispatcher;
  const claims = new ClaimStage(stage, { slots, recorder }, { answered, settled, failed: () => scheduler.claimFailed() });
  const view = dispatcher.channelView((channelId) => claims.claimingOf(channelId));

  function wake(): void {
    if (stopping) return;
    if (slots.inFlight === 0 && claims.size === 0 && buffer.size === 0) dispatcher.rate.resume();
    woken = true;
    pump();
  }

  /** Starts the claims there is reason and room for. */
  function pump(): void {
    while (!stopping && !scheduler.backingOff && (woken || queue.moreDue || roomAgain)) {
      const pool = { ...dispatcher.pool(), claimsRunning: claims.size, reserved: claims.reserved };
      const wanted = claimPolicy.claimSize({ ...pool, moreDue: queue.moreDue, woken });
      if (wanted === 0) return;
      const plan = claimPolicy.channelLimits(dispatcher.channels(), view);
      full = plan.full;
      if (!claimPolicy.claimWorthMaking(plan.limits, { woken, busy: pool.inFlight > 0 || claims.size > 0 })) {
        roomAgain = false;
        scheduler.recheck(queue.held.size, plan.probeSoonest);
        return;
      }
      woken = false;
      roomAgain = false;
      // While claims follow one another, results ride along with the next one. Not on the
      // idle path, where the claim is most of an event's latency: they are written beside it.
      const rideAlong = queue.backlog || queue.held.size > 0 || full.size > 0;
      claims.start({ wanted, limits: plan.limits, moreDue: queue.moreDue, rideAlong });
    }
  }

  function answered(answer: ClaimAnswer): void {
    scheduler.claimSucceeded(answer.record);
    buffer.push(answer.rows);
    const { roomForMore, nowFull } = claimPolicy.roomAfterClaim(answer.rows, full, view);
    for (const channelId of nowFull) full.add(channelId);
    queue = claimPolicy.afterClaim(queue, { ...answer, taken: answer.rows.length, roomForMore });
    if (queue.backlog || queue.held.size > 0 || full.size > 0) claims.refreshStatistics();
    // Queue drained: no claim is coming to take the next results along.
    else void recorder.flush(RECORD_DELAY_MS);
    dispatcher.shedContained();
    dispatcher.dispatch();
  }

  function settled(): void {
    if (stopping || scheduler.backingOff) return;
    pump();
    // Nothing due and nothing running: sleep until the next retry falls due.
    if (claims.size === 0 && !queue.moreDue && !woken) void scheduler.sleepUntilNextDue(queue.held, full);
  }

  function result(claimed: ClaimedDelivery, attempt: AttemptResult): void {
    hooks.onAttempt?.(claimed, attempt);
    const claimComing = queue.backlog || queue.held.has(attempt.channelId) || full.has(attempt.channelId);
    recorder.record(attempt, recordDelay({ stopping, claimComing }));
  }

  function ended(channelId: string): void {
    // A held channel's probe ended: its next may be claimed. One held enough of: once worth it.
    if (queue.held.has(channelId)) woken = true;
    else if (full.has(channelId) && claimPolicy.worthClaiming(view, channelId)) {
      full.delete(channelId);
      roomAgain = true;
    }
    dispatcher.dispatch();
    pump();
  }

  const registry = await joinWorkers(stage, (alive) => slots.workersAlive(alive));
  const unlisten = await deps.database.listen(DELIVERIES_CHANNEL, wake, wake);
  wake();

  return {
    wake,
    get inFlight() {
      return slots.inFlight;
    },
    get waitingForShare() {
      return buffer.waiting(slots.mayStart);
    },
    async stop() {
      stopping = true;
      scheduler.stop();
      dispatcher.stop();
      registry.stop();
      await unlisten();
      // Claims under way land in the buffer; what never started is given back, what did ends and is recorded.
      await claims.settled();
      await dispatcher.drain();
      await recorder.stop();
      await registry.leave();
    },
  };
}
