// CPU a process (or one of its threads) has used so far, from /proc: user + system time.
import fs from 'node:fs';

/** CPU seconds of `pid`, or of its thread `tid` (the main thread's tid is the pid); undefined once it is gone. */
export function cpuSeconds(pid: number, tid?: number): number | undefined {
  try {
    const stat = fs.readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    // After the command name, which may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Starts counting `pid`'s CPU; the function returned answers the seconds used since. */
export function cpuMeter(pid: number): () => number | undefined {
  const before = cpuSeconds(pid);
  return () => {
    const after = cpuSeconds(pid);
    return before !== undefined && after !== undefined ? after - before : undefined;
  };
}
