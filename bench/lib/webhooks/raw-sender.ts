// The raw reference of the throughput run, as its own process: posts the same signed
// bodies to the receiver with undici, no queue, no database. Warms up first, prints
// `warm`, waits for `go` on stdin (the bench resets the receiver meanwhile), posts
// COUNT events with CONCURRENCY requests in flight, then prints `done {json}`.
//
// Environment: RECEIVER_URL, WEBHOOK_SECRET, COUNT, WARMUP, CONCURRENCY, CONNECTIONS, TAG.
import readline from 'node:readline';
import { benchEvents } from './bodies.ts';
import { signAndPost } from './sign-and-post.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const count = Number(env('COUNT'));
const warmup = Number(env('WARMUP'));
const concurrency = Number(env('CONCURRENCY'));
const tag = Number(env('TAG'));
const post = signAndPost(env('RECEIVER_URL'), env('WEBHOOK_SECRET'), Number(env('CONNECTIONS')));

const warmEvents = benchEvents(tag + 7, warmup, new Date());
const events = benchEvents(tag, count, new Date());

async function drive(list: { id: string; tipo: string; body: string }[]): Promise<number> {
  let next = 0;
  let failures = 0;
  const lane = async () => {
    while (next < list.length) {
      const event = list[next++]!;
      try {
        await post(event);
      } catch {
        failures += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return failures;
}

await drive(warmEvents);
console.log('warm');
const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'go') break;
const started = performance.now();
const failures = await drive(events);
const seconds = (performance.now() - started) / 1000;
console.log(`done ${JSON.stringify({ count, failures, seconds })}`);
lines.close();
await post.close();
