/**
 * exports: a year's exports for the bookkeeper at the till (issue 41, "Speed and load"), on a real SQLite file: a
 * shop with 300,000 orders in the year (sales of one or two lines at 20 % and 10 %, cash or card; one in twenty a
 * refund, one in a hundred an advance, one in two hundred a final sale), a goods receipt a week and a price change a
 * day in the goods ledger. Figure: the median time of `exports.build` for the year plus its journal and Minimax
 * files (the view, the journal's CSV, the Minimax CSV), limit 5 s.
 *
 * The history is written straight into the tables (foreign keys off while seeding): what is measured is the export.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../electron/db/open.ts';
import { createCatalogService } from '../electron/catalog/service.ts';
import { createGoodsService } from '../electron/goods/service.ts';
import { createExportService } from '../electron/exports/service.ts';
import { exportFile } from '../shared/node/export-files.ts';
import { DEFAULT_ACCOUNTS } from '../shared/exports/accounts.ts';
import { benchLine, percentile } from './format.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 300_000);
const RUNS = Number(process.env.BENCH_N ?? 3);
const LIMIT_MS = 5_000;
const YEAR = 2026;
const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-exports-'));
try {
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  const rates: Record<string, number> = { Ђ: 20, Е: 10 };
  const goods = createGoodsService(db, createCatalogService(db), {
    rateOf: (label) => rates[label],
    labels: () => Object.keys(rates),
    language: () => 'sr-Cyrl',
    audit: () => undefined,
    now: () => new Date(`${YEAR}-12-31T12:00:00Z`),
  });
  const supplier = goods.putSupplier({ managerPin: '0000', name: 'Велепродаја', pib: '101134702' }, undefined);
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    const order = db.prepare(
      `INSERT INTO orders (id, order_number, kind, invoice_type, transaction_type, state, created_at, total_para, data,
         invoice_number, receipt, extra_receipts) VALUES (?, ?, ?, ?, ?, 'fiscalized', ?, ?, ?, ?, ?, ?)`,
    );
    const sale = db.prepare(
      'INSERT INTO stock_sales (order_id, day, at, invoice_number, turnover_para, payments) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const move = db.prepare(
      `INSERT INTO stock_movements (product_code, at, day, kind, source, line, qty_milli, price_para, value_para)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const receipt = db.prepare(
      `INSERT INTO goods_receipts (id, kind, state, number, year, supplier_id, invoice_number, invoice_date,
         created_at, posted_at, purchase_para, retail_para) VALUES (?, 'receipt', 'posted', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const receiptLine = db.prepare(
      `INSERT INTO goods_receipt_lines (receipt_id, line, product_code, name, label, qty_milli, purchase_para,
         discount_bp, margin_bp, retail_para) VALUES (?, ?, ?, 'Артикал', ?, 10000, 8000, 0, 2500, 12000)`,
    );
    const change = db.prepare(
      `INSERT INTO price_changes (number, year, at, day, product_code, name, old_para, new_para, qty_milli, diff_para,
         source) VALUES (?, ?, ?, ?, ?, 'Артикал', 12000, 13000, 5000, 5000, 'catalog')`,
    );
    const perDay = ORDERS / 365;
    const step = 86_400_000 / perDay;
    const start = Date.UTC(YEAR, 0, 1, 6);
    for (let i = 1; i <= ORDERS; i++) {
      const at = new Date(start + i * step * 0.5 + Math.floor(i / perDay) * 43_200_000).toISOString();
      const day = at.slice(0, 10);
      const two = i % 3 === 0;
      const gross = two ? 36_000 : 24_000;
      const tax = two ? 4_000 + 1_091 : 4_000;
      const kind = i % 200 === 0 ? 'finalize' : i % 20 === 0 ? 'refund' : 'sale';
      const invoiceType = i % 100 === 0 ? 'advance' : 'normal';
      const pay = i % 2 ? 'cash' : 'card';
      const lines = [
        { name: 'A', quantityMilli: 1000, unitPricePara: 24_000, discountPara: 0, totalPara: 24_000, labels: ['Ђ'] },
        ...(two
          ? [
              {
                name: 'B',
                quantityMilli: 1000,
                unitPricePara: 12_000,
                discountPara: 0,
                totalPara: 12_000,
                labels: ['Е'],
              },
            ]
          : []),
      ];
      const paid = kind === 'finalize' ? gross - 10_000 : gross;
      const taxItems = [
        { label: 'Ђ', rate: 20, amount: 40 },
        ...(two ? [{ label: 'Е', rate: 10, amount: 10.91 }] : []),
      ];
      const tx = kind === 'refund' ? 'Refund' : 'Sale';
      order.run(
        i,
        `B-${i}`,
        kind,
        invoiceType,
        kind === 'refund' ? 'refund' : 'sale',
        at,
        gross,
        JSON.stringify({ lines, payments: [{ type: pay, amountPara: paid }] }),
        `INV-${i}`,
        JSON.stringify({ transactionType: tx, totalAmount: gross / 100, taxItems }),
        kind === 'finalize'
          ? JSON.stringify([
              { transactionType: 'Refund', totalAmount: 100, taxItems: [{ label: 'Ђ', rate: 20, amount: 16.67 }] },
            ])
          : null,
      );
      void tax;
      if (invoiceType === 'normal') {
        const sign = kind === 'refund' ? -1 : 1;
        sale.run(i, day, at, `INV-${i}`, sign * paid, JSON.stringify([{ type: pay, amountPara: sign * paid }]));
        move.run(
          `P${i % 2000}`,
          at,
          day,
          kind === 'refund' ? 'refund' : 'sale',
          `order:${i}`,
          0,
          -sign * 1000,
          24_000,
          -sign * 24_000,
        );
      }
    }
    for (let d = 0; d < 365; d++) {
      const date = new Date(Date.UTC(YEAR, 0, 1 + d, 9));
      const day = date.toISOString().slice(0, 10);
      const at = date.toISOString();
      if (d % 7 === 0) {
        const id = d / 7 + 1;
        receipt.run(id, id, YEAR, supplier.id, `F-${id}`, day, at, at, 400_000, 600_000);
        for (let l = 0; l < 50; l++) {
          receiptLine.run(id, l, `P${(id * 50 + l) % 2000}`, l % 2 ? 'Ђ' : 'Е');
          move.run(`P${(id * 50 + l) % 2000}`, at, day, 'receipt', `receipt:${id}`, l, 10_000, 12_000, 120_000);
        }
      }
      change.run(d + 1, YEAR, at, day, `P${d % 2000}`);
    }
  })();
  db.exec(`DELETE FROM kep_days;
    INSERT INTO kep_days (day, value_para) SELECT day, sum(v) FROM (
      SELECT day, value_para AS v FROM stock_movements UNION ALL SELECT day, diff_para AS v FROM price_changes
    ) GROUP BY day;`);
  db.pragma('foreign_keys = ON');
  const exports = createExportService(db, goods, {
    rateOf: (label) => rates[label],
    language: () => 'sr-Cyrl',
    accounts: () => DEFAULT_ACCOUNTS,
    till: () => 'BENCH',
    // In the next year: every day of the year is closed, its sums kept by the first (warm-up) run.
    now: () => Date.UTC(YEAR + 1, 0, 15, 12),
  });
  const deps = {
    language: () => 'sr-Cyrl' as const,
    accounts: () => DEFAULT_ACCOUNTS,
    shop: () => ({ name: 'Продавница', pib: '101134702', address: 'Београд' }),
    now: () => new Date(),
  };
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let r = 0; r <= RUNS; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const view = exports.build(`${YEAR}-01-01`, `${YEAR}-12-31`);
    await exportFile(view, 'journal', deps);
    await exportFile(view, 'minimax', deps);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
    if (view.total.sales.count + view.total.refunds.count < ORDERS * 0.9) throw new Error('the year was not read');
    if (view.journalTotals.debitPara !== view.journalTotals.creditPara) throw new Error('the journal does not balance');
    if (r > 0) times.push(ms); // the first is a warm-up
    process.stderr.write(
      `run ${r}: ${Math.round(ms)} ms (CPU ${Math.round(cpuTimes.at(-1) ?? 0)} ms), ${view.days.length} days, ${view.journal.length} postings\n`,
    );
  }
  console.log(benchLine('exports', 'year_300k_orders_median', percentile(times, 50), LIMIT_MS, 'ms'));
  db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
