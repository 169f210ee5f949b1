// The services the hand-run tracing scripts (tracing-get-cpu.ts, tracing-alloc.ts) compare:
// a `consigna serve` per tracing mode, each on its own fresh database with a channel made
// by the CLI, exporting (when on) to an OTLP sink in the calling process.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { BenchChannel } from './types.ts';
import { createBenchDatabase, DEFAULT_BENCH_DATABASE_URL, type BenchDatabase } from './postgres.ts';
import { startService, type ChildService } from './process.ts';

/** off: no OTEL_* variable; on: every span exported; s0: the sampler at 0 (hooks, contexts and ids, no span kept). */
export type TracingMode = 'off' | 'on' | 's0';
export const TRACING_MODES: readonly TracingMode[] = ['off', 'on', 's0'];

export function parseModes(arg: string | undefined, fallback: string): TracingMode[] {
  const modes = (arg ?? fallback).split(',');
  for (const mode of modes) {
    if (!TRACING_MODES.includes(mode as TracingMode)) throw new Error(`unknown mode ${mode} (${TRACING_MODES.join(', ')})`);
  }
  return modes as TracingMode[];
}

/** An OTLP/HTTP sink answering as a collector does (an empty protobuf response), decoding nothing. */
export async function startSink(): Promise<{ url: string; close: () => void }> {
  const sink = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(sink.address() as { port: number }).port}`, close: () => sink.close() };
}

export interface ModeService {
  service: ChildService;
  db: BenchDatabase;
  channel: BenchChannel;
  /** Stops the service, then drops its database. */
  stop(): Promise<void>;
}

/** `consigna serve` in `mode` on `port`, with the HTTP tables' settings (warn logs, no rate limit). */
export async function startModeService(options: {
  mode: TracingMode;
  sinkUrl: string;
  label: string;
  port: number;
  /** Extra environment (a pool size, CONSIGNA_NODE_FLAGS). */
  env?: NodeJS.ProcessEnv;
}): Promise<ModeService> {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const db = await createBenchDatabase(process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL);
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: db.url,
      CONSIGNA_MASTER_KEY: randomBytes(32).toString('hex'),
      PORT: String(options.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      CONSIGNA_RATE_LIMIT_API: '0/60',
      ...options.env,
    };
    const channel = JSON.parse(
      execFileSync(process.execPath, ['bin/consigna.js', 'channels', 'create', '--name', options.label, '--json'], {
        cwd: root,
        env,
      }).toString(),
    ) as BenchChannel;
    if (options.mode !== 'off') env.OTEL_EXPORTER_OTLP_ENDPOINT = options.sinkUrl;
    if (options.mode === 's0')
      Object.assign(env, { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
    const service = await startService({
      label: options.label,
      args: ['bin/consigna.js', 'serve'],
      cwd: root,
      env,
      port: options.port,
    });
    return {
      service,
      db,
      channel,
      stop: async () => {
        await service.stop();
        await db.drop();
      },
    };
  } catch (error) {
    await db.drop();
    throw error;
  }
}
