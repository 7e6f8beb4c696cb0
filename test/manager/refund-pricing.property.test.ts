/**
 * Property: random lines (weighed and counted, with and without discounts) refunded in
 * random partial steps until nothing is left. The refunds of each line sum to the line's total to the
 * para, no refund is negative, and every item sent (the sale's and each refund's) multiplies out,
 * checked by the test's own integer arithmetic and by the sandbox's PFR check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderLine } from '../../shared/domain.ts';
import { refundLine, receiptItems, type ReceiptItem } from '../../shared/receipt-items.ts';
import { refundedPerLine, type RefundOfLine } from '../../electron/manager/orders.ts';
import { itemArithmeticError } from '../../electron/sandbox/item-arithmetic.ts';

/** round(q × u) to the para, halves up, in integers: the test's own arithmetic. */
function multipliesOut(i: ReceiptItem): boolean {
  const q = Math.round(i.quantity * 1000);
  const u = Math.round(i.unitPrice * 100);
  const t = Math.round(i.totalAmount * 100);
  return q > 0 && u >= 0 && t >= 0 && Math.floor((q * u + 500) / 1000) === t;
}

const itemsPara = (items: ReceiptItem[]) => items.reduce((s, i) => s + Math.round(i.totalAmount * 100), 0);

/** A line as the till prices it: round(u × q) less a discount of at most the line. */
const lineArb = fc
  .record({
    weighed: fc.boolean(),
    pieces: fc.integer({ min: 1, max: 24 }),
    milli: fc.integer({ min: 1, max: 12_000 }),
    unitPricePara: fc.oneof(fc.integer({ min: 1, max: 2_000 }), fc.integer({ min: 1, max: 2_000_000 })),
    discountShare: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1000 })),
  })
  .map(({ weighed, pieces, milli, unitPricePara, discountShare }): { line: OrderLine; weighed: boolean } => {
    const quantityMilli = weighed ? milli : pieces * 1000;
    const gross = Math.floor((unitPricePara * quantityMilli + 500) / 1000);
    const discountPara = Math.floor((gross * discountShare) / 1000);
    return {
      weighed,
      line: {
        name: 'Артикал',
        quantityMilli,
        unitPricePara,
        discountPara,
        totalPara: gross - discountPara,
        labels: ['A'],
      },
    };
  });

/** Splits `total` thousandths into random positive steps (whole pieces for counted lines). */
function stepsArb(total: number, weighed: boolean): fc.Arbitrary<number[]> {
  const unit = weighed ? 1 : 1000;
  const n = total / unit;
  return fc.array(fc.integer({ min: 1, max: n }), { minLength: 0, maxLength: Math.min(n - 1, 8) }).map((cuts) => {
    const points = [...new Set(cuts.filter((c) => c < n))].sort((a, b) => a - b);
    const out: number[] = [];
    let prev = 0;
    for (const p of [...points, n]) {
      out.push((p - prev) * unit);
      prev = p;
    }
    return out;
  });
}

const caseArb = fc
  .array(lineArb, { minLength: 1, maxLength: 3 })
  .chain((lines) =>
    fc.tuple(
      fc.constant(lines.map((l) => l.line)),
      fc.tuple(...lines.map((l) => stepsArb(l.line.quantityMilli, l.weighed))),
      fc.integer({ min: 0, max: 1_000_000 }),
    ),
  );

describe('#21 property: partial refunds until nothing is left', () => {
  it('refunds sum to the line totals to the para, and every item sent multiplies out', () => {
    fc.assert(
      fc.property(caseArb, ([sold, steps, seed]) => {
        // The sale's items.
        const saleItems = receiptItems(sold);
        for (const i of saleItems) {
          expect(multipliesOut(i), JSON.stringify(i)).toBe(true);
          expect(itemArithmeticError(i)).toBeNull();
        }
        expect(itemsPara(saleItems)).toBe(sold.reduce((s, l) => s + l.totalPara, 0));
        // Refunds: each takes the next step of some lines (interleaved by the seed), priced like orders.ts does.
        const queues = steps.map((s) => [...s]);
        const stored: { lines: RefundOfLine[]; full: boolean }[] = [];
        let turn = seed;
        while (queues.some((q) => q.length > 0)) {
          const refundOf: RefundOfLine[] = [];
          const lines: OrderLine[] = [];
          const earlier = refundedPerLine(sold, stored);
          queues.forEach((q, index) => {
            turn = (turn * 1103515245 + 12345) % 2147483648;
            const take =
              q.length > 0 &&
              (turn % 3 !== 0 ||
                (refundOf.length === 0 && index === queues.length - 1) ||
                queues.every((o, j) => j === index || o.length === 0));
            if (!take) return;
            const quantityMilli = q.shift() as number;
            const line = refundLine(
              sold[index] as OrderLine,
              earlier[index] as { quantityMilli: number; totalPara: number },
              quantityMilli,
            );
            expect(line.totalPara).toBeGreaterThanOrEqual(0);
            lines.push(line);
            refundOf.push({ index, quantityMilli, totalPara: line.totalPara });
          });
          if (lines.length === 0) continue;
          const items = receiptItems(lines);
          for (const i of items) {
            expect(multipliesOut(i), JSON.stringify(i)).toBe(true);
            expect(itemArithmeticError(i)).toBeNull();
          }
          expect(itemsPara(items)).toBe(lines.reduce((s, l) => s + l.totalPara, 0));
          stored.push({ lines: refundOf, full: false });
        }
        const after = refundedPerLine(sold, stored);
        after.forEach((a, index) => {
          expect(a.quantityMilli).toBe(sold[index]?.quantityMilli);
          expect(a.totalPara).toBe(sold[index]?.totalPara);
        });
      }),
      { numRuns: 1500 },
    );
  });
});
