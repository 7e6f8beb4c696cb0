/**
 * hub-count: a stock-taking of 20,000 counted lines posted at the hub (issue 40: under 5 s), on PGlite in a
 * folder (the embedded hub). A shop of 20,000 products with stock on hand (a goods receipt), a count of the whole
 * shop and every product counted from a handheld's CSV (a difference on most lines); the figure is the posting,
 * from the call to its answer (each difference a movement and its stock, the KEP's day, the count's document, the
 * count read back with its 20,000 lines). The KEP's closing balance is checked against Σ stock × retail price
 * afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openPglite } from '../hub/db/db.ts';
import { createHubService } from '../hub/service.ts';
import { benchLine } from './format.ts';

const LINES = Number(process.env.KASA_BENCH_COUNT_LINES ?? 20_000);
const LIMIT_MS = 5000;
const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-hub-count-'));
try {
  const db = await openPglite(path.join(dir, 'hub'));
  const service = createHubService(db);
  const shop = await service.ensureDefaultShop('Продавница 1');
  await db.query(
    `INSERT INTO products (shop_id, code, name, price_para, label, unit, grp, barcodes, version)
     SELECT $1, 'P' || i, 'Артикал ' || i, 5000 + (i % 200) * 137, 'Ђ', 'piece', 'Група ' || (i % 20), '[]',
            nextval('change_seq')
       FROM generate_series(1, ${LINES}) i`,
    [shop],
  );
  for (let from = 0; from < LINES; from += 5000)
    await service.postReceipt(
      shop,
      {
        supplier: 'Велепродаја',
        pib: '101134702',
        invoiceNumber: `F-${from}`,
        invoiceDate: '2026-11-28',
        lines: Array.from({ length: Math.min(5000, LINES - from) }, (_, i) => ({
          code: `P${from + i + 1}`,
          qtyMilli: 10_000 + ((from + i) % 7) * 1000,
          purchasePara: 3000,
        })),
      },
      'Менаџер',
    );
  const count = await service.countStart(shop, [], 'Менаџер');
  const csv = ['шифра;количина'];
  for (let i = 1; i <= LINES; i++) csv.push(`P${i};${10 + ((i * 3) % 11)}`);
  await service.countImport(shop, count.id, csv.join('\n'), 'Менаџер');
  const t0 = performance.now();
  const { view } = await service.countPost(shop, count.id, 'Менаџер');
  const ms = performance.now() - t0;
  const moved = view.lines.filter((l) => l.differenceMilli).length;
  const kep = await service.kep(shop, '2000-01-01', '2100-12-31', 'sr-Cyrl');
  if (kep.closingPara !== kep.stockValuePara)
    throw new Error(`KEP ${kep.closingPara} ≠ stock value ${kep.stockValuePara}`);
  process.stderr.write(`hub-count: ${view.lines.length} lines counted, ${moved} differences posted\n`);
  console.log(benchLine('hub-count', 'post20000', ms, LIMIT_MS, 'ms'));
  await db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
