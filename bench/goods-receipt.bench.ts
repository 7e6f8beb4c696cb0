/**
 * goods-receipt: posting a goods receipt of 500 lines (issue 40: under 1 s), on a real SQLite file with
 * synchronous=FULL, into a catalog of 5,000 products with stock on hand. Half the lines change the product's
 * retail price (each a price change record for the goods on hand), a tenth make a new product. The figure is the
 * median of several posts, each of a fresh draft, timed from the call to the durable commit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../electron/db/open.ts';
import { createCatalogService } from '../electron/catalog/service.ts';
import { createGoodsService } from '../electron/goods/service.ts';
import type { ReceiptInput } from '../shared/contract/goods.ts';
import { benchLine, percentile } from './format.ts';

const LINES = 500;
const POSTS = Number(process.env.BENCH_N ?? 7);
const LIMIT_MS = 1000;
const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-goods-'));
try {
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  const catalog = createCatalogService(db);
  const goods = createGoodsService(db, catalog, {
    rateOf: (label) => (label === 'A' ? 10 : label === 'Ђ' ? 20 : undefined),
    labels: () => ['A', 'Ђ'],
    language: () => 'sr-Cyrl',
    audit: () => undefined,
  });
  const csv = ['Шифра;Назив;Бар-код;Цена;Пореска ознака;Јединица мере;Група;Омиљено'];
  for (let i = 0; i < 5000; i++)
    csv.push(`B${i};Артикал ${i};;${(100 + (i % 300)).toFixed(2)};Ђ;kom;Група ${i % 20};0`);
  const imported = catalog.importCsv(csv.join('\n'), { currentLabels: ['A', 'Ђ'] });
  if (imported.imported !== 5000) throw new Error(`catalog not imported: ${JSON.stringify(imported.errors[0])}`);
  const supplier = goods.putSupplier({ managerPin: '0000', name: 'Велепродаја', pib: '101134702' }, undefined);
  const times: number[] = [];
  for (let run = 0; run <= POSTS; run++) {
    const lines: ReceiptInput['lines'] = Array.from({ length: LINES }, (_, i) => {
      const code = i % 10 === 9 ? `N${run}-${i}` : `B${(run * 37 + i * 7) % 5000}`;
      return {
        code,
        ...(code.startsWith('N') ? { name: `Нов ${run}-${i}`, label: 'A', unit: 'piece' as const } : {}),
        quantity: 1 + (i % 7),
        purchasePrice: 40 + (i % 50),
        discountPercent: 2,
        // Half keep the margin (a new retail price each run), half the catalog's price.
        ...(i % 2 === 0 ? { marginPercent: 20 + run } : { retailPrice: 400 }),
      };
    });
    const draft = goods.saveDraft({
      managerPin: '0000',
      supplierId: supplier.id,
      invoiceNumber: `F-${run}`,
      invoiceDate: '2026-11-28',
      lines,
    });
    const t0 = performance.now();
    goods.post(draft.id, true, undefined);
    const ms = performance.now() - t0;
    if (run > 0) times.push(ms); // the first is a warm-up
  }
  const changes = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM price_changes').get()?.n ?? 0;
  process.stderr.write(`goods-receipt: ${POSTS} posts of ${LINES} lines, ${changes} price change records\n`);
  console.log(benchLine('goods-receipt', 'post500_p50', percentile(times, 50), LIMIT_MS, 'ms'));
  db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
