import { defineConfig } from 'vitest/config';
import { TEST_PIN_COST } from './test/support/pin-cost.ts';
import SlowestFirst from './test/support/sequencer.ts';

/**
 * Files that change the process for good (a time zone set at import) run each in a fresh process; every other file
 * shares its worker process with the files before it. A fresh process per file cost about a second of CPU each
 * (importing the core's module graph and compiling PGlite's WebAssembly again): the manager, catalog, counter and
 * shifts suites took 104 CPU-seconds isolated and 71 shared. A file that changes `process.env` or a global puts
 * it back when it is done (test/hostile/authz-attacks.test.ts, test/printer/*.test.ts do); one that cannot, is
 * listed here.
 */
const OWN_PROCESS = [
  'test/shifts/shop-zone.test.ts',
  'renderer/src/components/ShiftDialog.test.tsx',
  'electron/preload.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['test/e2e/**', 'node_modules/**'],
    // A minute, a guard against a hang and not a speed target (speed lives in the benchmarks): on the 2-core CI machine
    // three workers, the static checks and the tests' own child processes share the cores. A test that starts fifteen
    // backup workers (history's daily backups: 5 to 20 s on CI runs) or opens 25 databases (the parked-cart drafts'
    // budget) ran past 30 s on both tries under a heavier load here.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One retry on CI only, as Playwright's (playwright.config.ts): a test that failed and then passed is named as
    // flaky in the run's summary (scripts/test.ts); one that fails twice fails the run. Here a failure is final.
    retry: process.env.CI ? 1 : 0,
    pool: 'forks',
    // PINs hashed at a sixteenth of the real scrypt cost (test/support/pin-cost.ts), in the workers and every till
    // and hub they start: some 3,500 hashes a run, a quarter of vitest's CPU at the real cost.
    env: { KASA_TEST_PIN_COST: TEST_PIN_COST },
    // Three at a time on the 2-core CI machine: most files wait on child processes (gateway, hub, PostgreSQL), and
    // with two the cores were idle a third of the run (387 s for 552 CPU-s; with three 313 s for 566). Three was
    // tried before and dropped, when the typecheck beside it took 138 CPU-s and starved; it takes 51 now (tsgo).
    maxWorkers: 3,
    // V8's baseline WebAssembly compiler only (as test/support/hub-process.ts starts the hub): the hub suites open
    // PGlite in the worker for seconds, where its optimizing compile of the WebAssembly cost more than it saved.
    execArgv: ['--liftoff-only'],
    // The slowest files first (test/support/sequencer.ts): a fresh clone has no timings cache.
    sequence: { sequencer: SlowestFirst },
    // One PostgreSQL cluster for the run, a database per test (test/support/postgres-shared.ts).
    globalSetup: ['test/support/vitest-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-process',
          include: [
            'shared/**/*.test.ts',
            'electron/**/*.test.ts',
            'renderer/src/**/*.test.{ts,tsx}',
            'test/**/*.test.ts',
          ],
          exclude: ['test/e2e/**', 'node_modules/**', ...OWN_PROCESS],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
