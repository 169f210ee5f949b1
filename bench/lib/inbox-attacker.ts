// The attacker of bench/attacker.bench.ts, in a process of its own (its work must not
// delay the victim's measurements in the bench process): with only an inbox token, for
// SECONDS seconds, at once: 50 streams that never read, 64 KB bodies posted 4 at a time,
// and the viewer asked 40 times at once, over and over. Refused requests (429) wait the
// Retry-After they were given, as any HTTP client does; 503s are retried at once. Prints
// its answers by status as one JSON line. With `healthz`, the calibration: as many
// requests as fast as they are answered, all to GET /healthz, no streams and no bodies:
// what the load generator's own traffic does to the victim on this machine.
//
//   node bench/lib/inbox-attacker.ts BASE_URL TOKEN SECONDS [inbox|healthz]
import net from 'node:net';

const [base, token, seconds, mode = 'inbox'] = process.argv.slice(2);
if (!base || !token || !seconds) throw new Error('usage: inbox-attacker.ts BASE_URL TOKEN SECONDS [inbox|healthz]');
const until = Date.now() + Number(seconds) * 1000;
const calibration = mode === 'healthz';
const answers: Record<string, number> = {};
const count = (what: string) => (answers[what] = (answers[what] ?? 0) + 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const inbox = `${base}/v1/sandbox/receptor/${token}`;

/** Waits what a refusal asked for (never past the end). */
async function backOff(response: Response | undefined): Promise<void> {
  if (response?.status !== 429) return;
  await sleep(Math.min(Number(response.headers.get('retry-after') ?? 1) * 1000, Math.max(0, until - Date.now())));
}

const { hostname, port } = new URL(base);
const sockets: net.Socket[] = [];
await Promise.all(
  Array.from(
    { length: calibration ? 0 : 50 },
    () =>
      new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), hostname, () =>
          socket.write(`GET /v1/sandbox/receptor/${token}/eventos/fluxo HTTP/1.1\r\nHost: x\r\n\r\n`),
        );
        sockets.push(socket);
        socket.once('data', (chunk) => {
          socket.pause();
          count(`fluxo ${chunk.toString('latin1').slice(9, 12)}`);
          resolve();
        });
        socket.once('error', () => resolve());
      }),
  ),
);

const body = JSON.stringify('x'.repeat(64 * 1024 - 2));
const posting = (async () => {
  while (!calibration && Date.now() < until) {
    const rs = await Promise.all(
      [0, 1, 2, 3].map(() =>
        fetch(inbox, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).catch(() => undefined),
      ),
    );
    for (const r of rs) {
      count(r ? `post ${r.status}` : 'post erro');
      await r?.arrayBuffer();
    }
    await backOff(rs.find((r) => r?.status === 429));
  }
})();
const viewing = (async () => {
  while (Date.now() < until) {
    const rs = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const r = await fetch(calibration ? `${base}/healthz` : `${base}/sandbox/receptor/${token}`).catch(() => undefined);
        await r?.arrayBuffer();
        return r;
      }),
    );
    for (const r of rs) count(r ? `view ${r.status}` : 'view erro');
    await backOff(rs.find((r) => r?.status === 429));
  }
})();
await Promise.all([posting, viewing]);
for (const socket of sockets) socket.destroy();
console.log(JSON.stringify(answers));
