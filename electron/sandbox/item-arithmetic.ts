/**
 * The item arithmetic a PFR checks: `quantity × unitPrice − discount = totalAmount` to the para, the
 * product rounded to the para (halves away from zero), `discount` read as an amount in RSD for the whole
 * item with `totalAmount` after it (docs/gateway.md, "Discounts"). An item that does not add up is
 * refused with ERR_00202 at its `totalAmount` (`items[N].totalAmount`).
 */
import { milliToDecimal, roundDiv, toMilli, toPara } from '../../shared/money.ts';

const rsd = (para: number): string => (para / 100).toFixed(2);

/** The parts of an item the check reads (decimal numbers as sent). */
export interface ArithmeticItem {
  quantity: number;
  unitPrice: number;
  totalAmount: number;
  discount?: number | undefined;
}

/** Null when the item adds up (or a field is malformed: its own check reports that), else the message. */
export function itemArithmeticError(item: ArithmeticItem): string | null {
  const q = toMilli(item.quantity);
  const u = toPara(item.unitPrice);
  const t = toPara(item.totalAmount);
  const d = item.discount === undefined ? 0 : toPara(item.discount);
  if (q === null || u === null || t === null || d === null) return null;
  const gross = roundDiv(u * q, 1000);
  const want = gross - d;
  if (want === t) return null;
  const lhs = `${milliToDecimal(q)} × ${rsd(u)}${d ? ` − ${rsd(d)}` : ''}`;
  return `quantity × unitPrice${d ? ' − discount' : ''} must equal totalAmount: ${lhs} = ${rsd(want)}, not ${rsd(t)}`;
}
