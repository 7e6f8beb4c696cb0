/**
 * Shared set-up of the counter benchmarks: a host whose data directory holds a generated catalog, and
 * Debian's Chromium opened on it (the same launch flags as the e2e tests).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { launchChromium } from '../support/chromium.ts';
import { enterPin } from '../e2e/counter-support.ts';
import { buildIfStale } from '../../scripts/build-if-stale.ts';
import { signInHost, startHostProcess, type HostProcess } from '../support/host-process.ts';
import { seedCatalog, type GeneratedCatalog } from './generate.ts';

export interface CounterBench {
  host: HostProcess;
  browser: Browser;
  page: Page;
  catalog: GeneratedCatalog;
  close(): Promise<void>;
}

/** Seeds `products` products, starts the host and opens the counter, ready to scan. */
export async function startCounterBench(products: number): Promise<CounterBench> {
  buildIfStale();
  const dataDir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-counter-'));
  const started = performance.now();
  const catalog = seedCatalog(dataDir, products);
  process.stderr.write(`seeded ${products} products in ${Math.round(performance.now() - started)} ms\n`);
  const host = await startHostProcess({ dataDir });
  await signInHost(host); // past the first-run PIN
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${host.url}#token=${host.token}`);
  await enterPin(page);
  // Key and input times in the page's clock (event.timeStamp shares performance.now()'s origin).
  await page.evaluate(() => {
    const w = window as unknown as { __enterAt: number; __inputAt: number };
    window.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter') w.__enterAt = e.timeStamp;
      },
      true,
    );
    window.addEventListener(
      'input',
      (e) => {
        w.__inputAt = e.timeStamp;
      },
      true,
    );
  });
  return {
    host,
    browser,
    page,
    catalog,
    async close() {
      await page.goto('about:blank');
      await browser.close();
      await host.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
