// Open-loop load at a fixed offered rate: request i is due at start + i / rate,
// whatever happened to the earlier ones, and its latency runs from that due time to
// the end of its response (time spent waiting for a free connection, or behind a late
// generator, counts: no coordinated omission). The `connections` keep-alive
// connections are opened before the schedule starts; a due request takes a free one
// or waits, in order, for the next to free up (HTTP/1.1, no pipelining).
//
// Why not autocannon's `overallRate`: it gives each connection a quota per second and
// refills every quota at the same instant, so each second starts with all connections
// firing back to back until their quota is used up. The service sees bursts at full
// concurrency and the latencies are those of the closed loop (measured on a server
// spending 0.3 ms per request: closed loop 2,870 req/s p99 41 ms; overallRate 1,436:
// p50 23 ms, p99 37 ms). Its coordinated-omission correction uses an interval of
// ceil(1 / rate) = 1 ms, which adds one synthetic sample per millisecond of each
// response (143k samples for 7k requests there). undici's Pool measured fine but
// could not offer half of the bare-Fastify baseline's rate on a 2-core machine;
// this client is raw sockets, like autocannon's.
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import type { LoadSpec } from './types.ts';

export interface PacedOptions {
  url: string;
  /** Connections kept open (all opened before the schedule starts). */
  connections: number;
  /** Seconds of schedule. */
  duration: number;
  /** Offered requests per second. */
  rate: number;
  /** A request still unanswered this long after it was sent fails as a timeout (default 10 s). */
  timeoutMs?: number;
}

export interface PacedResult {
  /** Requests per second the schedule offered. */
  offeredRate: number;
  /** Completed requests per second over the schedule's duration. */
  rps: number;
  /** Latency percentiles from the due time, in milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Requests the schedule asked for, and those that completed. */
  scheduled: number;
  requests: number;
  durationSeconds: number;
  /** Responses whose status is not expected, plus connection errors and timeouts. */
  failures: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /**
   * How late the generator was (ms after the due time) when it handled a due request:
   * its own event-loop lag, already inside the latencies above.
   */
  sendLagP50: number;
  sendLagP99: number;
  /** How long due requests waited for a free connection (ms, p99). */
  queueWaitP99: number;
  firstError: string | undefined;
}

interface Outgoing {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string | Buffer | undefined;
}

type SetupRequest = (request: autocannon.Request, context: object) => autocannon.Request | null | undefined | false;
type OnResponse = (status: number, body: string, context: object, headers: Record<string, string>) => void;

interface Job {
  due: number;
  wire: Buffer;
  onResponse: OnResponse | undefined;
  context: object;
}

interface Produced {
  wire: Buffer;
  onResponse: OnResponse | undefined;
  context: object;
}

function serialize(request: Outgoing, host: string): Buffer {
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body);
  let head = `${request.method} ${request.path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || lower === 'host' || lower === 'connection' || lower === 'content-length') continue;
    for (const one of Array.isArray(value) ? value : [value]) head += `${name}: ${one}\r\n`;
  }
  if (body !== undefined || request.method !== 'GET') head += `content-length: ${body?.length ?? 0}\r\n`;
  head += '\r\n';
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}

/**
 * Produces request after request from a LoadSpec, like autocannon: one fixed request,
 * or the `requests` sequence, cycled (`setupRequest` may rewrite each one, a falsy
 * answer restarts the sequence; `onResponse` reads the answer). One sequence and one
 * context for the whole run: requests do not wait for one another, so a sequence
 * that chains answers (onResponse feeding the next setupRequest) sees the context as
 * it is when the next request is due.
 */
function requestSource(spec: LoadSpec, basePath: string, host: string): () => Produced {
  const defaults: Outgoing = {
    method: spec.method ?? 'GET',
    path: basePath + (spec.path ?? '') || '/',
    headers: spec.headers ?? {},
    body: spec.body,
  };
  const sequence = spec.requests && spec.requests.length > 0 ? spec.requests : undefined;
  if (!sequence) {
    const fixed: Produced = { wire: serialize(defaults, host), onResponse: undefined, context: {} };
    return () => fixed;
  }
  for (const entry of sequence) {
    if (typeof entry.setupRequest === 'string' || typeof entry.onResponse === 'string') {
      throw new Error('the paced run needs setupRequest/onResponse as functions, not worker file paths');
    }
  }
  let index = 0;
  let context: object = {};
  return () => {
    for (let attempt = 0; attempt <= sequence.length; attempt++) {
      if (index === sequence.length) {
        index = 0;
        context = {};
      }
      const entry = sequence[index]!;
      index += 1;
      let request: Outgoing = {
        method: entry.method ?? defaults.method,
        path: entry.path ?? defaults.path,
        headers: { ...defaults.headers, ...(entry.headers ?? {}) },
        body: entry.body !== undefined ? (entry.body as string | Buffer) : defaults.body,
      };
      if (entry.setupRequest) {
        const rewritten = (entry.setupRequest as SetupRequest)(request as unknown as autocannon.Request, context);
        if (!rewritten) {
          index = sequence.length; // restart from the first request, with a fresh context
          continue;
        }
        request = rewritten as unknown as Outgoing;
      }
      return { wire: serialize(request, host), onResponse: entry.onResponse as OnResponse | undefined, context };
    }
    throw new Error('setupRequest returned nothing for every request of the sequence');
  };
}

interface Response {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  close: boolean;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** Incremental HTTP/1.1 response reader (Content-Length or chunked bodies). */
class ResponseReader {
  private buffer: Buffer = Buffer.alloc(0);
  private head: { status: number; headers: Record<string, string>; bodyStart: number; length: number | 'chunked' } | undefined;
  private chunkedOffset = 0;
  private chunks: Buffer[] = [];

  reset(): void {
    this.buffer = Buffer.alloc(0);
    this.head = undefined;
    this.chunkedOffset = 0;
    this.chunks = [];
  }

  /** Feeds bytes; returns the response once complete. Throws on what it cannot read. */
  push(data: Buffer): Response | undefined {
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    if (!this.head) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) return undefined;
      const lines = this.buffer.toString('latin1', 0, end).split('\r\n');
      const status = Number(lines[0]!.slice(9, 12));
      if (!lines[0]!.startsWith('HTTP/1.') || !Number.isInteger(status)) throw new Error(`unreadable status line: ${lines[0]}`);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const chunked = /\bchunked\b/i.test(headers['transfer-encoding'] ?? '');
      const length = chunked ? 'chunked' : Number(headers['content-length'] ?? 0);
      this.head = { status, headers, bodyStart: end + 4, length };
      this.chunkedOffset = end + 4;
    }
    const head = this.head;
    let body: Buffer;
    if (head.length === 'chunked') {
      const decoded = this.readChunks();
      if (!decoded) return undefined;
      body = decoded;
    } else {
      if (this.buffer.length < head.bodyStart + head.length) return undefined;
      if (this.buffer.length > head.bodyStart + head.length) throw new Error('more bytes than the response announced');
      body = this.buffer.subarray(head.bodyStart, head.bodyStart + head.length);
    }
    const response = { status: head.status, headers: head.headers, body, close: /close/i.test(head.headers.connection ?? '') };
    this.reset();
    return response;
  }

  private readChunks(): Buffer | undefined {
    for (;;) {
      const lineEnd = this.buffer.indexOf('\r\n', this.chunkedOffset, 'latin1');
      if (lineEnd < 0) return undefined;
      const size = parseInt(this.buffer.toString('latin1', this.chunkedOffset, lineEnd), 16);
      if (!Number.isFinite(size)) throw new Error('unreadable chunk size');
      if (size === 0) {
        // Last chunk: no trailers expected, just the final CRLF.
        if (this.buffer.length < lineEnd + 4) return undefined;
        return Buffer.concat(this.chunks);
      }
      if (this.buffer.length < lineEnd + 2 + size + 2) return undefined;
      this.chunks.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
      this.chunkedOffset = lineEnd + 2 + size + 2;
    }
  }
}

interface Connection {
  socket: net.Socket;
  reader: ResponseReader;
  job: Job | undefined;
  sentAt: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

let stopCurrent: (() => void) | undefined;

/** Stops the paced run in progress (SIGINT): its connections are closed at once. */
export function stopPaced(): void {
  stopCurrent?.();
}

export async function runPaced(spec: LoadSpec, options: PacedOptions): Promise<PacedResult> {
  const rate = Math.max(1, options.rate);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const target = new URL(options.url);
  const port = Number(target.port || 80);
  const next = requestSource(spec, target.pathname === '/' ? '' : target.pathname, target.host);
  const expected = spec.expectStatus;

  const total = Math.max(1, Math.floor(rate * options.duration));
  const intervalMs = 1000 / rate;
  const latencies = new Float64Array(total);
  const sendLags = new Float64Array(total);
  const queueWaits = new Float64Array(total);
  const statusCodes: Record<string, number> = {};
  let completed = 0;
  let settled = 0;
  let issued = 0;
  let waited = 0;
  let unexpected = 0;
  let errors = 0;
  let timeouts = 0;
  let firstError: string | undefined;
  let stopped = false;
  let allSettled: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    allSettled = resolve;
  });
  const settle = () => {
    settled += 1;
    if (settled >= total) allSettled();
  };

  const waiting: Job[] = [];
  let waitingHead = 0;
  const free: Connection[] = [];
  const connections: Connection[] = [];

  const dispatch = (connection: Connection, job: Job) => {
    connection.job = job;
    connection.sentAt = performance.now();
    connection.socket.write(job.wire);
  };

  const release = (connection: Connection) => {
    connection.job = undefined;
    if (stopped) return;
    if (waitingHead < waiting.length) {
      const job = waiting[waitingHead]!;
      waiting[waitingHead] = undefined as unknown as Job; // let it be collected
      waitingHead += 1;
      if (waitingHead === waiting.length) {
        waiting.length = 0;
        waitingHead = 0;
      }
      if (waited < total) queueWaits[waited++] = performance.now() - job.due;
      dispatch(connection, job);
    } else {
      free.push(connection);
    }
  };

  const fail = (connection: Connection, kind: 'error' | 'timeout', message: string) => {
    const job = connection.job;
    connection.job = undefined;
    connection.reader.reset();
    if (job) {
      if (kind === 'timeout') timeouts += 1;
      else errors += 1;
      firstError ??= message;
      settle();
    }
  };

  const open = (connection?: Connection): Promise<Connection> =>
    new Promise((resolve, reject) => {
      const socket = net.connect({ host: target.hostname, port, noDelay: true });
      const conn: Connection = connection ?? { socket, reader: new ResponseReader(), job: undefined, sentAt: 0 };
      conn.socket = socket;
      conn.reader.reset();
      let connected = false;
      socket.once('connect', () => {
        connected = true;
        resolve(conn);
      });
      socket.on('data', (data: Buffer) => {
        if (conn.socket !== socket) return;
        let response: Response | undefined;
        try {
          response = conn.reader.push(data);
        } catch (error) {
          fail(conn, 'error', `unreadable response: ${(error as Error).message}`);
          socket.destroy();
          return;
        }
        if (!response) return;
        const job = conn.job;
        if (!job) return; // an answer to nothing: ignore
        const latency = performance.now() - job.due;
        latencies[completed++] = latency;
        statusCodes[response.status] = (statusCodes[response.status] ?? 0) + 1;
        if (expected ? !expected.includes(response.status) : response.status < 200 || response.status > 299) unexpected += 1;
        if (job.onResponse) {
          try {
            job.onResponse(response.status, response.body.toString('utf8'), job.context, response.headers);
          } catch (error) {
            errors += 1;
            firstError ??= `onResponse threw: ${(error as Error).message}`;
          }
        }
        settle();
        if (response.close) {
          conn.job = undefined;
          socket.destroy(); // 'close' reconnects
        } else {
          release(conn);
        }
      });
      socket.on('error', (error: Error & { code?: string }) => {
        if (!connected) reject(error);
        else if (conn.socket === socket) fail(conn, 'error', `${error.code ?? error.name}: ${error.message}`);
      });
      socket.on('close', () => {
        if (!connected || conn.socket !== socket || stopped) return;
        if (conn.job) fail(conn, 'error', 'connection closed before the response ended');
        // Reconnect, then take the next waiting request.
        open(conn).then(
          (reopened) => release(reopened),
          (error: Error) => {
            errors += 1;
            firstError ??= `reconnect failed: ${error.message}`;
          },
        );
      });
    });

  for (let i = 0; i < options.connections; i++) connections.push(await open());
  free.push(...connections);

  const watchdog = setInterval(() => {
    const now = performance.now();
    for (const connection of connections) {
      if (connection.job && now - connection.sentAt > timeoutMs) {
        fail(connection, 'timeout', `no response within ${timeoutMs} ms`);
        connection.socket.destroy(); // 'close' reconnects
      }
    }
  }, 250);

  const stopAll = () => {
    stopped = true;
    clearInterval(watchdog);
    for (const connection of connections) connection.socket.destroy();
    allSettled();
  };
  stopCurrent = stopAll;

  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    const tick = () => {
      if (stopped) return resolve();
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - start) / intervalMs) + 1);
      while (issued < due) {
        const dueAt = start + issued * intervalMs;
        sendLags[issued] = now - dueAt;
        issued += 1;
        let produced: Produced;
        try {
          produced = next();
        } catch (error) {
          errors += 1;
          firstError ??= (error as Error).message;
          settle();
          continue;
        }
        const job: Job = { due: dueAt, ...produced };
        const connection = free.pop();
        if (connection) {
          if (waited < total) queueWaits[waited++] = 0;
          dispatch(connection, job);
        } else {
          waiting.push(job);
        }
      }
      if (issued >= total) return resolve();
      timer = setTimeout(tick, Math.max(0, start + issued * intervalMs - performance.now()));
    };
    tick();
  });
  const scheduleEnd = start + total * intervalMs;
  // Requests still open: give them the timeout, then count the rest as timeouts.
  const deadline = setTimeout(allSettled, timeoutMs + 2_000);
  await done;
  clearTimeout(deadline);
  clearTimeout(timer);
  if (settled < total) timeouts += total - settled;
  stopAll();
  stopCurrent = undefined;

  const sorted = latencies.slice(0, completed).sort();
  const lags = sendLags.slice(0, issued).sort();
  const waits = queueWaits.slice(0, waited).sort();
  const durationSeconds = (scheduleEnd - start) / 1000;
  return {
    offeredRate: rate,
    rps: completed / durationSeconds,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length > 0 ? sorted[sorted.length - 1]! : 0,
    scheduled: total,
    requests: completed,
    durationSeconds,
    failures: unexpected + errors + timeouts,
    statusCodes,
    errors,
    timeouts,
    sendLagP50: percentile(lags, 50),
    sendLagP99: percentile(lags, 99),
    queueWaitP99: percentile(waits, 99),
    firstError,
  };
}
