// Received events pushed as they arrive (docs/rules.md §6): the Server-Sent Events
// stream of an inbox, which `listen` and the viewer read. Whichever process stores an
// event (an api process receiving a POST, or a worker delivering in-process) notifies
// on INBOX_NOTIFY_CHANNEL with the inbox id; each process holding streams listens once,
// and every stream of that inbox reads from the database what came after the last
// event it sent. The database is the only source: a missed notification (a listener
// reconnecting) costs a read, never an event, and a client that reconnects with
// Last-Event-ID gets every event the inbox still keeps after that id.
import type { Context } from '../context.ts';
import { INBOX_NOTIFY_CHANNEL, inboxEventsAfter } from './inbox.repository.ts';
import { rawBodyOf, toReceivedEvent, MAX_EVENTS, type ReceivedEvent } from './inbox.service.ts';

type Deps = Pick<Context, 'database' | 'log'>;

/** One stream's event: the record the inbox shows, plus the exact bytes that arrived. */
export interface StreamedEvent extends ReceivedEvent {
  corpoBase64: string;
}

export interface InboxStreamSink {
  /** Writes one event; false when the client is gone. */
  send(event: StreamedEvent): boolean;
}

interface Stream {
  inboxId: string;
  lastId: number;
  sink: InboxStreamSink;
  reading: boolean;
  again: boolean;
}

export class InboxStreams {
  readonly #deps: Deps;
  readonly #byInbox = new Map<string, Set<Stream>>();
  #unlisten: Promise<() => Promise<void>> | undefined;
  #closed = false;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /** Number of open streams of an inbox (to cap them). */
  count(inboxId: string): number {
    return this.#byInbox.get(inboxId)?.size ?? 0;
  }

  /**
   * Opens a stream from `afterId`: sends what the inbox keeps after it at once, then
   * each new event. Returns the function that closes it.
   */
  async open(inboxId: string, afterId: number, sink: InboxStreamSink): Promise<() => void> {
    if (this.#closed) throw new Error('inbox streams are closed');
    this.#unlisten ??= this.#deps.database.listen(
      INBOX_NOTIFY_CHANNEL,
      (payload) => this.#wake(payload),
      // Notifications may have been missed while the listener reconnected.
      () => {
        for (const id of this.#byInbox.keys()) this.#wake(id);
      },
    );
    await this.#unlisten;
    const stream: Stream = { inboxId, lastId: afterId, sink, reading: false, again: false };
    let streams = this.#byInbox.get(inboxId);
    if (!streams) this.#byInbox.set(inboxId, (streams = new Set()));
    streams.add(stream);
    void this.#read(stream);
    return () => this.#remove(stream);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#byInbox.clear();
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    if (unlisten) await (await unlisten)();
  }

  #wake(inboxId: string): void {
    for (const stream of this.#byInbox.get(inboxId) ?? []) void this.#read(stream);
  }

  #remove(stream: Stream): void {
    const streams = this.#byInbox.get(stream.inboxId);
    streams?.delete(stream);
    if (streams?.size === 0) this.#byInbox.delete(stream.inboxId);
  }

  /** One read at a time per stream; a wake-up during a read makes it read once more. */
  async #read(stream: Stream): Promise<void> {
    if (stream.reading) {
      stream.again = true;
      return;
    }
    stream.reading = true;
    try {
      do {
        stream.again = false;
        const rows = await inboxEventsAfter(this.#deps.database.db, stream.inboxId, stream.lastId, MAX_EVENTS);
        for (const row of rows) {
          if (!stream.sink.send({ ...toReceivedEvent(row), corpoBase64: rawBodyOf(row).toString('base64') })) {
            this.#remove(stream);
            return;
          }
          stream.lastId = row.id;
        }
        if (rows.length === MAX_EVENTS) stream.again = true;
      } while (stream.again && this.#byInbox.get(stream.inboxId)?.has(stream));
    } catch (error) {
      // The next notification (or the client's reconnection) reads again from lastId.
      this.#deps.log.warn({ err: error, inboxId: stream.inboxId }, 'inbox stream read failed');
    } finally {
      stream.reading = false;
    }
  }
}
