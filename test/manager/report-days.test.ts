/**
 * Report totals per closed day (electron/manager/report-days.ts, migration 011), on real SQLite files:
 * a report built from stored days equals the report summed from every order of the period, also after
 * orders of stored days change or are added (the triggers drop what went stale); a year-long report
 * reads the orders of at most two partial days; the background warm-up stores every closed day once.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../electron/db/open.ts';
import { buildReport } from '../../electron/manager/reports.ts';
import { summarizeOrders, type OrderData } from '../../shared/reports/view.ts';
import { warmReportDays } from '../../electron/manager/report-days.ts';
import type { ReceiptTaxes } from '../../shared/reports/totals.ts';
import { TaxRatesCache } from '../../electron/sales/tax-rates.ts';
import type { ReportView } from '../../shared/contract/reports.ts';
import { buildHistory } from '../support/history.ts';
import { shopHour } from '../../shared/reports/hours.ts';
import { receiptRows } from '../../electron/manager/report-days.ts';
import { receiptsCsv } from '../../shared/reports/receipts.ts';
import { reportCsv } from '../../shared/reports/view.ts';
import type { Language } from '../../shared/domain.ts';
import { reportCsvWords } from '../../shared/i18n/report-csv.ts';
import { tempDatabases } from '../support/temp-db.ts';

const { tmp, db, cleanup } = tempDatabases('kasa-report-days-');
afterEach(() => {
  vi.restoreAllMocks();
  cleanup();
});

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5, 0, 0, 0);
const NOW = T0 + 40 * DAY + 15 * 3_600_000; // day 40, 15:00 UTC
const KINDS = ['sale', 'sale', 'sale', 'refund', 'refund_full', 'finalize', 'copy'] as const;
const TYPES = ['normal', 'normal', 'normal', 'advance', 'training', 'proforma'] as const;
const STATES = ['fiscalized', 'fiscalized', 'queued', 'needs_attention'] as const;
const PAYMENTS = ['cash', 'card', 'voucher', 'wireTransfer'] as const;
const LABELS = [['Ђ'], ['Е'], ['А'], ['Ђ', 'Е']] as const;

interface Spec {
  at: number;
  kind: number;
  type: number;
  state: number;
  cashier: number;
  pay: number;
  label: number;
  para: number;
}
const spec = fc.record({
  at: fc.integer({ min: T0, max: NOW - 1 }),
  kind: fc.nat(KINDS.length - 1),
  type: fc.nat(TYPES.length - 1),
  state: fc.nat(STATES.length - 1),
  cashier: fc.nat(2),
  pay: fc.nat(PAYMENTS.length - 1),
  label: fc.nat(LABELS.length - 1),
  para: fc.integer({ min: 1, max: 500_000 }),
});

function dataOf(s: Spec): OrderData & { cashier?: string; taxGroup?: { groupId: number; validFrom: string } } {
  return {
    lines: [
      {
        name: 'x',
        quantityMilli: 1000,
        unitPricePara: s.para,
        discountPara: 0,
        totalPara: s.para,
        labels: [...(LABELS[s.label] ?? ['Ђ'])],
      },
    ],
    payments: [{ type: PAYMENTS[s.pay] ?? 'cash', amountPara: s.para }],
    ...(s.cashier ? { cashier: s.cashier === 1 ? 'Ана' : 'Марко' } : {}),
    taxGroup: { groupId: 7, validFrom: '2026-01-01T00:00:00.000Z' },
  };
}

/**
 * A fiscalized order's receipt as the gateway states it: one taxItem per label at a rate that
 * depends on the order (two groups, 20 % and 22 % for Ђ), the group that signed it (sometimes not the
 * one at capture), a refund's transactionType; a finalize also has its advance refund.
 */
function receiptOf(s: Spec): { receipt: string | null; extra: string | null } {
  if (STATES[s.state] !== 'fiscalized') return { receipt: null, extra: null };
  const kind = KINDS[s.kind];
  const rate = s.para % 2 === 0 ? 20 : 22;
  const taxItems = [...(LABELS[s.label] ?? ['Ђ'])].map((label) => ({
    label,
    rate: label === 'Ђ' ? rate : 10,
    amount: Math.round((s.para * rate) / (100 + rate)) / 100,
  }));
  const transactionType = kind === 'refund' || kind === 'refund_full' ? 'refund' : 'sale';
  const receipt = JSON.stringify({
    transactionType,
    taxItems,
    additional: { taxGroupRevision: s.para % 3 === 0 ? 8 : 7 },
  });
  const extra =
    kind === 'finalize'
      ? JSON.stringify([{ transactionType: 'refund', taxItems: taxItems.map((t) => ({ ...t, amount: t.amount / 2 })) }])
      : null;
  return { receipt, extra };
}

let seq = 0;
function insert(d: Db, s: Spec): void {
  const { receipt, extra } = receiptOf(s);
  d.prepare(
    `INSERT INTO orders (order_number, kind, invoice_type, transaction_type, state, created_at, total_para, data, receipt, extra_receipts)
     VALUES (?, ?, ?, 'sale', ?, ?, ?, ?, ?, ?)`,
  ).run(
    `R-${++seq}`,
    KINDS[s.kind],
    TYPES[s.type],
    STATES[s.state],
    new Date(s.at).toISOString(),
    s.para,
    JSON.stringify(dataOf(s)),
    receipt,
    extra,
  );
}

function withRates(d: Db): TaxRatesCache {
  d.prepare(
    "INSERT OR REPLACE INTO tax_rates (id, group_id, valid_from, body, fetched_at) VALUES (1, 1, '2024-01-01', ?, '2026-01-01')",
  ).run(
    JSON.stringify([
      { label: 'Ђ', rate: 20, categoryName: 'VAT', categoryType: 0 },
      { label: 'Е', rate: 10, categoryName: 'VAT', categoryType: 0 },
      { label: 'А', rate: 0, categoryName: 'VAT', categoryType: 0 },
    ]),
  );
  return new TaxRatesCache(d);
}

/** The report the old way: every order of the period, summed. */
function direct(d: Db, taxRates: TaxRatesCache, from: string, to: string, cashier?: string): ReportView {
  const rows = d
    .prepare<
      [string, string],
      {
        kind: 'sale';
        invoice_type: string;
        state: string;
        total_para: number;
        data: string;
        receipt: string | null;
        extra_receipts: string | null;
        created_at: string;
      }
    >(
      'SELECT kind, invoice_type, state, total_para, data, receipt, extra_receipts, created_at FROM orders WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id',
    )
    .all(from, to)
    .map((r) => {
      const data = JSON.parse(r.data) as OrderData & { cashier?: string; taxGroup?: { groupId: number } };
      const receipt = r.receipt
        ? (JSON.parse(r.receipt) as ReceiptTaxes & { additional?: { taxGroupRevision?: unknown } })
        : null;
      const extra = r.extra_receipts ? (JSON.parse(r.extra_receipts) as ReceiptTaxes[]) : [];
      const issued = receipt?.additional?.taxGroupRevision;
      return {
        ...r,
        data,
        hour: shopHour(r.created_at),
        cashier: data.cashier ?? '',
        receipts: receipt ? [receipt, ...extra] : [],
        taxGroupChanged:
          r.state === 'fiscalized' && issued !== undefined && String(issued) !== String(data.taxGroup?.groupId),
      };
    })
    .filter((r) => cashier === undefined || r.data.cashier === cashier);
  return summarizeOrders(rows, (l) => taxRates.rateOf(l), { from, to, ...(cashier ? { cashier } : {}) });
}

const sorted = (r: ReportView): ReportView => ({
  ...r,
  byPayment: [...r.byPayment].sort((a, b) => a.type.localeCompare(b.type)),
  byLabel: [...r.byLabel].sort((a, b) => a.label.localeCompare(b.label)),
  byTax: [...r.byTax].sort((a, b) => a.label.localeCompare(b.label) || a.rate - b.rate),
  byCashier: [...r.byCashier].sort((a, b) => a.cashier.localeCompare(b.cashier)),
});

/**
 * A counterexample found by the property (seed 1473818799), kept as a fixed case: Марко's only order is
 * a refund of 0,01 whose taxItem is 0.00, so its VAT is `-1 * 0`. Summed from rows that was -0; read
 * back from the day stored as JSON it was 0, and the two reports differed after the change below made
 * the check read the stored day. A refund's zero VAT is 0 (shared/reports/totals.ts `signed`).
 */
const tiny = (at: number, kind = 0, cashier = 0): Spec => ({
  at,
  kind,
  type: 0,
  state: 0,
  cashier,
  pay: 0,
  label: 0,
  para: 1,
});
const REFUND_OF_ZERO_VAT: [Spec[], [number, number, number][], [number, number, Spec][]] = [
  [...Array.from({ length: 14 }, () => tiny(T0)), tiny(T0 + DAY, 3, 2), ...Array.from({ length: 5 }, () => tiny(T0))],
  [
    [T0 - DAY, 0, 0],
    [T0 - DAY, 0, 0],
    [T0 - DAY, 0, 0],
    [T0 - DAY, 3 * DAY, 2],
  ],
  [[0, 0, tiny(T0)]],
];

describe('report totals per closed day', () => {
  it('equal the sum of every order of the period, for any range and cashier, also after stored days change', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(spec, { minLength: 20, maxLength: 120 }),
        fc.array(
          fc.tuple(fc.integer({ min: T0 - DAY, max: NOW + DAY }), fc.integer({ min: 0, max: 45 * DAY }), fc.nat(2)),
          { minLength: 4, maxLength: 8 },
        ),
        fc.array(fc.tuple(fc.nat(200), fc.nat(STATES.length - 1), spec), { minLength: 1, maxLength: 6 }),
        async (orders, ranges, changes) => {
          const d = db(tmp());
          const taxRates = withRates(d);
          orders.forEach((o) => insert(d, o));
          await warmReportDays(d, NOW);
          const check = (): void => {
            for (const [start, len, c] of ranges) {
              const from = new Date(start).toISOString();
              const to = new Date(start + len).toISOString();
              const cashier = c === 0 ? undefined : c === 1 ? 'Ана' : 'Марко';
              const got = buildReport(d, taxRates, { from, to, ...(cashier ? { cashier } : {}) }, NOW);
              expect(sorted(got)).toEqual(sorted(direct(d, taxRates, from, to, cashier)));
            }
          };
          check();
          // Orders of stored days change state and data, and one is added to a stored day (a clock set
          // back): the stored totals of those days must not be used any more.
          for (const [pick, state, s] of changes) {
            const id = (pick % orders.length) + 1;
            d.prepare('UPDATE orders SET state = ?, data = ?, total_para = ? WHERE id = ?').run(
              STATES[state],
              JSON.stringify(dataOf(s)),
              s.para,
              id,
            );
            insert(d, { ...s, at: T0 + (pick % 40) * DAY + 3_600_000 });
          }
          check();
          d.close();
        },
      ),
      { numRuns: 20, examples: [REFUND_OF_ZERO_VAT] },
    );
  });

  it('a year-long report reads the orders of at most two partial days; the rest are stored days', async () => {
    const d = db(tmp());
    const taxRates = withRates(d);
    await buildHistory(d, { orders: 400, start: T0, end: T0 + 39 * DAY });
    const read: [string, string, number][] = [];
    const prepare = d.prepare.bind(d);
    vi.spyOn(d, 'prepare').mockImplementation(((sql: string) => {
      const st = prepare(sql);
      if (!/FROM orders\s+WHERE created_at >= \?/.test(sql)) return st;
      return new Proxy(st, {
        get(target, prop) {
          const v: unknown = Reflect.get(target, prop, target);
          if (prop === 'all')
            return (...args: unknown[]) => {
              const rows = (v as (...a: unknown[]) => unknown[]).apply(target, args);
              read.push([args[0] as string, args[1] as string, rows.length]);
              return rows;
            };
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    }) as typeof d.prepare);
    expect(await warmReportDays(d, NOW)).toBe(40); // days 0..39 closed; day 40 (today) is not stored
    expect(await warmReportDays(d, NOW)).toBe(0);
    read.length = 0;
    const from = new Date(T0 - 300 * DAY + 7 * 3_600_000).toISOString(); // local-time-like edges: mid-day
    const to = new Date(NOW).toISOString();
    const report = buildReport(d, taxRates, { from, to }, NOW);
    // Two reads of orders: before the first stored day (no orders there) and today (none yet either);
    // the 40 days of history come from report_days.
    expect(read.map((r) => r[2])).toEqual([0, 0]);
    expect(read.at(-1)?.[0]).toBe(new Date(T0 + 40 * DAY).toISOString());
    expect(report.sales.count).toBe(400);
    expect(sorted(report)).toEqual(sorted(direct(d, taxRates, from, to)));
    // A report of today plus part of yesterday: yesterday's part and today read as rows.
    read.length = 0;
    const since = new Date(T0 + 39 * DAY + 3_600_000).toISOString();
    const r2 = buildReport(d, taxRates, { from: since, to }, NOW);
    expect(read).toHaveLength(1); // no whole closed day in it: its orders, read at once
    expect(r2).toEqual(direct(d, taxRates, since, to));
  });

  it('report totals equal the sums of its receipts, and the CSVs add up to what the screen shows', () => {
    /** The amount column of a CSV (para), by its rows' first cell (the section) and second (the key). */
    // Serbian files are separated by `;` with the decimal comma, English ones by `,` with the point.
    let sep = ',';
    const cells = (line: string): string[] =>
      [...line.matchAll(sep === ';' ? /"((?:[^"]|"")*)"|([^;]*)/g : /"((?:[^"]|"")*)"|([^,]*)/g)]
        .filter((m) => m.index === 0 || line[m.index - 1] === sep)
        .map((m) => m[1] ?? m[2] ?? '');
    const para = (x: string | undefined): number => Math.round(Number((x ?? '').replace(',', '.')) * 100);
    fc.assert(
      fc.property(
        fc.array(spec, { minLength: 1, maxLength: 80 }),
        fc.constantFrom<Language>('sr-Cyrl', 'sr-Latn', 'en'),
        (orders, lang) => {
          sep = lang === 'en' ? ',' : ';';
          const d = db(tmp());
          const taxRates = withRates(d);
          orders.forEach((o) => insert(d, o));
          const from = new Date(T0).toISOString();
          const to = new Date(NOW).toISOString();
          const screen = buildReport(d, taxRates, { from, to }, NOW);
          const rows = receiptRows(d, { from, to }, 'К1');
          // Each receipt the report counts, once: its gross, VAT and count add up to the report's.
          expect(rows).toHaveLength(screen.sales.count + screen.advances.count + screen.refunds.count);
          expect(rows.reduce((s, r) => s + r.grossPara, 0)).toBe(screen.grossPara);
          expect(rows.reduce((s, r) => s + r.taxPara, 0)).toBe(screen.taxPara);
          expect(screen.grossPara).toBe(screen.sales.totalPara + screen.advances.totalPara - screen.refunds.totalPara);
          expect(screen.netPara).toBe(screen.grossPara - screen.taxPara);
          expect(screen.byPayment.reduce((s, p) => s + p.netPara, 0)).toBe(screen.grossPara);
          expect(screen.byHour.reduce((s, h) => s + h.grossPara, 0)).toBe(screen.grossPara);
          expect(screen.byCashier.reduce((s, c) => s + c.grossPara, 0)).toBe(screen.grossPara);
          // A refund is negative in the receipts list, as on the screen.
          for (const r of rows) if (r.transactionType === 'refund') expect(r.grossPara).toBeLessThanOrEqual(0);

          // The report's CSV: its sales, advances and refunds rows add up to its gross row, which is the screen's.
          const report = reportCsv(screen, lang).trimEnd().split('\r\n').slice(1).map(cells);
          const sales = report[1];
          const refunds = report[3];
          const gross = report[4];
          expect(para(sales?.[3]) + para(report[2]?.[3]) + para(refunds?.[3])).toBe(screen.grossPara);
          expect(para(refunds?.[3]) + screen.refunds.totalPara).toBe(0); // negative (0 is -0.00 nowhere)
          expect(para(gross?.[3])).toBe(screen.grossPara);
          expect(para(gross?.[4])).toBe(screen.taxPara);
          expect(para(report[5]?.[3])).toBe(screen.netPara);
          const payments = report.filter((c) => c[0] === reportCsvWords(lang).word('payment'));
          expect(payments).toHaveLength(screen.byPayment.length);
          expect(payments.reduce((s, c) => s + para(c[3]), 0)).toBe(screen.grossPara);

          // The receipts CSV: its rows add up to its total line, which is the screen's gross, VAT and net.
          const list = receiptsCsv(rows, lang).trimEnd().split('\r\n').slice(1).map(cells);
          const total = list.at(-1);
          const body = list.slice(0, -1);
          expect(body).toHaveLength(rows.length);
          expect(body.reduce((s, c) => s + para(c[6]), 0)).toBe(screen.grossPara);
          expect(body.reduce((s, c) => s + para(c[7]), 0)).toBe(screen.taxPara);
          expect([para(total?.[6]), para(total?.[7]), para(total?.[8])]).toEqual([
            screen.grossPara,
            screen.taxPara,
            screen.netPara,
          ]);
          d.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
