// Channel A's endpoint in the noisy-neighbour benchmark, run as its own process
// (`node bench/lib/webhooks/bad-receiver.ts`, PORT, HOST and MODE from the
// environment). Every POST outside the control paths is answered according to MODE:
//
//   hang   the connection is accepted and the request read, but nothing is ever
//          answered (the sender's timeout ends the attempt)
//   slow   200 after SLOW_MS (default 9000) milliseconds
//   503    503 at once
//
// It records how many requests arrived and how many were open at once (the sockets
// a sender held on this endpoint). Control, answered at once whatever the mode:
//   GET  /healthz    200 once listening
//   POST /__reset    forget the counts (open requests stay open)
//   GET  /__count    {"requests", "open", "peakOpen", "connections", "first", "last"}
//
// On SIGTERM every socket is destroyed (requests left hanging included) and every
// pending slow answer is cancelled before the process exits.
import http from 'node:http';
import type { Socket } from 'node:net';

const MODES = ['hang', 'slow', '503'] as const;
type Mode = (typeof MODES)[number];

const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';
const mode = process.env.MODE as Mode;
const slowMs = Number(process.env.SLOW_MS ?? 9000);
if (!MODES.includes(mode)) {
  console.error(`bad-receiver: MODE must be one of ${MODES.join(', ')} (got ${String(process.env.MODE)})`);
  process.exit(2);
}
const origin = performance.timeOrigin;

const sockets = new Set<Socket>();
const timers = new Set<NodeJS.Timeout>();
let requests = 0;
let open = 0;
let peakOpen = 0;
let connections = 0;
let first: number | null = null;
let last: number | null = null;

function json(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  if (req.method === 'GET' && url === '/healthz') return json(res, 200, { ok: true, mode });
  if (req.method === 'GET' && url === '/__count') {
    return json(res, 200, { mode, requests, open, peakOpen, connections, first, last });
  }
  if (req.method === 'POST' && url === '/__reset') {
    req.resume();
    req.on('end', () => {
      requests = 0;
      peakOpen = open;
      connections = 0;
      first = null;
      last = null;
      json(res, 200, { ok: true });
    });
    return;
  }
  if (req.method !== 'POST' || url.startsWith('/__')) return json(res, 404, { error: 'not found' });

  const arrived = origin + performance.now();
  requests += 1;
  first ??= arrived;
  last = arrived;
  open += 1;
  peakOpen = Math.max(peakOpen, open);
  let closed = false;
  const done = () => {
    if (closed) return;
    closed = true;
    open -= 1;
  };
  res.on('close', done);
  req.resume(); // read and discard the body
  req.on('end', () => {
    if (mode === '503') {
      res.writeHead(503, { 'content-length': 0 });
      res.end();
    } else if (mode === 'slow') {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (res.destroyed) return;
        res.writeHead(200, { 'content-length': 0 });
        res.end();
      }, slowMs);
      timers.add(timer);
    }
    // hang: never answered; the socket stays open until the sender gives up or we stop.
  });
});
// A request that has been read is never timed out by this side: only the sender ends it.
server.requestTimeout = 0;
server.headersTimeout = 60_000;
server.keepAliveTimeout = 60_000;
server.on('connection', (socket: Socket) => {
  connections += 1;
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});
server.listen(port, host);

function shutdown(): void {
  for (const timer of timers) clearTimeout(timer);
  timers.clear();
  server.close();
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
