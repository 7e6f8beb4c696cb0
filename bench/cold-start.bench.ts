/**
 * cold-start: from starting the host process (on a till with a 100,000-product catalog) to the sale
 * screen ready for a sale in Chromium (cashier logged in by PIN, search box enabled). Median of 5 starts; the
 * browser is already running, as the desktop window would be.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from '../scripts/build-if-stale.ts';
import { signInHost, startHostProcess } from '../test/support/host-process.ts';
import { benchLine, percentile } from './format.ts';
import { seedCatalog } from '../test/catalog/generate.ts';
import { launchChromium } from '../test/support/chromium.ts';
import { enterPin } from '../test/e2e/counter-support.ts';

const SEARCH_NAME = 'Претрага или бар-код';

buildIfStale();
const source = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-catalog-'));
seedCatalog(source, Number(process.env.BENCH_PRODUCTS ?? 100_000));
const browser = await launchChromium();
const times: number[] = [];
try {
  for (let i = 0; i < 5; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-cold-'));
    fs.cpSync(source, dataDir, { recursive: true });
    const page = await browser.newPage();
    const t0 = performance.now();
    const host = await startHostProcess({ dataDir });
    // The first-run PIN must be changed before a sale: done over the API, not counted.
    const s0 = performance.now();
    await signInHost(host);
    const setup = performance.now() - s0;
    try {
      await page.goto(`${host.url}#token=${host.token}`);
      await enterPin(page); // the cashier logs in: the sale screen is what "ready for sale" means
      await page.waitForFunction((name) => {
        const el = [...document.querySelectorAll('[role="combobox"]')].find(
          (e) => e.getAttribute('aria-label') === name,
        );
        return el instanceof HTMLInputElement && !el.disabled;
      }, SEARCH_NAME);
      times.push(performance.now() - t0 - setup);
    } finally {
      await page.close();
      await host.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
  fs.rmSync(source, { recursive: true, force: true });
}
process.stderr.write(`cold-start runs (ms): ${times.map((t) => t.toFixed(0)).join(', ')}\n`);
console.log(benchLine('cold-start', 'seconds', percentile(times, 50) / 1000, 2, 's'));
