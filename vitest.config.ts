import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/support/sequencer.ts';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two at a time on the 2-core CI machine: most files wait on child processes (gateway, hub, PostgreSQL).
    maxWorkers: 2,
    // The slowest files first (test/support/sequencer.ts): a fresh clone has no timings cache.
    sequence: { sequencer: SlowestFirst },
    // One PostgreSQL cluster for the run, a database per test (test/support/postgres-shared.ts).
    globalSetup: ['test/support/vitest-setup.ts'],
  },
});
