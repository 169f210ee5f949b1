// graphile-worker running the same sign-and-post task as the raw loop, as its own
// process, at the settings its performance page documents for throughput
// (https://worker.graphile.org/docs/performance): a local queue that locks and
// pulls jobs in batches, batched completion and failure, 24 concurrent jobs on a
// pool of 25 connections. Prints `ready` once the worker pool runs.
//
// Environment: GRAPHILE_DATABASE_URL, RECEIVER_URL, WEBHOOK_SECRET, and GRAPHILE_SETTINGS
// (JSON: concurrentJobs, maxPoolSize, localQueueSize, completeJobBatchDelay,
// failJobBatchDelay, connections).
import { Logger, run, type Task } from 'graphile-worker';
import { signAndPost } from './sign-and-post.ts';

export interface GraphileSettings {
  concurrentJobs: number;
  maxPoolSize: number;
  localQueueSize: number;
  completeJobBatchDelay: number;
  failJobBatchDelay: number;
  /** undici connections to the receiver. */
  connections: number;
}

export const GRAPHILE_DOCUMENTED: GraphileSettings = {
  concurrentJobs: 24,
  maxPoolSize: 25,
  localQueueSize: 500,
  completeJobBatchDelay: 0,
  failJobBatchDelay: 0,
  connections: 24,
};

export interface DeliverPayload {
  id: string;
  tipo: string;
  body: string;
}

async function main(): Promise<void> {
  const settings = {
    ...GRAPHILE_DOCUMENTED,
    ...(JSON.parse(process.env.GRAPHILE_SETTINGS ?? '{}') as Partial<GraphileSettings>),
  };
  const post = signAndPost(process.env.RECEIVER_URL!, process.env.WEBHOOK_SECRET!, settings.connections);
  const deliver: Task = async (payload, helpers) => {
    await post(payload as DeliverPayload, helpers.job.attempts);
  };
  // Warnings and errors only: an info line per job would be logging under test.
  const logger = new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') console.error(`graphile-worker ${level}: ${message}`);
  });
  const runner = await run({
    taskList: { deliver },
    crontab: '',
    noHandleSignals: true,
    logger,
    preset: {
      worker: {
        connectionString: process.env.GRAPHILE_DATABASE_URL!,
        concurrentJobs: settings.concurrentJobs,
        maxPoolSize: settings.maxPoolSize,
        localQueue: { size: settings.localQueueSize },
        completeJobBatchDelay: settings.completeJobBatchDelay,
        failJobBatchDelay: settings.failJobBatchDelay,
      },
    },
  });
  console.log('ready');
  const stop = () => {
    void runner.stop().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await runner.promise;
}

if (import.meta.main) await main();
