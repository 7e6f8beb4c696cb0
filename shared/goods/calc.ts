/**
 * The retail price calculation of a goods receipt (калкулација малопродајне цене), per unit, in integer para and
 * hundredths of a percent (basis points): the supplier's price without VAT less their discount is the net
 * purchase price; the margin on it gives the price without VAT; the VAT of the product's tax label (the gateway's
 * rate) on that gives the retail price with VAT, rounded to the para (halves away from zero, as fiscal receipts).
 * Or the other way: the retail price is kept and the margin it leaves is shown.
 */
import { roundDiv } from '../money.ts';

/** The net purchase price per unit: `purchasePara` less `discountBp` hundredths of a percent. */
export function netPurchase(purchasePara: number, discountBp: number): number {
  return roundDiv(purchasePara * (10_000 - discountBp), 10_000);
}

/** VAT rate in percent (20, 10, 0.5 …) as thousandths of a percent, exact for the gateway's rates. */
const rateMilli = (ratePercent: number): number => Math.round(ratePercent * 1000);

/** The retail price with VAT from the net purchase price, the margin (bp) and the VAT rate (percent). */
export function retailFromMargin(netPara: number, marginBp: number, ratePercent: number): number {
  const withoutVat = netPara * (10_000 + marginBp); // para × 10⁴
  return roundDiv(withoutVat * (100_000 + rateMilli(ratePercent)), 10_000 * 100_000);
}

/** The margin (bp, rounded) that a retail price with VAT leaves over the net purchase price; null when it is 0. */
export function marginOf(netPara: number, retailPara: number, ratePercent: number): number | null {
  if (netPara <= 0) return null;
  // retail / (1 + r) − net, over net, in bp.
  const withoutVatScaled = retailPara * 100_000; // ÷ (100000 + rate) gives the price without VAT
  return roundDiv(withoutVatScaled * 10_000, netPara * (100_000 + rateMilli(ratePercent))) - 10_000;
}

/** The VAT in a retail price with VAT. */
export function vatIn(retailPara: number, ratePercent: number): number {
  return roundDiv(retailPara * rateMilli(ratePercent), 100_000 + rateMilli(ratePercent));
}

/** A value of `qtyMilli` thousandths at `pricePara` a unit, rounded to the para. */
export function valueAt(qtyMilli: number, pricePara: number): number {
  return roundDiv(qtyMilli * pricePara, 1000);
}
