// A real webhook receiver for delivery tests: a node:http server on 127.0.0.1 that
// records every request (headers and raw body, exactly as received) before it
// answers, and whose behaviour can change mid-test: status code, a delay before the
// answer, a redirect, or holding requests open until released. A TCP connection
// counter sits beside it, so tests can also prove that nothing connected at all.
import http from 'node:http';
import type net from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Raw body as received (what the signature covers). */
  body: string;
  /** Wall-clock time the body was complete. */
  at: number;
}

export interface ReceiverOptions {
  /** Status to answer with (default 200). */
  status?: number;
  /** Milliseconds to wait after the body before answering (default 0). */
  delayMs?: number;
  /** Answer every request with this redirect instead (Location header). */
  redirectTo?: string;
  /** Path of `url` (default `/webhook`). */
  path?: string;
  /** A given port (default: any free one). */
  port?: number;
  host?: string;
}

export interface Receiver {
  /** http://127.0.0.1:{port}{path} */
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Most requests open at once (received, not yet answered or closed) so far. */
  readonly mostOpen: number;
  setStatus(status: number): void;
  setDelay(ms: number): void;
  /** Answer with this body instead of "ok"/"erro" (undefined: back to those). */
  setBody(body: string | Buffer | undefined): void;
  /** Redirect every request to `location` (302 unless `status` says otherwise); undefined turns it off. */
  setRedirect(location: string | undefined, status?: number): void;
  /** Keep new requests open (recorded, never answered) until release(). */
  hold(): void;
  /** Answers every held request with the current status and stops holding. */
  release(): void;
  /** Requests whose X-Service-Event-Id is `eventId`, in arrival order. */
  forEvent(eventId: string): ReceivedRequest[];
  /** Parsed body of a request. */
  json<T = Record<string, unknown>>(request: ReceivedRequest): T;
  close(): Promise<void>;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  let status = options.status ?? 200;
  let delayMs = options.delayMs ?? 0;
  let redirect: { location: string; status: number } | undefined = options.redirectTo
    ? { location: options.redirectTo, status: 302 }
    : undefined;
  let body: string | Buffer | undefined;
  let holding = false;
  const held: http.ServerResponse[] = [];
  const requests: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;
  let open = 0;
  let mostOpen = 0;

  const answer = (res: http.ServerResponse) => {
    if (res.destroyed || res.writableEnded) return;
    if (redirect) {
      res.writeHead(redirect.status, { location: redirect.location, 'content-type': 'text/plain' }).end('redirecionado');
      return;
    }
    res.writeHead(status, { 'content-type': 'text/plain' }).end(body ?? (status >= 200 && status < 300 ? 'ok' : 'erro'));
  };

  const server = http.createServer((req, res) => {
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    res.once('close', () => (open -= 1));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      if (holding) {
        held.push(res);
        return;
      }
      if (delayMs <= 0) return answer(res);
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer(res);
      }, delayMs);
      timers.add(timer);
    });
  });
  server.on('connection', (socket: net.Socket) => {
    connections += 1;
    // A client that gives up (timeout) must not leave an error unhandled here.
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  const path = options.path ?? '/webhook';

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}${path}`,
    port,
    requests,
    get connections() {
      return connections;
    },
    get mostOpen() {
      return mostOpen;
    },
    setStatus(value) {
      status = value;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    setBody(value) {
      body = value;
    },
    setRedirect(location, redirectStatus = 302) {
      redirect = location === undefined ? undefined : { location, status: redirectStatus };
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const res of held.splice(0)) answer(res);
    },
    forEvent(eventId) {
      return requests.filter((r) => r.headers['x-service-event-id'] === eventId);
    },
    json<T>(request: ReceivedRequest) {
      return JSON.parse(request.body) as T;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      held.length = 0;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Receivers started by one test file, closed together by `closeAll` (in its afterAll). */
export function receiverPool(): { start(options?: ReceiverOptions): Promise<Receiver>; closeAll(): Promise<void> } {
  const started: Receiver[] = [];
  return {
    async start(options = {}) {
      const receiver = await startReceiver(options);
      started.push(receiver);
      return receiver;
    },
    async closeAll() {
      for (const receiver of started.splice(0)) await receiver.close();
    },
  };
}
