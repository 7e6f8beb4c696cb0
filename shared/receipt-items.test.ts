import { describe, expect, it } from 'vitest';
import { exactPieces, exactUnitPrice, itemAmount, lineItems, refundAmount, refundLine } from './receipt-items.ts';

/** Three cups at 100.00 with 1.00 off the line: the discount is shared over the pieces. */
const CUPS = {
  name: 'Шоља',
  quantityMilli: 3000,
  unitPricePara: 10000,
  discountPara: 100,
  totalPara: 29900,
  labels: ['A'],
};

describe('exactPieces', () => {
  it('keeps the list price when it multiplies out', () => {
    expect(exactPieces(501, 4508, 8999)).toEqual([{ quantityMilli: 501, unitPricePara: 8999, totalPara: 4508 }]);
    expect(exactPieces(3000, 30000, 10000)).toEqual([{ quantityMilli: 3000, unitPricePara: 10000, totalPara: 30000 }]);
  });

  it('finds the para price nearest the list price below one unit', () => {
    expect(exactPieces(501, 4509, 8999)).toEqual([{ quantityMilli: 501, unitPricePara: 9000, totalPara: 4509 }]);
    expect(exactPieces(450, 53455, 129900)).toEqual([{ quantityMilli: 450, unitPricePara: 118789, totalPara: 53455 }]);
  });

  it('splits counted lines a para apart: 299,00 for 3 is 2 × 99,67 + 1 × 99,66', () => {
    expect(exactPieces(3000, 29900, 10000)).toEqual([
      { quantityMilli: 2000, unitPricePara: 9967, totalPara: 19934 },
      { quantityMilli: 1000, unitPricePara: 9966, totalPara: 9966 },
    ]);
  });

  it('splits a weighed line above one unit with no exact price into whole units and the fraction', () => {
    // 1,5 × u is 3k (u = 2k) or 3k + 2 (u = 2k + 1, rounded up): 3k + 1 has no price.
    expect(exactUnitPrice(1500, 3001, 2000)).toBeNull();
    const pieces = exactPieces(1500, 3001, 2000);
    expect(pieces).toHaveLength(2);
    expect(pieces.reduce((s, p) => s + p.quantityMilli, 0)).toBe(1500);
    expect(pieces.reduce((s, p) => s + p.totalPara, 0)).toBe(3001);
    for (const p of pieces) expect(itemAmount(p.quantityMilli, p.unitPricePara)).toBe(p.totalPara);
  });

  it('prices a free line at zero and refuses nonsense', () => {
    expect(exactPieces(2000, 0, 500)).toEqual([{ quantityMilli: 2000, unitPricePara: 0, totalPara: 0 }]);
    expect(() => exactPieces(0, 100, 100)).toThrow(RangeError);
    expect(() => exactPieces(1000, -1, 100)).toThrow(RangeError);
  });
});

describe('lineItems', () => {
  it('names the discount share on each item and sends no discount field', () => {
    const items = lineItems({ ...CUPS, gtin: '86000000' });
    expect(items).toEqual([
      {
        name: 'Шоља, попуст 0,66',
        quantity: 2,
        unitPrice: 99.67,
        totalAmount: 199.34,
        labels: ['A'],
        gtin: '86000000',
      },
      { name: 'Шоља, попуст 0,34', quantity: 1, unitPrice: 99.66, totalAmount: 99.66, labels: ['A'], gtin: '86000000' },
    ]);
  });

  it('leaves an undiscounted line as it is', () => {
    expect(
      lineItems({
        name: 'Хлеб',
        quantityMilli: 2000,
        unitPricePara: 8000,
        discountPara: 0,
        totalPara: 16000,
        labels: ['E'],
      }),
    ).toEqual([{ name: 'Хлеб', quantity: 2, unitPrice: 80, totalAmount: 160, labels: ['E'] }]);
  });
});

describe('refundAmount', () => {
  const line = { quantityMilli: 3000, totalPara: 29900 };
  it('is cumulative and the last piece takes the rest', () => {
    expect(refundAmount(line, { quantityMilli: 0, totalPara: 0 }, 1000)).toBe(9967);
    expect(refundAmount(line, { quantityMilli: 1000, totalPara: 9967 }, 1000)).toBe(9966);
    expect(refundAmount(line, { quantityMilli: 2000, totalPara: 19933 }, 1000)).toBe(9967);
  });

  it('refuses more than is left and never goes below zero after an over-refund priced the old way', () => {
    expect(() => refundAmount(line, { quantityMilli: 3000, totalPara: 29900 }, 1)).toThrow(RangeError);
    expect(refundAmount(line, { quantityMilli: 2000, totalPara: 29900 }, 500)).toBe(0);
  });
});

describe('refundLine', () => {
  it('names a share of a real discount, never a para of rounding', () => {
    const cup = CUPS;
    expect(lineItems(refundLine(cup, { quantityMilli: 0, totalPara: 0 }, 1000)).map((i) => i.name)).toEqual([
      'Шоља, попуст 0,33',
    ]);
    // 0,007 kg × 123,45 = 0,86; 0,005 of it refunded is round(0,86 × 5/7) = 0,61, while 0,005 × 123,45 is 0,62.
    const cheese = {
      name: 'Сир',
      quantityMilli: 7,
      unitPricePara: 12345,
      discountPara: 0,
      totalPara: 86,
      labels: ['A'],
    };
    const part = refundLine(cheese, { quantityMilli: 0, totalPara: 0 }, 5);
    expect(part).toMatchObject({ totalPara: 61, discountPara: 0 });
    expect(lineItems(part).map((i) => i.name)).toEqual(['Сир']);
  });
});
