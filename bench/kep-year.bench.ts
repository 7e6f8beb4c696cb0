/**
 * kep-year: the KEP book of a whole year on an old till (issue 40 part 2), on a real SQLite file: two years of
 * history, 100,000 fiscalized sales a year (each one line of one of 2,000 products, cash or card), a goods receipt
 * a week, a price change record a day and a count a quarter. Figures: the median time of the year's KEP (its
 * entries are per day and payment type, so ~1,500 rows), and of one month's KEP, which must stay flat as history
 * grows (the opening balance is one indexed sum, not a walk through every earlier day).
 *
 * The history is written straight into the ledger's tables (foreign keys off while seeding: the sales' orders are
 * not what is measured).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../electron/db/open.ts';
import { createCatalogService } from '../electron/catalog/service.ts';
import { createGoodsService } from '../electron/goods/service.ts';
import { benchLine, percentile } from './format.ts';

const SALES_PER_YEAR = Number(process.env.BENCH_SALES ?? 100_000);
const RUNS = Number(process.env.BENCH_N ?? 5);
const PRODUCTS = 2000;
const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-kep-'));
try {
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  const goods = createGoodsService(db, createCatalogService(db), {
    rateOf: (label) => (label === 'Ђ' ? 20 : undefined),
    labels: () => ['Ђ'],
    language: () => 'sr-Cyrl',
    audit: () => undefined,
    now: () => new Date('2026-12-31T12:00:00Z'),
  });
  const supplier = goods.putSupplier({ managerPin: '0000', name: 'Велепродаја', pib: '101134702' }, undefined);
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    const move = db.prepare(
      `INSERT INTO stock_movements (product_code, at, day, kind, source, line, qty_milli, price_para, value_para)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const sale = db.prepare(
      'INSERT INTO stock_sales (order_id, day, at, invoice_number, turnover_para, payments) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const receipt = db.prepare(
      `INSERT INTO goods_receipts (id, kind, state, number, year, supplier_id, invoice_number, invoice_date,
         created_at, posted_at, purchase_para, retail_para) VALUES (?, 'receipt', 'posted', ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    );
    const change = db.prepare(
      `INSERT INTO price_changes (number, year, at, day, product_code, name, old_para, new_para, qty_milli, diff_para,
         source) VALUES (?, ?, ?, ?, ?, ?, 10000, 11000, 5000, 5000, 'catalog')`,
    );
    const count = db.prepare(
      "INSERT INTO stock_counts (id, number, year, state, started_at, posted_at) VALUES (?, ?, ?, 'posted', ?, ?)",
    );
    let order = 0;
    let receiptId = 0;
    for (const year of [2025, 2026]) {
      for (let d = 0; d < 365; d++) {
        const date = new Date(Date.UTC(year, 0, 1 + d, 10));
        const day = date.toISOString().slice(0, 10);
        const at = date.toISOString();
        if (d % 7 === 0) {
          receiptId++;
          receipt.run(receiptId, receiptId, year, supplier.id, `F-${receiptId}`, day, at, at, 5_000_000);
          for (let l = 0; l < 50; l++)
            move.run(
              `P${(receiptId * 50 + l) % PRODUCTS}`,
              at,
              day,
              'receipt',
              `receipt:${receiptId}`,
              l,
              10_000,
              10_000,
              100_000,
            );
        }
        change.run(d + 1, year, at, day, `P${d % PRODUCTS}`, `Артикал ${d}`);
        if (d % 91 === 90) {
          const id = year * 10 + Math.floor(d / 91);
          count.run(id, Math.floor(d / 91) + 1, year, at, at);
          for (let l = 0; l < 20; l++)
            move.run(
              `P${l}`,
              at,
              day,
              'count',
              `count:${id}`,
              l,
              l % 2 ? 1000 : -1000,
              10_000,
              l % 2 ? 10_000 : -10_000,
            );
        }
        const perDay = Math.round(SALES_PER_YEAR / 365);
        for (let s = 0; s < perDay; s++) {
          order++;
          const saleAt = new Date(date.getTime() + s * 1000).toISOString();
          const type = s % 3 === 0 ? 'card' : 'cash';
          sale.run(order, day, saleAt, `INV-${order}`, 10_000, JSON.stringify([{ type, amountPara: 10_000 }]));
          move.run(`P${order % PRODUCTS}`, saleAt, day, 'sale', `order:${order}`, 0, -1000, 10_000, -10_000);
        }
      }
    }
  })();
  // The ledger keeps kep_days with each movement; seeded straight, it is filled as the migration fills it.
  db.exec(`DELETE FROM kep_days;
    INSERT INTO kep_days (day, value_para) SELECT day, sum(v) FROM (
      SELECT day, value_para AS v FROM stock_movements UNION ALL SELECT day, diff_para AS v FROM price_changes
    ) GROUP BY day;`);
  db.pragma('foreign_keys = ON');
  const time = (from: string, to: string): number[] => {
    const out: number[] = [];
    for (let r = 0; r <= RUNS; r++) {
      const t0 = performance.now();
      const kep = goods.kep(from, to, false);
      const ms = performance.now() - t0;
      if (kep.entries.length === 0) throw new Error('an empty KEP');
      if (r > 0) out.push(ms); // the first is a warm-up
    }
    return out;
  };
  const year = time('2026-01-01', '2026-12-31');
  const month = time('2026-12-01', '2026-12-31');
  const entries = goods.kep('2026-01-01', '2026-12-31', false).entries.length;
  const movements = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM stock_movements').get()?.n ?? 0;
  process.stderr.write(`kep-year: ${movements} movements over two years; the year's KEP has ${entries} entries\n`);
  console.log(benchLine('kep-year', 'year_p50', percentile(year, 50), 2000, 'ms'));
  console.log(benchLine('kep-year', 'month_after_two_years_p50', percentile(month, 50), 200, 'ms'));
  db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
