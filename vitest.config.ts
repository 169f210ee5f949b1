import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Most of a test file's time is spent waiting on PostgreSQL, a child process, a retry or
// Chromium, not on this process's CPU: one file more than the CPUs (three on the 2-CPU
// machines CI runs on) finishes the suite sooner.
const workers = os.availableParallelism() + 1;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: workers,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
