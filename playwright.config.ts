import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './test/support/chromium.ts';

/** End-to-end tests of the whole app through the browser host, in Debian's Chromium. */
export default defineConfig({
  testDir: 'test/e2e',
  globalSetup: './test/e2e/global-setup.ts',
  // One at a time: two workers on the 2-core CI machine made every test twice as slow (CPU-bound), no faster in all.
  workers: 1,
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
