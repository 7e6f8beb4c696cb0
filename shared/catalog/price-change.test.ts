import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changePriceByPercent, MAX_PERCENT_BP, MIN_PERCENT_BP } from './price-change.ts';

describe('changePriceByPercent', () => {
  it('raises by 5 % to whole para, halves up', () => {
    expect(changePriceByPercent(10_000, 500)).toBe(10_500);
    expect(changePriceByPercent(9_999, 500)).toBe(10_499); // 10498.95
    expect(changePriceByPercent(10, 500)).toBe(11); // 10.5 rounds up
    expect(changePriceByPercent(12_990, -1_250)).toBe(11_366); // 11366.25
  });
  it('rounds to whole dinars when asked', () => {
    expect(changePriceByPercent(12_990, 500, 'dinar')).toBe(13_600); // 136.395 din
    expect(changePriceByPercent(14_950, 0, 'dinar')).toBe(15_000);
  });
  it('-100 % makes a price zero, and out-of-range input is refused', () => {
    expect(changePriceByPercent(12_345, MIN_PERCENT_BP)).toBe(0);
    expect(() => changePriceByPercent(100, MIN_PERCENT_BP - 1)).toThrow('percent');
    expect(() => changePriceByPercent(100, MAX_PERCENT_BP + 1)).toThrow('percent');
    expect(() => changePriceByPercent(-1, 500)).toThrow('price');
    expect(() => changePriceByPercent(1.5, 500)).toThrow('price');
  });
  it('is within half a para of the exact value and never negative', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.integer({ min: MIN_PERCENT_BP, max: MAX_PERCENT_BP }),
        (p, bp) => {
          const out = changePriceByPercent(p, bp);
          const exact = (p * (10_000 + bp)) / 10_000;
          expect(out).toBeGreaterThanOrEqual(0);
          expect(Math.abs(out - exact)).toBeLessThanOrEqual(0.5 + 1e-6);
        },
      ),
    );
  });
});
