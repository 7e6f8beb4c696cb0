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
import { openDatabase } from '../../electron/db/open.ts';

export interface CounterBench {
  host: HostProcess;
  browser: Browser;
  page: Page;
  catalog: GeneratedCatalog;
  close(): Promise<void>;
}

/**
 * The stock the counter shows (docs/goods.md "The counter's figures"): every product on the book, a tenth of them
 * below zero, with three years of movements behind them (10 per product); with `hub` the till is enrolled at a
 * store hub that is away (a closed port), so the search reads the snapshot of the hub's book and says since when.
 */
function seedStock(dataDir: string, hub: boolean): void {
  const db = openDatabase(path.join(dataDir, 'kasa.sqlite'));
  try {
    db.exec(`
      INSERT INTO stock (product_code, name, qty_milli, price_para, purchase_para, updated_at)
        SELECT code, name, CASE WHEN id % 10 = 0 THEN -1000 ELSE 1000 * (id % 50) END, price_para, NULL,
               '2026-11-28T08:00:00.000Z' FROM products;
      INSERT INTO hub_stock_seen (product_code, qty_milli, at)
        SELECT product_code, qty_milli, '2026-11-28T08:00:00.000Z' FROM stock;
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9)
      INSERT INTO stock_movements (product_code, at, day, kind, source, line, qty_milli, price_para, value_para)
        SELECT p.code, date('2023-12-01', '+' || ((p.id * 10 + n.i) % 1095) || ' days') || 'T08:00:00.000Z',
               date('2023-12-01', '+' || ((p.id * 10 + n.i) % 1095) || ' days'), 'sale',
               'order:' || (p.id * 10 + n.i), 0, -1000, p.price_para, -p.price_para
          FROM products p, n;
    `);
    if (hub) {
      db.prepare("INSERT INTO hub_state (key, value) VALUES ('url', 'http://127.0.0.1:9'), ('till_id', '1')").run();
      fs.writeFileSync(path.join(dataDir, 'hub-credential'), 'bench-credential', { mode: 0o600 });
    }
  } finally {
    db.close();
  }
}

/** Seeds `products` products, starts the host and opens the counter, ready to scan. */
export async function startCounterBench(products: number): Promise<CounterBench> {
  buildIfStale();
  const dataDir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-counter-'));
  const started = performance.now();
  const catalog = seedCatalog(dataDir, products);
  const stock = process.env.BENCH_STOCK ?? 'own';
  if (stock !== 'none') seedStock(dataDir, stock === 'hub');
  process.stderr.write(
    `seeded ${products} products (stock: ${stock}) in ${Math.round(performance.now() - started)} ms\n`,
  );
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
