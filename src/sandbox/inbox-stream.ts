// Received events pushed as they arrive (docs/rules.md §6): the Server-Sent Events
// stream of an inbox, which `listen` and the viewer read. Whichever process stores an
// event (an api process receiving a POST, or a worker delivering in-process) notifies
// on INBOX_NOTIFY_CHANNEL with the inbox id; each process holding streams listens once,
// and every stream of that inbox reads from the database what came after the last
// event it sent. The database is the only source: a missed notification (a listener
// reconnecting) costs a read, never an event, and a client that reconnects with
// Last-Event-ID gets every event the inbox still keeps after that id.
//
// Bounded work: a stream reads a few ids at a time and writes only while its client
// drains (the sink says when it is full, and the stream waits for `resume`), so what a
// stream holds in memory is at most one event, whatever the client fails to read. Each
// event is read and serialized once per process, however many streams send it (a
// bounded cache of messages by id: stored events never change). Slots are taken
// synchronously (`reserve`), so the caps hold under any concurrency.
import { LRUCache } from 'lru-cache';
import type { Context } from '../context.ts';
import { INBOX_NOTIFY_CHANNEL, inboxEventById, inboxEventIdsAfter } from './inbox.repository.ts';
import { rawBase64Of, toReceivedEvent, type ReceivedEvent } from './inbox.service.ts';

type Deps = Pick<Context, 'database' | 'log'>;

/** Ids read per query: a stream never asks for the whole inbox at once. */
const READ_BATCH = 8;
/** Serialized messages kept for the streams of this process (an event is at most a few hundred KB). */
const CACHE_BYTES = 8 * 1024 * 1024;

/** One stream's event: the record the inbox shows, plus the exact bytes that arrived. */
export interface StreamedEvent extends ReceivedEvent {
  corpoBase64: string;
}

/** 'sent': write more; 'full': written, wait for `resume` before the next; 'gone': the client left. */
export type SendResult = 'sent' | 'full' | 'gone';

export interface InboxStreamSink {
  /** Writes one event, already serialized as a Server-Sent Events message (UTF-8, shared by every stream). */
  send(message: Buffer): SendResult;
}

/** The Server-Sent Events message of a stored event, encoded once for every stream that sends it. */
export const eventMessage = (event: StreamedEvent): Buffer =>
  Buffer.from(`id: ${event.id}\nevent: evento\ndata: ${JSON.stringify(event)}\n\n`, 'utf8');

export interface StreamLimits {
  perInbox: number;
  perProcess: number;
}

/** A taken slot: `start` turns it into a running stream, `release` gives it back. */
export interface StreamSlot {
  start(afterId: number, sink: InboxStreamSink): OpenStream;
  release(): void;
}

export interface OpenStream {
  /** The client drained what was written: go on from where the stream stopped. */
  resume(): void;
  close(): void;
}

interface Stream {
  lastId: number;
  sink: InboxStreamSink | undefined;
  /** Written up to a message the client has not taken yet: skipped until `resume`. */
  paused: boolean;
}

/** The streams of one inbox in this process, read together: one query serves them all. */
interface Inbox {
  streams: Set<Stream>;
  reading: boolean;
  again: boolean;
}

export class InboxStreams {
  readonly #deps: Deps;
  readonly #limits: StreamLimits;
  readonly #inboxes = new Map<string, Inbox>();
  // By event id; a read in progress is shared by the streams that ask for it meanwhile.
  readonly #messages = new LRUCache<number, Buffer, string>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (message) => message.length,
    fetchMethod: async (id, _stale, { context: inboxId }) => {
      const row = await inboxEventById(this.#deps.database.db, inboxId, id);
      return row && eventMessage({ ...toReceivedEvent(row), corpoBase64: rawBase64Of(row) });
    },
  });
  #total = 0;
  #unlisten: Promise<() => Promise<void>> | undefined;
  #closed = false;

  constructor(deps: Deps, limits: StreamLimits) {
    this.#deps = deps;
    this.#limits = limits;
  }

  /** Streams open (or being opened) in this process. */
  get size(): number {
    return this.#total;
  }

  /**
   * Takes a slot for a stream of `inboxId`, or says which cap is reached. Synchronous:
   * two requests cannot both see the last free slot.
   */
  reserve(inboxId: string): StreamSlot | 'receptor' | 'processo' {
    if (this.#closed) throw new Error('inbox streams are closed');
    const inbox = this.#inboxes.get(inboxId) ?? { streams: new Set<Stream>(), reading: false, again: false };
    if (inbox.streams.size >= this.#limits.perInbox) return 'receptor';
    if (this.#total >= this.#limits.perProcess) return 'processo';
    const stream: Stream = { lastId: 0, sink: undefined, paused: false };
    inbox.streams.add(stream);
    this.#inboxes.set(inboxId, inbox);
    this.#total += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#remove(inboxId, stream);
    };
    return {
      release,
      start: (afterId, sink) => {
        stream.lastId = afterId;
        stream.sink = sink;
        void this.#read(inboxId);
        return {
          close: release,
          resume: () => {
            stream.paused = false;
            void this.#read(inboxId);
          },
        };
      },
    };
  }

  /** Resolves once this process hears the inbox notifications (before the first stream starts). */
  async listening(): Promise<void> {
    this.#unlisten ??= this.#deps.database.listen(
      INBOX_NOTIFY_CHANNEL,
      (payload) => void this.#read(payload),
      // Notifications may have been missed while the listener reconnected.
      () => {
        for (const id of this.#inboxes.keys()) void this.#read(id);
      },
    );
    try {
      await this.#unlisten;
    } catch (error) {
      this.#unlisten = undefined;
      throw error;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#inboxes.clear();
    this.#total = 0;
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    if (unlisten) await (await unlisten)();
  }

  #remove(inboxId: string, stream: Stream): void {
    const inbox = this.#inboxes.get(inboxId);
    if (!inbox?.streams.delete(stream)) return;
    this.#total -= 1;
    if (inbox.streams.size === 0) this.#inboxes.delete(inboxId);
  }

  #message(inboxId: string, id: number): Promise<Buffer | undefined> {
    return this.#messages.fetch(id, { context: inboxId });
  }

  /**
   * Sends each ready stream of the inbox what it has not had yet, oldest first. One read
   * at a time per inbox; a wake-up during a read makes it read once more.
   */
  async #read(inboxId: string): Promise<void> {
    const inbox = this.#inboxes.get(inboxId);
    if (!inbox) return;
    if (inbox.reading) {
      inbox.again = true;
      return;
    }
    inbox.reading = true;
    try {
      do {
        inbox.again = false;
        const ready = [...inbox.streams].filter((stream) => stream.sink && !stream.paused);
        if (ready.length === 0) break;
        const after = Math.min(...ready.map((stream) => stream.lastId));
        const ids = await inboxEventIdsAfter(this.#deps.database.db, inboxId, after, READ_BATCH);
        for (const id of ids) {
          const message = await this.#message(inboxId, id);
          for (const stream of inbox.streams) {
            if (!stream.sink || stream.paused || stream.lastId >= id) continue;
            // Deleted since (the inbox keeps 50, or was cleared): nothing to send.
            const sent = message === undefined ? 'sent' : stream.sink.send(message);
            if (sent === 'gone') {
              this.#remove(inboxId, stream);
              continue;
            }
            stream.lastId = id;
            // What was not written yet stays in the database until the client drains.
            if (sent === 'full') stream.paused = true;
          }
        }
        if (ids.length === READ_BATCH) inbox.again = true;
      } while (inbox.again && this.#inboxes.get(inboxId) === inbox);
    } catch (error) {
      // The next notification (or the client's reconnection) reads again from each stream's position.
      this.#deps.log.warn({ err: error, inboxId }, 'inbox stream read failed');
    } finally {
      inbox.reading = false;
    }
  }
}
