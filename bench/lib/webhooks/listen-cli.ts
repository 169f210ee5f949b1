// The SDK's `listen` command as a child process of the listen-latency benchmark
// (bench/listen.bench.ts): `node packages/sdk/src/cli.ts listen --forward-to URL --sim`,
// with the channel's credentials in its environment, exactly as a developer runs it.
// Its stdout is kept line by line: one line per forwarded event
// (`HH:MM:SS  tipo  tentativa N  → 204  3 ms`, or `→ falhou: …`), counted to cross-check
// the receiver. Stopped with SIGINT (the developer's Ctrl-C), SIGKILL after a grace;
// also on the run's clean-up (Ctrl-C of the bench, an exception).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { onCleanup, trackChild } from '../cleanup.ts';
import { BenchError, indent } from '../process.ts';

export interface ListenCliOptions {
  /** Repository root: the command is packages/sdk/src/cli.ts under it. */
  root: string;
  /** The service (CONSIGNA_URL). */
  serviceUrl: string;
  clientId: string;
  clientSecret: string;
  /** --forward-to */
  forwardTo: string;
}

export interface ForwardLines {
  /** Lines of forwarded events (`→ …`), whatever the answer. */
  total: number;
  /** Of those, by the local server's answer: `204`, `falhou: …`. */
  byAnswer: Record<string, number>;
  /** `tentativa N` of those lines, by N (a retried delivery shows N > 1). */
  byAttempt: Record<string, number>;
}

export interface ListenCli {
  readonly pid: number;
  /** Every line the command wrote (stdout and stderr, in order of arrival). */
  lines(): string[];
  /** The forward lines from `fromLine` up to (not including) `toLine` (indexes into lines()). */
  forwardLines(fromLine?: number, toLine?: number): ForwardLines;
  /** Resolves with the first line matching `pattern` (already seen or to come). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGINT, as Ctrl-C; SIGKILL after `graceMs`. Resolves with how it ended (once). */
  interrupt(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; killed: boolean }>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `HH:MM:SS  tipo  tentativa N  → answer  X ms` (packages/sdk/src/listen.ts, forwardLine). */
const FORWARD_LINE = /^\d{2}:\d{2}:\d{2} {2}\S+ {2}tentativa (\S+) {2}→ (.+?)(?: {2}\d+ ms)?$/;

export function startListenCli(options: ListenCliOptions): ListenCli {
  const child = spawn(
    process.execPath,
    [path.join(options.root, 'packages', 'sdk', 'src', 'cli.ts'), 'listen', '--forward-to', options.forwardTo, '--sim'],
    {
      cwd: options.root,
      // Only what the command reads, as in test/sdk/listen.test.ts.
      env: {
        PATH: process.env.PATH,
        CONSIGNA_URL: options.serviceUrl,
        CONSIGNA_CLIENT_ID: options.clientId,
        CONSIGNA_CLIENT_SECRET: options.clientSecret,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  trackChild(child);
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  const partial = { stdout: '', stderr: '' };
  const take = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const parts = (partial[stream] + chunk.toString('utf8')).split('\n');
    partial[stream] = parts.pop() ?? '';
    if (parts.length === 0) return;
    lines.push(...parts);
    for (const wake of [...waiters]) wake();
  };
  child.stdout.on('data', take('stdout'));
  child.stderr.on('data', take('stderr'));

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      for (const stream of ['stdout', 'stderr'] as const) {
        if (partial[stream] !== '') lines.push(partial[stream]);
        partial[stream] = '';
      }
      resolve({ code, signal });
      for (const wake of [...waiters]) wake();
    });
  });
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
    for (const wake of [...waiters]) wake();
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;

  let interrupting: ReturnType<ListenCli['interrupt']> | undefined;
  const interrupt = (graceMs = 5000): ReturnType<ListenCli['interrupt']> => {
    interrupting ??= (async () => {
      if (gone() || child.pid === undefined) return { ...(await exitedOrNow()), killed: false };
      child.kill('SIGINT');
      let killed = false;
      const timer = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, graceMs);
      try {
        return { ...(await exited), killed };
      } finally {
        clearTimeout(timer);
      }
    })();
    return interrupting;
  };
  const exitedOrNow = async () => (child.pid === undefined ? { code: null, signal: null } : exited);
  const unregister = onCleanup('stop the listen command', async () => {
    await interrupt();
  });

  const waitForLine = (pattern: RegExp, timeoutMs = 30_000): Promise<string> =>
    new Promise((resolve, reject) => {
      let seen = 0;
      const check = () => {
        for (; seen < lines.length; seen++) {
          if (pattern.test(lines[seen]!)) {
            finish();
            resolve(lines[seen]!);
            return;
          }
        }
        if (spawnError || gone()) {
          finish();
          const why = spawnError
            ? `could not start: ${spawnError.message}`
            : `exited (code ${child.exitCode ?? child.signalCode})`;
          reject(
            new BenchError(`the listen command ${why} before printing ${pattern}. Its output:\n${indent(lines.join('\n'))}`),
          );
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new BenchError(
            `the listen command did not print ${pattern} within ${Math.round(timeoutMs / 1000)} s. Its output:\n${indent(lines.slice(-40).join('\n'))}`,
          ),
        );
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const forwardLines = (fromLine = 0, toLine = lines.length): ForwardLines => {
    const result: ForwardLines = { total: 0, byAnswer: {}, byAttempt: {} };
    for (const line of lines.slice(fromLine, toLine)) {
      const match = FORWARD_LINE.exec(line);
      if (!match) continue;
      result.total += 1;
      const answer = match[2]!.startsWith('falhou') ? match[2]!.replace(/ \(o servidor local está no ar\?\)$/, '') : match[2]!;
      result.byAnswer[answer] = (result.byAnswer[answer] ?? 0) + 1;
      result.byAttempt[match[1]!] = (result.byAttempt[match[1]!] ?? 0) + 1;
    }
    return result;
  };

  return {
    pid: child.pid ?? -1,
    lines: () => lines,
    forwardLines,
    waitForLine,
    interrupt: async (graceMs?: number) => {
      const result = await interrupt(graceMs);
      await unregister();
      return result;
    },
    exited,
  };
}
