// Peak resident memory of a process, from Linux's /proc/<pid>/status (VmHWM).
import fs from 'node:fs';

/** VmHWM in bytes, or undefined when unavailable (process gone, not Linux). */
export function readPeakRss(pid: number): number | undefined {
  return readStatusField(pid, 'VmHWM');
}

/** Current VmRSS in bytes, or undefined when unavailable. */
export function readRss(pid: number): number | undefined {
  return readStatusField(pid, 'VmRSS');
}

function readStatusField(pid: number, field: string): number | undefined {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}

export function formatMiB(bytes: number | undefined): string {
  return bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
