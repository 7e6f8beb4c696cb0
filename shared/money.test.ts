import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatQuantity,
  formatRsd,
  includedTax,
  lineTotal,
  paraToDecimal,
  parseQuantityInput,
  parseRsdInput,
  toMilli,
  toPara,
} from './money.ts';

describe('money', () => {
  it.each([
    [12.34, 1234],
    ['0.10', 10],
    [0.1 + 0.2, 30],
    [1.005, null],
    [-5.5, -550],
    [Number.NaN, null],
  ])('converts %s to %s para exactly, and refuses a third decimal (null)', (value, para) => {
    expect(toPara(value)).toBe(para);
  });

  it('round-trips every para amount through the gateway decimal', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (p) => toPara(paraToDecimal(p)) === p));
  });

  it('converts quantities to thousandths', () => {
    expect(toMilli(1)).toBe(1000);
    expect(toMilli(0.25)).toBe(250);
    expect(toMilli(1.2345)).toBeNull();
  });

  it('computes line totals with half-up rounding and discount', () => {
    expect(lineTotal(19999, 1000)).toBe(19999);
    expect(lineTotal(12999, 333)).toBe(4329); // 43.28667 -> 43.29
    expect(lineTotal(100, 5, 0)).toBe(1); // 0.5 para rounds up
    expect(lineTotal(10000, 2000, 500)).toBe(19500);
  });

  it('computes VAT included in a price', () => {
    expect(includedTax(12000, 20)).toBe(2000);
    expect(includedTax(11000, 10)).toBe(1000);
    expect(includedTax(10050, 0.5)).toBe(50);
    expect(includedTax(5000, 0)).toBe(0);
  });

  it('formats RSD and quantities the Serbian way', () => {
    expect(formatRsd(123456)).toBe('1.234,56');
    expect(formatRsd(5)).toBe('0,05');
    expect(formatRsd(-100000000)).toBe('-1.000.000,00');
    expect(formatQuantity(1000)).toBe('1');
    expect(formatQuantity(1250)).toBe('1,25');
    expect(formatQuantity(333)).toBe('0,333');
  });

  it('parses what a cashier types', () => {
    const typed = { '1.234,56': 123456, '1234.56': 123456, '12': 1200 };
    for (const [text, para] of Object.entries(typed)) expect(parseRsdInput(text), text).toBe(para);
    for (const text of ['12,345', 'abc']) expect(parseRsdInput(text), text).toBeNull();
    expect(parseQuantityInput('0,250')).toBe(250);
    expect(parseQuantityInput('')).toBeNull();
  });
});
