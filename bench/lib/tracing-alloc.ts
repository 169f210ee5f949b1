// What a request allocates, by tracing mode: one `consigna serve` per mode, each loaded
// with GET /v1/links/{id} (or POST /v1/links) while V8's sampling heap profiler runs in
// it (the inspector's HeapProfiler, with the objects the collector has already freed
// counted too), then bytes per request in all and by allocating function, each mode
// against the first. Allocation, unlike CPU, barely varies from one process to the
// next, so one service per mode tells apart what a few hundred bytes change.
//
//   node bench/lib/tracing-alloc.ts [modes, default off,on,s0]
//
// Modes as tracing-get-cpu.ts's: off, on (spans exported to a sink in this process),
// s0 (the sampler at 0). CASE=links-create for POST /v1/links; SECS (default 5) seconds
// profiled after 3 s of warm-up; TOP (default 20) functions listed. PostgreSQL from
// BENCH_DATABASE_URL or the bench's default. Run by hand (bench/README.md, "Tracing").
// The figures are sampled (one sample per 128 bytes allocated): a function's bytes move
// by tens from run to run, and an allocation V8 inlines into its caller is counted there.
import path from 'node:path';
import { cases } from '../links.bench.ts';
import { createContext } from './context.ts';
import { runLoad } from './load.ts';
import { freePort } from './process.ts';
import { parseModes, startModeService, startSink } from './tracing-modes.ts';

const MODES = parseModes(process.argv[2], 'off,on,s0');
const SECS = Number(process.env.SECS ?? 5);
const TOP = Number(process.env.TOP ?? 20);
const CASE = process.env.CASE ?? 'links-get';
const benchCase = cases.find((c) => c.id === CASE);
if (!benchCase) throw new Error(`no case ${CASE} in bench/links.bench.ts`);

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
async function inspector(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve);
    socket.addEventListener('error', reject);
  });
  let id = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  return {
    call: <T>(method: string, params: object = {}) =>
      new Promise<T>((resolve) => {
        pending.set(++id, resolve as (result: unknown) => void);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

const sink = await startSink();

const results: Array<{ mode: string; perRequest: number; byFunction: Map<string, number> }> = [];
try {
  for (const mode of MODES) {
    const inspectPort = await freePort();
    const { service, channel, stop } = await startModeService({
      mode,
      sinkUrl: sink.url,
      label: `alloc ${mode}`,
      port: await freePort(),
      // The service's own heap settings (bin/consigna.js), plus the inspector on a port of its own.
      env: {
        CONSIGNA_NODE_FLAGS: `--max-semi-space-size=16 --max-old-space-size=160 --initial-old-space-size=120 --inspect=127.0.0.1:${inspectPort}`,
      },
    });
    try {
      const spec = await benchCase.setup(createContext(service.url, 'postgres', channel));
      await runLoad(spec, { url: service.url, connections: 64, duration: 3, warmup: 0 });
      const client = await inspector(inspectPort);
      await client.call('HeapProfiler.enable');
      await client.call('HeapProfiler.startSampling', {
        samplingInterval: 128,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      const load = await runLoad(spec, { url: service.url, connections: 64, duration: SECS, warmup: 0 });
      const { profile } = await client.call<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling');
      client.close();
      const byFunction = new Map<string, number>();
      let total = 0;
      const walk = (node: ProfileNode) => {
        if (node.selfSize > 0) {
          const { functionName, url, lineNumber } = node.callFrame;
          const where = `${functionName || '(anonymous)'} ${path.basename(url) || '(native)'}:${lineNumber + 1}`;
          byFunction.set(where, (byFunction.get(where) ?? 0) + node.selfSize / load.requests);
          total += node.selfSize;
        }
        for (const child of node.children) walk(child);
      };
      walk(profile.head);
      results.push({ mode, perRequest: total / load.requests, byFunction });
      console.log(`${mode}: ${load.requests} requests profiled, ${Math.round(total / load.requests)} B allocated per request`);
    } finally {
      await stop();
    }
  }
} finally {
  sink.close();
}

const [first, ...others] = results;
for (const other of others) {
  console.log(
    `\n${other.mode} − ${first!.mode}: ${Math.round(other.perRequest - first!.perRequest)} B per request; by function:`,
  );
  const names = new Set([...other.byFunction.keys(), ...first!.byFunction.keys()]);
  const differences = [...names]
    .map((name) => [name, (other.byFunction.get(name) ?? 0) - (first!.byFunction.get(name) ?? 0)] as const)
    .filter(([, bytes]) => Math.abs(bytes) >= 8)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  for (const [name, bytes] of differences.slice(0, TOP)) console.log(`${Math.round(bytes).toString().padStart(7)}  ${name}`);
}
