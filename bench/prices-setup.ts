/**
 * The shop the prices benchmarks price in (issue 42): 100,000 products in 20 groups on a real SQLite file, 20 price
 * lists (shop, chain, business buyers, happy hours; sets of prices and group rules) and 1,000 promotions (prices,
 * percentages, 3 for 2, the second at half price, on products and on groups), all made through the prices service.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../electron/db/open.ts';
import { createCatalogService } from '../electron/catalog/service.ts';
import { createPricesService, type PricesService } from '../electron/prices/service.ts';
import { rng } from '../test/catalog/generate.ts';
import { withCheckDigit } from '../electron/catalog/barcode.ts';

export const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const GROUPS = 20;
const PIBS = ['101134702', '100002288'];

export interface PricesBench {
  db: Db;
  prices: PricesService;
  codes: string[];
  barcodes: string[];
  catalog: ReturnType<typeof createCatalogService>;
  close(): void;
}

export function setUpPrices(): PricesBench {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-prices-'));
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  const catalog = createCatalogService(db);
  const csv = ['Шифра;Назив;Бар-код;Цена;Пореска ознака;Јединица мере;Група;Омиљено'];
  const codes: string[] = [];
  const barcodes: string[] = [];
  for (let i = 0; i < PRODUCTS; i++) {
    const code = `P${i}`;
    const barcode = withCheckDigit(`869${String(i).padStart(9, '0')}`);
    codes.push(code);
    barcodes.push(barcode);
    csv.push(`${code};Артикал ${i};${barcode};${(50 + (i % 900)).toFixed(2)};Ђ;kom;Група ${i % GROUPS};0`);
  }
  const imported = catalog.importCsv(csv.join('\n'), { currentLabels: ['Ђ'] });
  if (imported.imported !== PRODUCTS) throw new Error(`catalog not imported: ${JSON.stringify(imported.errors[0])}`);
  const prices = createPricesService(db, catalog, { audit: () => undefined, now: () => Date.now() });
  const random = rng(11);
  const pick = (n: number): number => Math.floor(random() * n);
  for (let l = 0; l < 20; l++) {
    const kind = l % 4;
    prices.putList({
      name: `Ценовник ${l}`,
      priority: pick(10),
      scope: kind === 0 ? 'buyer' : kind === 1 ? 'chain' : 'shop',
      ...(kind === 0 ? { buyerPib: PIBS[l % 2] as string } : {}),
      ...(kind === 2 ? { fromTime: '16:00', toTime: '18:00' } : {}),
      items: Array.from({ length: 250 }, (_, i) => ({ code: `P${(l * 4999 + i * 397) % PRODUCTS}`, price: 40 })),
      ...(kind === 3 ? { ruleGroup: `Група ${l % GROUPS}`, rulePercent: 10 } : {}),
    });
  }
  const today = new Date().toISOString().slice(0, 10);
  // An „акцијска продаја“ lasts at most 31 days (docs/prices.md): today and the next 30.
  const lastDay = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  for (let p = 0; p < 1000; p++) {
    const onGroup = p % 50 === 0;
    const kind = (['price', 'percent', 'multibuy', 'nth'] as const)[p % 4] ?? 'price';
    prices.putPromotion({
      name: `Акција ${p}`,
      priority: p,
      ...(onGroup ? { group: `Група ${p % GROUPS}` } : { code: `P${(p * 97) % PRODUCTS}` }),
      kind,
      ...(kind === 'price' ? { price: 45 } : {}),
      ...(kind === 'percent' || kind === 'nth' ? { percent: 15 } : {}),
      ...(kind === 'multibuy' ? { buy: 3, pay: 2 } : {}),
      ...(kind === 'nth' ? { nth: 2, percent: 50 } : {}),
      fromDay: today,
      toDay: lastDay,
    });
  }
  return {
    db,
    prices,
    codes,
    barcodes,
    catalog,
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
