/**
 * cold-start: from starting the host process (on a till with a 100,000-product catalog) to the sale
 * screen ready for a sale in Chromium (search box enabled, tax rates loaded). Median of 5 starts; the
 * browser is already running, as the desktop window would be.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from '../scripts/build-if-stale.ts';
import { startHostProcess } from '../test/support/host-process.ts';
import { benchLine, percentile } from './format.ts';
import { catalogDataDir } from './support/catalog.ts';
import { launchChromium, SEARCH_NAME } from './support/browser.ts';

buildIfStale();
const source = catalogDataDir(Number(process.env.BENCH_CATALOG_N ?? 100_000));
const browser = await launchChromium();
const times: number[] = [];
try {
  for (let i = 0; i < 5; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-cold-'));
    fs.cpSync(source, dataDir, { recursive: true });
    const page = await browser.newPage();
    const t0 = performance.now();
    const host = await startHostProcess({ dataDir });
    try {
      await page.goto(`${host.url}#token=${host.token}`);
      const search = page.getByRole('combobox', { name: SEARCH_NAME });
      await search.waitFor({ state: 'visible' });
      await page.waitForFunction(
        (name) => {
          const el = [...document.querySelectorAll('[role="combobox"]')].find((e) => e.getAttribute('aria-label') === name);
          return el instanceof HTMLInputElement && !el.disabled;
        },
        SEARCH_NAME,
      );
      times.push(performance.now() - t0);
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
