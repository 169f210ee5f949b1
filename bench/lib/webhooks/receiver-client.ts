// The bench side of the receiver process (bench/lib/webhooks/receiver.ts).
import { BenchError, sleep } from '../process.ts';

export interface ReceiverCount {
  count: number;
  /** Wall-clock ms (performance.timeOrigin + performance.now() in the receiver). */
  first: number | null;
  last: number | null;
  badSignatures: number;
  checked: number;
}

export interface ReceiverArrivals extends ReceiverCount {
  ids: string[];
  at: number[];
}

async function call<T>(url: string, method: 'GET' | 'POST', body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new BenchError(`receiver ${method} ${new URL(url).pathname} answered ${response.status}`);
  return (await response.json()) as T;
}

export const resetReceiver = (base: string, secret?: string): Promise<unknown> => call(`${base}/__reset`, 'POST', { secret });
export const receiverCount = (base: string): Promise<ReceiverCount> => call(`${base}/__count`, 'GET');
export const receiverArrivals = (base: string): Promise<ReceiverArrivals> => call(`${base}/__arrivals`, 'GET');

/**
 * Waits until the receiver has `expected` requests. Gives up when nothing arrived
 * for `stallMs` (returns what it has: the caller reports the missing ones).
 */
export async function waitForCount(base: string, expected: number, stallMs = 15_000): Promise<ReceiverCount> {
  let last = await receiverCount(base);
  let progressAt = Date.now();
  while (last.count < expected) {
    await sleep(50);
    const now = await receiverCount(base);
    if (now.count !== last.count) progressAt = Date.now();
    last = now;
    if (Date.now() - progressAt > stallMs) break;
  }
  return last;
}
