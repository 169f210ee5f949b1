import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Vitest's default is one worker less than the CPUs: on the 2-CPU machines CI runs on,
// one file at a time, though most of a file's time is spent waiting on PostgreSQL, a
// child process or Chromium. Two files at a time there.
const workers = Math.max(2, os.availableParallelism() - 1);

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
