import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './test/support/chromium.ts';
import { TEST_PIN_COST } from './test/support/pin-cost.ts';

// PINs hashed at a sixteenth of the real scrypt cost (test/support/pin-cost.ts) in every host and hub the specs start
// (they inherit the runner's environment through its workers).
process.env.KASA_TEST_PIN_COST = TEST_PIN_COST;

/** End-to-end tests of the whole app through the browser host, in Debian's Chromium. */
export default defineConfig({
  testDir: 'test/e2e',
  globalSetup: './test/e2e/global-setup.ts',
  // Three spec files at a time on the 2-core CI machine: the specs share nothing (each test its own host, ephemeral
  // ports, its own data dir; a hub spec its own hub), and much of a test is waiting on the host and the page. With
  // two workers (and the full browser, before the headless shell) the cores were busy about half the time. With
  // three and the headless shell the whole suite took 447 s on a fresh clone's CI run, about 900 CPU-s: both cores
  // busy. `--workers=1` on the command line runs them one at a time.
  workers: 3,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // One retry on CI only: a spec that fails, then passes, is reported as flaky by name in the run's summary
  // (scripts/test.ts), not hidden; one that fails twice fails the run. Three workers on two cores leave the odd test
  // stalled past its timeout under load (runs 36 and stop 50: a different spec each time, each green on its own and in
  // the runs before). Here, without CI, a failure is final and its trace is kept.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: '.test-reports/playwright.json' }]],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    // DOM snapshots of a failed test, without a screenshot per action (that made every test about 20 % slower). Not on
    // CI: a trace is recorded for every test and thrown away when it passes (about 6 % of the run's CPU), and CI keeps
    // no files: a test that fails there is run again here, where the trace is recorded.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: false },
    screenshot: 'only-on-failure',
  },
});
