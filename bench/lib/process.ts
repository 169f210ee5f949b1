// Child processes of a run: the service under test and the baseline server. Each is
// started with the same Node as the bench (process.execPath: Node 24 under npm),
// polled on /healthz until it answers, and always stopped (SIGTERM, then SIGKILL).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { onCleanup, trackChild } from './cleanup.ts';
import { readPeakRss } from './rss.ts';

export class BenchError extends Error {}

export interface StartOptions {
  /** Shown in messages, e.g. `consigna api (postgres)`. */
  label: string;
  /** Arguments after `node`, e.g. ['bin/consigna.js', 'api']. */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  host?: string;
  healthPath?: string;
  /**
   * Ready when the child writes this exact line on stdout (children without an HTTP
   * endpoint), instead of polling `healthPath`.
   */
  readyLine?: string;
  /** Keep the child's stdin open (`ChildService.send`). */
  stdin?: boolean;
  readyTimeoutMs?: number;
}

export interface ChildService {
  readonly label: string;
  readonly pid: number;
  readonly url: string;
  /** Last lines the process wrote (stdout and stderr). */
  output(): string;
  /** VmHWM of the process now (peak RSS so far), in bytes. */
  peakRss(): number | undefined;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves with the first stdout line matching `pattern` (from now on, or already seen). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Writes a line on the child's stdin (needs `stdin: true`). */
  send(line: string): void;
  /** Resolves when the process has exited (by itself or stopped). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A free TCP port on the loopback interface. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

class OutputTail {
  private lines: string[] = [];
  private partial = '';
  private readonly max: number;
  constructor(max = 60) {
    this.max = max;
  }
  push(chunk: Buffer): void {
    const parts = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts);
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }
  text(): string {
    return [...this.lines, this.partial].filter((l) => l.trim() !== '').join('\n');
  }
}

export async function startService(options: StartOptions): Promise<ChildService> {
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host}:${options.port}`;
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  const tail = new OutputTail();
  // Every complete stdout line, for readiness lines and results the child prints.
  const lines: string[] = [];
  const lineWaiters = new Set<() => void>();
  let partialLine = '';
  // Always drained: a full pipe would block the child.
  child.stdout!.on('data', (chunk: Buffer) => {
    tail.push(chunk);
    const parts = (partialLine + chunk.toString('utf8')).split('\n');
    partialLine = parts.pop() ?? '';
    if (parts.length === 0) return;
    lines.push(...parts);
    for (const wake of [...lineWaiters]) wake();
  });
  child.stderr!.on('data', (chunk: Buffer) => tail.push(chunk));
  // Writing to a child that already exited (EPIPE) must not crash the bench.
  child.stdin?.on('error', () => {});

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });

  let stopping: Promise<void> | undefined;
  const stop = (graceMs = 5000): Promise<void> => {
    stopping ??= stopChild(child, exited, graceMs);
    return stopping;
  };
  const unregister = onCleanup(`stop ${options.label}`, () => stop());

  let seen = 0;
  const waitForLine = (pattern: RegExp, timeoutMs = 60_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = () => {
        while (seen < lines.length) {
          const line = lines[seen++]!;
          if (pattern.test(line)) {
            finish();
            resolve(line);
            return;
          }
        }
        if (child.exitCode !== null || child.signalCode !== null) {
          finish();
          reject(
            new BenchError(
              `${options.label} exited (code ${child.exitCode ?? child.signalCode}) before printing ${pattern}. Its output:\n${indent(tail.text())}`,
            ),
          );
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new BenchError(
            `${options.label} did not print ${pattern} within ${Math.round(timeoutMs / 1000)} s. Its output:\n${indent(tail.text())}`,
          ),
        );
      }, timeoutMs);
      const onExit = () => check();
      const finish = () => {
        clearTimeout(timer);
        lineWaiters.delete(check);
        child.off('exit', onExit);
      };
      lineWaiters.add(check);
      child.on('exit', onExit);
      check();
    });

  const service: ChildService = {
    label: options.label,
    pid: child.pid ?? -1,
    url,
    output: () => tail.text(),
    peakRss: () => (child.pid ? readPeakRss(child.pid) : undefined),
    stop: async (graceMs?: number) => {
      await stop(graceMs);
      await unregister();
    },
    waitForLine,
    send(line: string) {
      if (!child.stdin) throw new BenchError(`${options.label}: started without stdin`);
      child.stdin.write(`${line}\n`);
    },
    exited,
  };

  if (options.readyLine !== undefined) {
    const wanted = options.readyLine;
    try {
      await waitForLine(new RegExp(`^${wanted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`), options.readyTimeoutMs ?? 30_000);
    } catch (error) {
      await service.stop();
      if (spawnError) throw new BenchError(`${options.label}: could not start: ${spawnError.message}`);
      throw error;
    }
    return service;
  }

  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  const healthUrl = url + (options.healthPath ?? '/healthz');
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exited.then((info) => {
    exitInfo = info;
  });
  for (;;) {
    if (spawnError) {
      await service.stop();
      throw new BenchError(`${options.label}: could not start: ${spawnError.message}`);
    }
    if (exitInfo) {
      await service.stop();
      throw new BenchError(
        `${options.label} exited before it was ready (code ${exitInfo.code ?? exitInfo.signal}). Its output:\n${indent(tail.text())}`,
      );
    }
    if (await answers(healthUrl)) return service;
    if (Date.now() > deadline) {
      await service.stop();
      throw new BenchError(
        `${options.label} did not answer ${healthUrl} within ${Math.round((options.readyTimeoutMs ?? 30_000) / 1000)} s. Its output:\n${indent(tail.text())}`,
      );
    }
    await sleep(100);
  }
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** Runs a short-lived command (e.g. `consigna channels create --json`) and returns its stdout. */
export function runCommand(
  label: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      args,
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new BenchError(`${label} failed: ${error.message.split('\n')[0]}\n${indent(`${stdout}${stderr}`.trim())}`));
        } else {
          resolve(stdout);
        }
      },
    );
    trackChild(child);
  });
}

/** A copy of `env` without the settings each benchmark gives its service itself. */
export function withoutServiceSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of [
    'DATABASE_URL',
    'CONSIGNA_MASTER_KEY',
    'CONSIGNA_DATA_DIR',
    'PORT',
    'HOST',
    'PUBLIC_BASE_URL',
    'LOG_LEVEL',
  ]) {
    delete copy[name];
  }
  return copy;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
