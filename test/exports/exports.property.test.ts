/**
 * The bookkeeper's exports over random histories (fast-check) on one core with its real SQLite file and the sandbox
 * gateway over HTTP: sales (one or two tax labels, cash and card), partial refunds, advances, advance refunds, final
 * sales with and without new money, goods receipts and price changes. After each history the period's export
 * (exports.build, today's Belgrade day):
 * - equals the report of the same period to the para: gross, VAT, net, sales, refunds, advances, per payment type
 *   and per label;
 * - equals the fiscal documents: Σ the issued receipts' totals and their taxItems, signed by transaction type (a
 *   final sale's advance refund included), are the export's gross and VAT;
 * - its days add up to its total, its documents to the refunds, advances and final sales;
 * - its journal balances entry by entry and in all, its takings equal the payments, its revenue and VAT accounts
 *   the turnover by rate (the closed advances moved into revenue), its goods account moves with the KEP (receipts
 *   and price changes in, the goods sold out at retail against their VAT, margin and cost of goods sold);
 * - the stock value at the end is Σ stock × retail price and the KEP's closing balance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ExportView } from '../../shared/contract/exports.ts';
import type { ReportView } from '../../shared/contract/reports.ts';
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { SupplierView, KepView } from '../../shared/contract/goods.ts';
import type { OrderView } from '../../shared/domain.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { exportRange } from '../../electron/exports/service.ts';
import { ACCOUNT_KEYS, DEFAULT_ACCOUNTS } from '../../shared/exports/accounts.ts';
import { valueAt } from '../../shared/goods/calc.ts';
import { closeCores, MANAGER_PIN, ok, startCore } from '../support/session.ts';
import { postOneLineReceipt } from '../support/model-receipt.ts';
import { putProduct, refund } from './support.ts';

const managerPin = MANAGER_PIN;
type Core = Awaited<ReturnType<typeof startCore>>;
let c: Core;
let product: ProductView;
let supplier: SupplierView;
let invoice = 0;
const sales: number[] = [];
const advances: number[] = [];
const advanceLines = new Map<number, { name: string; quantity: number; unitPrice: number; labels: string[] }[]>();
const seen = { sale: 0, refund: 0, advance: 0, advanceRefund: 0, finalize: 0, receipt: 0, price: 0 };

beforeAll(async () => {
  c = await startCore();
  supplier = await ok<SupplierView>(c, 'suppliers.put', { managerPin, name: 'Велепродаја', pib: '101134702' });
  product = await putProduct(c, 'P1', 'Брашно', 120, true);
}, 60_000);
afterAll(closeCores);

const money = fc.integer({ min: 1, max: 90_000 }).map((p) => p / 100);
const action = fc.oneof(
  fc.record({
    t: fc.constant('sale' as const),
    price: money,
    quantity: fc.integer({ min: 1, max: 3 }),
    second: fc.option(fc.record({ price: money, label: fc.constantFrom('E', 'F') }), { nil: undefined }),
    card: fc.integer({ min: 0, max: 100 }),
    catalog: fc.boolean(),
  }),
  fc.record({ t: fc.constant('refund' as const), pick: fc.nat() }),
  fc.record({ t: fc.constant('advance' as const), price: money, label: fc.constantFrom('A', 'E'), card: fc.boolean() }),
  fc.record({ t: fc.constant('advanceRefund' as const), pick: fc.nat() }),
  fc.record({ t: fc.constant('finalize' as const), pick: fc.nat(), more: fc.option(money, { nil: undefined }) }),
  fc.record({
    t: fc.constant('receipt' as const),
    quantity: fc.integer({ min: 1, max: 20 }),
    price: fc.integer({ min: 10, max: 200 }),
  }),
  fc.record({ t: fc.constant('price' as const), price: fc.integer({ min: 5_000, max: 30_000 }) }),
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;
/** A history with each kind of document once: a sale and its refund, an advance refunded, one finalized, goods in. */
const EVERY_KIND: Action[] = [
  { t: 'sale', price: 120, quantity: 2, second: { price: 50, label: 'E' }, card: 30, catalog: false },
  { t: 'refund', pick: 0 },
  { t: 'advance', price: 500, label: 'A', card: false },
  { t: 'advanceRefund', pick: 0 },
  { t: 'advance', price: 300, label: 'E', card: true },
  { t: 'finalize', pick: 0, more: 100 },
  { t: 'receipt', quantity: 5, price: 100 },
  { t: 'price', price: 12_000 },
];

const cents = (v: number): number => Math.round(v * 100);

async function apply(a: Action): Promise<void> {
  switch (a.t) {
    case 'sale': {
      const p = (await ok<ProductView[]>(c, 'catalog.byIds', { ids: [product.id] }))[0];
      const first =
        a.catalog && p
          ? { name: p.name, productId: p.id, quantity: a.quantity, unitPrice: p.pricePara / 100, labels: ['A'] }
          : { name: 'Роба', quantity: a.quantity, unitPrice: a.price, labels: ['A'] };
      const lines = [
        first,
        ...(a.second ? [{ name: 'Друго', quantity: 1, unitPrice: a.second.price, labels: [a.second.label] }] : []),
      ];
      const total = lines.reduce((s, l) => s + cents(l.unitPrice) * l.quantity, 0);
      const card = Math.floor((total * a.card) / 100);
      const payments = [
        ...(total - card > 0 ? [{ type: 'cash', amount: (total - card) / 100 }] : []),
        ...(card > 0 ? [{ type: 'card', amount: card / 100 }] : []),
      ];
      const o = await ok<OrderView>(c, 'sales.checkout', { lines, payments });
      expect(o.state).toBe('fiscalized');
      sales.push(o.orderId);
      seen.sale++;
      return;
    }
    case 'refund': {
      const id = sales.length ? sales.splice(a.pick % sales.length, 1)[0] : undefined;
      if (id === undefined) return;
      const r = await refund(c, id);
      expect(r.state).toBe('fiscalized');
      seen.refund++;
      return;
    }
    case 'advance': {
      const lines = [{ name: 'Поруџбина', quantity: 1, unitPrice: a.price, labels: [a.label] }];
      const o = await ok<OrderView>(c, 'sales.checkout', {
        lines,
        payments: [{ type: a.card ? 'card' : 'cash', amount: a.price }],
        invoiceType: 'advance',
      });
      expect(o.state).toBe('fiscalized');
      advances.push(o.orderId);
      advanceLines.set(o.orderId, lines);
      seen.advance++;
      return;
    }
    case 'advanceRefund': {
      const id = advances.length ? advances.splice(a.pick % advances.length, 1)[0] : undefined;
      if (id === undefined) return;
      const r = await refund(c, id, true);
      expect(r.state).toBe('fiscalized');
      seen.advanceRefund++;
      return;
    }
    case 'finalize': {
      const id = advances.length ? advances.splice(a.pick % advances.length, 1)[0] : undefined;
      if (id === undefined) return;
      const lines = advanceLines.get(id) ?? [];
      const input =
        a.more === undefined
          ? { orderId: id }
          : {
              orderId: id,
              lines: [...lines, { name: 'Доплата', quantity: 1, unitPrice: a.more, labels: ['A'] }],
              payments: [{ type: 'card', amount: a.more }],
            };
      const f = await ok<OrderView>(c, 'advances.finalize', input);
      expect(f.state).toBe('fiscalized');
      seen.finalize++;
      return;
    }
    case 'receipt': {
      await postOneLineReceipt(c, supplier.id, `F-${++invoice}`, { code: 'P1', quantity: a.quantity, price: a.price });
      seen.receipt++;
      return;
    }
    case 'price':
      await putProduct(c, 'P1', product.name, a.price / 100);
      seen.price++;
      return;
  }
}

interface Receipt {
  transactionType?: string;
  totalAmount?: number;
  taxItems?: { amount?: number }[];
}

/** Σ the issued receipts (their totals and VAT) of the period, signed by transaction type, training excluded. */
function fiscalDocuments(from: string, to: string): { grossPara: number; taxPara: number } {
  let grossPara = 0;
  let taxPara = 0;
  const rows = c.db
    .prepare<[string, string], { receipt: string; extra: string | null }>(
      `SELECT receipt, extra_receipts AS extra FROM orders
        WHERE state = 'fiscalized' AND invoice_type IN ('normal', 'advance') AND kind != 'copy'
          AND created_at >= ? AND created_at < ?`,
    )
    .all(from, to);
  for (const r of rows) {
    const receipts = [JSON.parse(r.receipt) as Receipt, ...((r.extra ? JSON.parse(r.extra) : []) as Receipt[])];
    for (const x of receipts) {
      const sign = x.transactionType?.toLowerCase() === 'refund' ? -1 : 1;
      grossPara += sign * Math.round((x.totalAmount ?? 0) * 100);
      for (const t of x.taxItems ?? []) taxPara += sign * Math.round((t.amount ?? 0) * 100);
    }
  }
  return { grossPara, taxPara };
}

const sum = <T>(list: readonly T[], f: (x: T) => number): number => list.reduce((s, x) => s + f(x), 0) + 0;

async function check(): Promise<void> {
  const today = dayIn(new Date());
  const view = await ok<ExportView>(c, 'exports.build', { managerPin, from: today, to: today });
  const range = exportRange(today, today);
  const report = await ok<ReportView>(c, 'reports.summary', range);
  // The report, to the para.
  for (const k of [
    'grossPara',
    'taxPara',
    'netPara',
    'sales',
    'refunds',
    'advances',
    'byPayment',
    'byLabel',
    'byTax',
  ] as const)
    expect(view.total[k], k).toEqual(report[k]);
  // The fiscal documents, to the para.
  const fiscal = fiscalDocuments(range.from, range.to);
  expect(view.total.notFiscalized).toBe(0);
  expect(view.total.grossPara).toBe(fiscal.grossPara);
  expect(view.total.taxPara).toBe(fiscal.taxPara);
  // The days add up to the total; the documents to the refunds, advances and final sales.
  expect(sum(view.days, (d) => d.grossPara)).toBe(view.total.grossPara);
  expect(sum(view.days, (d) => d.taxPara)).toBe(view.total.taxPara);
  expect(sum(view.days, (d) => sum(d.byLabel, (l) => l.grossPara))).toBe(view.total.grossPara);
  expect(
    sum(
      view.documents.filter((d) => d.transactionType === 'refund'),
      (d) => -d.grossPara,
    ),
  ).toBe(view.total.refunds.totalPara);
  expect(view.documents.filter((d) => d.transactionType === 'refund').length).toBe(view.total.refunds.count);
  expect(
    sum(
      view.documents.filter((d) => d.invoiceType === 'advance' && d.transactionType === 'sale'),
      (d) => d.grossPara,
    ),
  ).toBe(view.total.advances.totalPara);
  // The journal balances, entry by entry and in all.
  const entries = new Map<number, number>();
  for (const p of view.journal) {
    expect(p.debitPara === 0 || p.creditPara === 0).toBe(true);
    entries.set(p.entry, (entries.get(p.entry) ?? 0) + p.debitPara - p.creditPara);
  }
  for (const [entry, balance] of entries)
    expect(
      balance,
      `entry ${entry}: ${JSON.stringify(view.journal.filter((p) => p.entry === entry))} ${JSON.stringify(view.total)}`,
    ).toBe(0);
  expect(view.journalTotals.debitPara).toBe(view.journalTotals.creditPara);
  const on = (account: string): number =>
    sum(
      view.journal.filter((p) => p.account === account),
      (p) => p.debitPara - p.creditPara,
    );
  // Takings = the payments; revenue + VAT + advances = the turnover; goods in retail = the KEP's receipts and
  // price changes.
  const takings = sum(view.total.byPayment, (p) => p.netPara);
  expect(on(DEFAULT_ACCOUNTS.cash) + on(DEFAULT_ACCOUNTS.cards)).toBe(takings);
  expect(takings).toBe(view.total.grossPara);
  // Every revenue, VAT and advance account is credited with the turnover.
  const credit = ACCOUNT_KEYS.filter((k) => /^(revenue|vat|advance)/.test(k));
  expect(0 - sum([...new Set(credit.map((k) => DEFAULT_ACCOUNTS[k]))], on)).toBe(view.total.grossPara);
  expect(
    0 -
      sum(
        [
          ...new Set(
            (['vatGeneral', 'vatSpecial', 'advanceVatGeneral', 'advanceVatSpecial'] as const).map(
              (k) => DEFAULT_ACCOUNTS[k],
            ),
          ),
        ],
        on,
      ),
  ).toBe(view.total.taxPara);
  // The advances account holds what the buyers paid in advance and no final sale closed yet: the advance receipts
  // less their refunds less the final sales' advance refunds (АР).
  const open = c.db
    .prepare<[string, string], { v: number | null }>(
      `SELECT sum(CASE WHEN kind = 'finalize' THEN -(SELECT sum(json_extract(e.value, '$.totalAmount') * 100)
                                                    FROM json_each(extra_receipts) e)
                       WHEN kind LIKE 'refund%' THEN -total_para ELSE total_para END) AS v
         FROM orders WHERE (invoice_type = 'advance' OR kind = 'finalize') AND created_at >= ? AND created_at < ?`,
    )
    .get(range.from, range.to)?.v;
  const advanceAccounts = [
    ...new Set((['advances', 'advanceVatGeneral', 'advanceVatSpecial'] as const).map((k) => DEFAULT_ACCOUNTS[k])),
  ];
  // `+ 0`: a balance of nothing is 0, not the -0 that rounding a float sum's -1e-13 gives (toBe tells them apart).
  expect(0 - sum(advanceAccounts, on) + 0).toBe(Math.round(open ?? 0) + 0);
  const kep = await ok<KepView>(c, 'goods.kep', { from: today, to: today });
  const kepGoods = kep.entries.filter((e) => /Пријемница|Нивелација|Сторно/i.test(e.description));
  expect(sum(kepGoods, (e) => e.debitPara - e.creditPara)).toBe(
    sum(view.goodsReceipts, (r) => r.retailPara) + sum(view.priceChanges, (p) => p.diffPara),
  );
  // Goods in retail moves with the KEP: receipts and price changes in, the goods sold (at retail, against their
  // VAT, margin and purchase value) out.
  expect(on(DEFAULT_ACCOUNTS.goodsRetail)).toBe(kep.closingPara - kep.openingPara);
  // The stock value at the end.
  const stock = c.db
    .prepare<[], { qty: number; price: number }>('SELECT qty_milli AS qty, price_para AS price FROM stock')
    .all();
  expect(view.stockValuePara).toBe(sum(stock, (s) => valueAt(s.qty, s.price)));
  expect(view.stockValuePara).toBe(kep.closingPara);
}

describe('exports over random histories', () => {
  it('equal the report and the fiscal documents to the para, and the journal balances', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 3, maxLength: 10 }), async (actions) => {
        for (const a of actions) await apply(a);
        await check();
      }),
      // One history of every kind first, so the kinds below are seen whatever the random ones hold (eight random
      // histories of 3 to 10 steps missed a kind now and then: a run that tested less, failed as a test).
      { numRuns: 8, examples: [[EVERY_KIND]] },
    );
    // The histories did hold every kind of document.
    expect(
      Object.values(seen).every((n) => n > 0),
      JSON.stringify(seen),
    ).toBe(true);
  }, 300_000);
});
