// The webhook receiver of the delivery benchmarks, run as its own process
// (`node bench/lib/webhooks/receiver.ts`, PORT and HOST from the environment). It
// answers every POST with 204 as fast as node:http allows and records, per request,
// the X-Service-Event-Id header and the arrival time. Arrival times are
// `performance.timeOrigin + performance.now()`, the same wall-clock scale the bench
// process uses for commit times (both read the machine's one realtime clock at
// their start, then a monotonic clock: comparable to a few microseconds).
//
// Control (from the bench process, on the same port):
//   GET  /healthz           200 once listening
//   POST /__reset           forget everything recorded; body {"secret": "whsec_…"}
//                           (optional) checks one signature in SAMPLE_EVERY with it
//   GET  /__count           {"count", "first", "last", "badSignatures"}
//   GET  /__arrivals        the above plus "ids" and "at" (parallel arrays)
//
// Only a sample of signatures is verified, so that checking costs the same tiny
// amount whoever sends, and the receiver stays far from being the bottleneck.
import http from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';

const SAMPLE_EVERY = 64;
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';
const origin = performance.timeOrigin;

let ids: string[] = [];
let at: number[] = [];
let secret: string | undefined;
let badSignatures = 0;
let checked = 0;

function verify(header: string | undefined, body: string): boolean {
  if (!secret || !header) return false;
  const parts = header.split(',');
  const t = parts.find((p) => p.startsWith('t='))?.slice(2);
  if (!t) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest();
  return parts
    .filter((p) => p.startsWith('v1='))
    .some((p) => {
      const candidate = Buffer.from(p.slice(3), 'hex');
      return candidate.length === expected.length && timingSafeEqual(candidate, expected);
    });
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function summary() {
  return { count: at.length, first: at[0] ?? null, last: at[at.length - 1] ?? null, badSignatures, checked };
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  if (req.method === 'POST' && !url.startsWith('/__')) {
    const arrived = origin + performance.now();
    const eventId = req.headers['x-service-event-id'];
    ids.push(typeof eventId === 'string' ? eventId : '');
    at.push(arrived);
    const check = secret !== undefined && at.length % SAMPLE_EVERY === 1;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      if (check) chunks.push(chunk);
    });
    req.on('end', () => {
      if (check) {
        checked += 1;
        const signature = req.headers['x-service-signature'];
        if (!verify(typeof signature === 'string' ? signature : undefined, Buffer.concat(chunks).toString('utf8')))
          badSignatures += 1;
      }
      res.writeHead(204);
      res.end();
    });
    return;
  }
  if (req.method === 'GET' && url === '/healthz') return json(res, 200, { ok: true });
  if (req.method === 'GET' && url === '/__count') return json(res, 200, summary());
  if (req.method === 'GET' && url === '/__arrivals') return json(res, 200, { ...summary(), ids, at });
  if (req.method === 'POST' && url === '/__reset') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const parsed = text ? (JSON.parse(text) as { secret?: string }) : {};
      secret = parsed.secret;
      ids = [];
      at = [];
      badSignatures = 0;
      checked = 0;
      json(res, 200, { ok: true });
    });
    return;
  }
  json(res, 404, { error: 'not found' });
});
server.keepAliveTimeout = 60_000;
server.listen(port, host);

process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
