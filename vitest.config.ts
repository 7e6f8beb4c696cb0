import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two files at a time: most of the suite waits on child processes, sockets and fsync, not on the CPU, so
    // on the 2-core CI machine this takes vitest from about 520 s to about 360 s (the default here is one).
    maxWorkers: 2,
  },
});
