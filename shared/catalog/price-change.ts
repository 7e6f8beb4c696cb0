/**
 * A bulk price change by a percentage, the one rule the till and the hub both apply (a group's prices +5 %):
 * the percentage is given in hundredths of a percent (+5 % = 500, -12.5 % = -1250) so that it stays an
 * integer, and each new price is rounded to whole para, halves away from zero, or to whole dinars when the
 * shop prices in dinars. A price never becomes negative; a change that would take it below zero is refused
 * by the caller's schema (the percentage is at least -100 %).
 */

/** The smallest and largest percentage a manager may enter, in hundredths of a percent (-100 %, +1000 %). */
export const MIN_PERCENT_BP = -10_000;
export const MAX_PERCENT_BP = 100_000;

export type PriceRounding = 'para' | 'dinar';

/** Divides a non-negative integer by a positive one, rounding halves up (away from zero for non-negatives). */
function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/**
 * The new price in para of `pricePara` changed by `percentBp` hundredths of a percent.
 * @throws RangeError when the price is not a non-negative safe integer or the percentage is out of range.
 */
export function changePriceByPercent(pricePara: number, percentBp: number, rounding: PriceRounding = 'para'): number {
  if (!Number.isSafeInteger(pricePara) || pricePara < 0) throw new RangeError('price');
  if (!Number.isInteger(percentBp) || percentBp < MIN_PERCENT_BP || percentBp > MAX_PERCENT_BP) {
    throw new RangeError('percent');
  }
  const scaled = BigInt(pricePara) * BigInt(10_000 + percentBp);
  const unit = rounding === 'dinar' ? 100n : 1n;
  return Number(divRoundHalfUp(scaled, 10_000n * unit) * unit);
}
