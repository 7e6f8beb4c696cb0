/**
 * renderer-memory: the renderer's JS heap after a working session on a 100,000-product catalog
 * (30 scans, 30 searches, a sale completed), after a forced garbage collection. Limit: 64 MiB, a
 * budget that leaves a cheap till (4 GiB) room for everything else.
 */
import { buildIfStale } from '../scripts/build-if-stale.ts';
import { signInHost, startHostProcess } from '../test/support/host-process.ts';
import { benchLine } from './format.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedCatalog } from '../test/catalog/generate.ts';
import { launchChromium } from '../test/support/chromium.ts';
import { enterPin } from '../test/e2e/counter-support.ts';

const SEARCH_NAME = 'Претрага или бар-код';

buildIfStale();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-memory-'));
const catalog = seedCatalog(dataDir, Number(process.env.BENCH_PRODUCTS ?? 100_000));
const browser = await launchChromium();
const host = await startHostProcess({ dataDir });
await signInHost(host); // past the first-run PIN
try {
  const page = await browser.newPage();
  await page.goto(`${host.url}#token=${host.token}`);
  await enterPin(page);
  const search = page.getByRole('combobox', { name: SEARCH_NAME });
  for (let i = 0; i < 30; i++) {
    await page.keyboard.type(catalog.barcodes[1000 + i * 7] as string);
    await page.keyboard.press('Enter');
  }
  for (const q of ['хле', 'мле', 'сок', 'чок', 'кафа', 'вода', 'пиво', 'сир', 'шун', 'јаб']) {
    for (let i = 0; i < 3; i++) {
      await search.fill(q.slice(0, 1 + i));
      await page.waitForTimeout(30);
    }
  }
  await search.fill('');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
  const nodes = metrics.find((m) => m.name === 'Nodes')?.value ?? NaN;
  process.stderr.write(`renderer: JS heap ${(used / 1048576).toFixed(1)} MiB, ${nodes} DOM nodes\n`);
  console.log(benchLine('renderer-memory', 'js_heap', used / 1048576, 64, 'MiB'));
} finally {
  await host.stop();
  await browser.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
