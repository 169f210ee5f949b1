// GET /v1/links/{id} against several `consigna serve` side by side, by tracing mode, in
// rotating rounds: each service's CPU per request from /proc, for the whole process and
// for its main thread (the rest is V8's and libuv's threads). Two services with the same
// settings differ here by up to 10 % for their whole life (one process's JIT and heap, one
// database), so each mode is best given two or three services.
//
//   node bench/lib/tracing-get-cpu.ts [modes, default off,on,s0,off,on,s0]
//
// Modes: off (no OTEL_* variable), on (every span exported to a sink in this process,
// answering as a collector does), s0 (the sampler at 0: the request hooks, contexts and
// ids, no span kept). ROUNDS (default 4) rounds of SECS (default 3) seconds per service,
// 64 connections, after 2 s of warm-up each. PostgreSQL from BENCH_DATABASE_URL or the
// bench's default. Run by hand (bench/README.md, "Tracing"); prints one line per service.
import { cases } from '../links.bench.ts';
import { createContext } from './context.ts';
import { cpuSeconds } from './cpu.ts';
import { runLoad } from './load.ts';
import { parseModes, startModeService, startSink, type ModeService } from './tracing-modes.ts';

const MODES = parseModes(process.argv[2], 'off,on,s0,off,on,s0');
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const SECS = Number(process.env.SECS ?? 3);
const getCase = cases.find((c) => c.id === 'links-get')!;

const sink = await startSink();
// Below the ephemeral range, where autocannon's and PostgreSQL's client ports are.
let port = 21_000 + Math.floor(Math.random() * 5_000);
const served: Array<ModeService & { label: string; spec: Awaited<ReturnType<typeof getCase.setup>> }> = [];
try {
  for (const [i, mode] of MODES.entries()) {
    const label = `${i}-${mode}`;
    const started = await startModeService({
      mode,
      sinkUrl: sink.url,
      label,
      port: ++port,
      env: {
        // Six services at the default 20 would pass PostgreSQL's max_connections of 100.
        CONSIGNA_PG_POOL_SIZE: '12',
        ...(process.env.CONSIGNA_NODE_FLAGS ? { CONSIGNA_NODE_FLAGS: process.env.CONSIGNA_NODE_FLAGS } : {}),
      },
    });
    served.push({
      ...started,
      label,
      spec: await getCase.setup(createContext(started.service.url, 'postgres', started.channel)),
    });
  }
  const totals = served.map(() => ({ requests: 0, cpu: 0, main: 0 }));
  for (const s of served) await runLoad(s.spec, { url: s.service.url, connections: 64, duration: 2, warmup: 0 });
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < served.length; k++) {
      const i = (k + round) % served.length;
      const { service, spec } = served[i]!;
      const pid = service.pid;
      const cpu = cpuSeconds(pid)!;
      const main = cpuSeconds(pid, pid)!;
      const result = await runLoad(spec, { url: service.url, connections: 64, duration: SECS, warmup: 0 });
      totals[i]!.cpu += cpuSeconds(pid)! - cpu;
      totals[i]!.main += cpuSeconds(pid, pid)! - main;
      totals[i]!.requests += result.requests;
    }
  }
  const us = (seconds: number, requests: number) => ((1e6 * seconds) / requests).toFixed(1);
  for (const [i, s] of served.entries()) {
    const t = totals[i]!;
    console.log(
      `${s.label.padEnd(6)} ${Math.round(t.requests / (ROUNDS * SECS))} req/s · CPU per request ${us(t.cpu, t.requests)} µs ` +
        `(main thread ${us(t.main, t.requests)}, other threads ${us(t.cpu - t.main, t.requests)})`,
    );
  }
} finally {
  for (const s of served) await s.stop();
  sink.close();
}
