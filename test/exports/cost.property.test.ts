/**
 * The posting journal at purchase value over random goods histories (fast-check, pure): goods receipts at random
 * purchase prices, their reversals, sales, refunds, write-offs and stock-taking differences of two products on two
 * tax labels over several days, the period starting mid-way. The ledger's movements are made as the ledger makes
 * them (each movement's value is the change of its product's rounded retail value); the test keeps its own weighted
 * average purchase price per product (docs/exports.md, "The purchase value"). Then:
 * - every journal entry balances, debit = credit;
 * - the purchase value posted (cost of goods sold, write-offs, shortages less surpluses) is Σ the period's movements
 *   × their purchase price, to the para, and each account holds its own kind's;
 * - goods in retail is credited with the retail value the movements took out (the KEP's credit less debit).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { costMovements, goodsOutOf, type LedgerMovement } from '../../shared/exports/cost.ts';
import { buildJournal } from '../../shared/exports/journal.ts';
import { DEFAULT_ACCOUNTS } from '../../shared/exports/accounts.ts';
import { valueAt } from '../../shared/goods/calc.ts';
import type { Posting } from '../../shared/contract/exports.ts';

const PRODUCTS = [
  { code: 'P1', label: 'Ђ', retail: 24_990 },
  { code: 'P2', label: 'Е', retail: 1_333 },
];
const RATES: Record<string, number> = { Ђ: 20, Е: 10 };
const rateOf = (label: string): number => RATES[label] ?? 0;
const DAYS = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04'];

const step = fc.record({
  t: fc.constantFrom('receipt', 'reversal', 'sale', 'refund', 'writeoff', 'count'),
  product: fc.integer({ min: 0, max: 1 }),
  qty: fc.integer({ min: 1, max: 20_000 }),
  price: fc.integer({ min: 1, max: 50_000 }),
  up: fc.boolean(),
  pick: fc.nat(),
  day: fc.integer({ min: 0, max: DAYS.length - 1 }),
});
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** The history's movements as the ledger writes them, and the purchase price the test expects for each. */
function history(steps: readonly Step[]) {
  const held = new Map<string, number>();
  const avg = new Map<string, number>();
  const receipts: { code: string; qty: number; price: number; reversed: boolean }[] = [];
  const movements: (LedgerMovement & { expected: number })[] = [];
  let doc = 0;
  const sorted = [...steps].sort((a, b) => a.day - b.day);
  for (const s of sorted) {
    const p = PRODUCTS[s.product] ?? PRODUCTS[0]!;
    const before = held.get(p.code) ?? 0;
    const push = (kind: string, qty: number, expected: number, line?: number): void => {
      held.set(p.code, before + qty);
      movements.push({
        code: p.code,
        kind,
        qtyMilli: qty,
        day: DAYS[s.day]!,
        source: `${kind}:${++doc}`,
        valuePara: valueAt(before + qty, p.retail) - valueAt(before, p.retail),
        label: p.label,
        linePurchasePara: line,
        expected,
      });
    };
    const a = avg.get(p.code) ?? 0;
    if (s.t === 'receipt') {
      avg.set(
        p.code,
        before <= 0 || !avg.has(p.code) ? s.price : Math.round((before * a + s.qty * s.price) / (before + s.qty)),
      );
      receipts.push({ code: p.code, qty: s.qty, price: s.price, reversed: false });
      push('receipt', s.qty, s.price, s.price);
    } else if (s.t === 'reversal') {
      const r = receipts.filter((x) => x.code === p.code && !x.reversed)[s.pick % 7];
      if (!r) continue;
      r.reversed = true;
      const left = before - r.qty;
      if (left > 0 && avg.has(p.code)) avg.set(p.code, Math.max(0, Math.round((before * a - r.qty * r.price) / left)));
      push('reversal', -r.qty, r.price, r.price);
    } else {
      const sign = s.t === 'refund' || (s.t === 'count' && s.up) ? 1 : -1;
      push(s.t, sign * s.qty, a);
    }
  }
  return movements;
}

const balanceOn = (journal: readonly Posting[], account: string): number =>
  journal.filter((p) => p.account === account).reduce((s, p) => s + p.debitPara - p.creditPara, 0) + 0; // + 0: never -0

describe('the journal at purchase value', () => {
  it('balances per document and posts Σ movements × their purchase price to the para', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 3 }), (steps, start) => {
        const movements = history(steps);
        const from = DAYS[start]!;
        const costed = costMovements(movements);
        // The average the test kept is the price each movement went at.
        for (const m of costed) expect(m.unitPara, JSON.stringify(m)).toBe(m.expected);
        const journal = buildJournal(
          { days: [], receipts: [], priceChanges: [], goodsOut: goodsOutOf(costed, from, () => undefined, rateOf) },
          DEFAULT_ACCOUNTS,
          'sr-Cyrl',
        );
        const entries = new Map<number, number>();
        for (const p of journal) entries.set(p.entry, (entries.get(p.entry) ?? 0) + p.debitPara - p.creditPara);
        for (const [entry, balance] of entries) expect(balance, `entry ${entry}`).toBe(0);

        const inPeriod = movements.filter((m) => m.day >= from);
        const purchaseOut = (kinds: string[], sign?: 1 | -1): number =>
          inPeriod
            .filter((m) => kinds.includes(m.kind) && (sign === undefined || Math.sign(m.qtyMilli) === sign))
            .reduce((s, m) => s - valueAt(m.qtyMilli, m.expected), 0) + 0;
        expect(balanceOn(journal, DEFAULT_ACCOUNTS.costOfGoods)).toBe(purchaseOut(['sale', 'refund']));
        expect(balanceOn(journal, DEFAULT_ACCOUNTS.writeOffs)).toBe(purchaseOut(['writeoff']));
        expect(balanceOn(journal, DEFAULT_ACCOUNTS.shortages)).toBe(purchaseOut(['count'], -1));
        expect(balanceOn(journal, DEFAULT_ACCOUNTS.surpluses)).toBe(purchaseOut(['count'], 1));
        const retailOut =
          inPeriod
            .filter((m) => ['sale', 'refund', 'writeoff', 'count'].includes(m.kind))
            .reduce((s, m) => s - m.valuePara, 0) + 0;
        expect(0 - balanceOn(journal, DEFAULT_ACCOUNTS.goodsRetail)).toBe(retailOut);
      }),
      { numRuns: 300 },
    );
  });

  it('prices a sale at the weighted average of the receipts before it', () => {
    const m = (kind: string, qty: number, price?: number): LedgerMovement => ({
      code: 'P1',
      kind,
      qtyMilli: qty,
      day: '2026-11-02',
      source: `${kind}:1`,
      valuePara: -valueAt(-qty, 24_000),
      label: 'Ђ',
      linePurchasePara: price,
    });
    // 10 at 100,00 and 10 at 200,00: 5 sold at 150,00 = 750,00 of cost of goods sold.
    const costed = costMovements([m('receipt', 10_000, 10_000), m('receipt', 10_000, 20_000), m('sale', -5_000)]);
    expect(costed.map((c) => c.unitPara)).toEqual([10_000, 20_000, 15_000]);
    const journal = buildJournal(
      {
        days: [],
        receipts: [],
        priceChanges: [],
        goodsOut: goodsOutOf(costed, '2026-11-01', () => undefined, rateOf),
      },
      DEFAULT_ACCOUNTS,
      'sr-Cyrl',
    );
    // Only the sale is goods out: 5 at 240,00 = 1 200,00 at retail, VAT 200,00, cost 750,00, margin 250,00.
    expect(journal.map((p) => [p.account, p.debitPara, p.creditPara])).toEqual([
      ['1340', 0, 120_000],
      ['1347', 20_000, 0],
      ['1349', 25_000, 0],
      ['5010', 75_000, 0],
    ]);
    expect(journal[0]?.document).toBe('Раздужење продавнице 02.11.2026.');
  });
});
