/**
 * The report charts' axes: the value axis says the currency in the UI language, and the category names are
 * slanted (all shown, the last one ending at its bar) once there are many or long ones, level otherwise.
 */
import { describe, expect, it } from 'vitest';
import { axisDinars, categoryTicks } from './ReportCharts.tsx';
import { reportT } from './words.ts';

describe('the value axis', () => {
  it('shows whole dinars with the currency, in each language', () => {
    expect(axisDinars(reportT('sr-Cyrl'), 1_234_000)).toBe('12.340 дин.');
    expect(axisDinars(reportT('sr-Latn'), 32_000)).toBe('320 din.');
    expect(axisDinars(reportT('en'), 0)).toBe('0 RSD');
  });
});

describe('the category names', () => {
  it('stay level while they are few and short', () => {
    expect(categoryTicks(['12:00', '13:00'])).toEqual({ slanted: false, height: 30 });
    expect(categoryTicks(['Готовина и нешто дуже'])).toEqual({ slanted: false, height: 30 });
  });

  it('slant, with room under the axis for the longest, when many or long', () => {
    const payments = ['Готовина', 'Чек', 'Вирман', 'Друго безготовинско плаћање'];
    const slanted = categoryTicks(payments);
    expect(slanted.slanted).toBe(true);
    expect(slanted.height).toBeGreaterThan(60);
    expect(categoryTicks(['a', 'b', 'c', 'd', 'e']).slanted).toBe(true);
    expect(categoryTicks(['x'.repeat(200), 'y']).height).toBe(120);
  });
});
