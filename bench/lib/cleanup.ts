// Everything the run must undo (child processes, the bench database), undone in
// reverse order on a normal end, an exception, SIGINT or SIGTERM. Child processes
// are also killed synchronously on `exit`, the last chance when everything else failed.
import type { ChildProcess } from 'node:child_process';

type Task = () => Promise<void> | void;

const tasks: Array<{ label: string; run: Task }> = [];
const children = new Set<ChildProcess>();
let running: Promise<void> | undefined;
let installed = false;

/** Registers an undo step; returns a function that runs it now (once) and forgets it. */
export function onCleanup(label: string, run: Task): () => Promise<void> {
  const task = { label, run };
  tasks.push(task);
  let done: Promise<void> | undefined;
  return () => {
    done ??= (async () => {
      const i = tasks.indexOf(task);
      if (i >= 0) tasks.splice(i, 1);
      await run();
    })();
    return done;
  };
}

/** Tracks a child so that it is killed even when the bench process dies abruptly. */
export function trackChild(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** Runs every registered step, newest first; errors are reported, not thrown. */
export function runCleanup(): Promise<void> {
  running ??= (async () => {
    while (tasks.length > 0) {
      const task = tasks.pop()!;
      try {
        await task.run();
      } catch (error) {
        console.error(`bench: clean-up step "${task.label}" failed: ${(error as Error).message}`);
      }
    }
  })();
  return running;
}

export function killChildrenNow(): void {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * SIGINT/SIGTERM: clean up and exit 130/143; a second signal kills children at once.
 * An uncaught exception or unhandled rejection: clean up and exit 1.
 */
export function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      killChildrenNow();
      process.exit(1);
    }
    console.error(`\nbench: ${signal}: stopping child processes and dropping the bench database…`);
    const code = signal === 'SIGINT' ? 130 : 143;
    const deadline = setTimeout(() => {
      killChildrenNow();
      process.exit(code);
    }, 15_000);
    deadline.unref();
    void runCleanup().finally(() => {
      killChildrenNow();
      process.exit(code);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', killChildrenNow);
  // A crash still drops the bench databases and stops the children before exiting.
  const onCrash = (error: unknown) => {
    console.error(
      `\nbench: unexpected error, cleaning up: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    const deadline = setTimeout(() => {
      killChildrenNow();
      process.exit(1);
    }, 15_000);
    deadline.unref();
    void runCleanup().finally(() => {
      killChildrenNow();
      process.exit(1);
    });
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
}
