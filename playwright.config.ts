import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './test/support/chromium.ts';

/** End-to-end tests of the whole app through the browser host, in Debian's Chromium. */
export default defineConfig({
  testDir: 'test/e2e',
  globalSetup: './test/e2e/global-setup.ts',
  // Two spec files at a time: the specs share nothing (each test its own host, ephemeral ports, its own data dir;
  // a hub spec its own hub). Much of a test is waiting on the host and the page, so two overlap: side by side on
  // the same four specs (16 tests, this 2-core machine shared and busy), 276 s with two workers, 305–465 s with one.
  // `--workers=1` on the command line runs them one at a time.
  workers: 2,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '.test-reports/playwright.json' }]],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    // DOM snapshots of a failed test, without a screenshot per action (that made every test about 20 % slower).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: false },
    screenshot: 'only-on-failure',
  },
});
