/**
 * How an order line becomes the gateway's receipt items, and how partial refunds of a line are priced.
 *
 * Every item sent multiplies out to the para: `round(quantity × unitPrice) = totalAmount`, with no
 * `discount` field. A discount is folded into the unit price and named on the item („попуст 1,00“);
 * where no single para unit price multiplies out (3 × 100,00 less 1,00 = 299,00) the line goes out as
 * two items (2 × 99,67 + 1 × 99,66). The reasons and the readings of the spec's `discount` this is
 * correct under are in docs/gateway.md, "Discounts".
 *
 * Refunds of a line are priced cumulatively: when `soFar` thousandths of a line of `Q` are refunded
 * (this refund included), the line's refunds together are `round(total × soFar / Q)`, so refund k is
 * that minus the earlier ones and the last piece takes exactly what is left. No sequence of partial
 * refunds returns more, or less, than the line was paid.
 *
 * Money is integer para and quantities integer thousandths; decimals only in the items returned.
 */
import type { OrderLine } from './domain.ts';
import { formatRsd, milliToDecimal, paraToDecimal, roundDiv, type Milli, type Para } from './money.ts';

/** One receipt item as the gateway takes it (decimal numbers; no `discount`). */
export interface ReceiptItem {
  name: string;
  quantity: number;
  unitPrice: number;
  totalAmount: number;
  labels: string[];
  gtin?: string;
}

/** A piece of a line in integers: `roundDiv(unitPricePara × quantityMilli, 1000) === totalPara`. */
export interface ItemPiece {
  quantityMilli: Milli;
  unitPricePara: Para;
  totalPara: Para;
}

/** What a PFR checks of an item: the quantity times the unit price, rounded to the para (halves away from zero). */
export function itemAmount(quantityMilli: Milli, unitPricePara: Para): Para {
  return roundDiv(unitPricePara * quantityMilli, 1000);
}

/**
 * How the name of a line priced by a promotion or a price list says so, with the regular price it replaces
 * (Закон о заштити потрошача, docs/prices.md): „Хлеб, Викенд акција, стара цена 120,00“.
 */
export function ruleItemName(name: string, rule: string, regularPara: Para): string {
  return `${name}, ${rule}, стара цена ${formatRsd(regularPara)}`;
}

/** How the name of a discounted item says so: „Хлеб, попуст 1,00“. */
export function discountedName(name: string, discountPara: Para): string {
  return `${name}, попуст ${formatRsd(discountPara)}`;
}

/**
 * The unit price (para) closest to `preferred` for which `quantityMilli` multiplies out to exactly
 * `totalPara`, or null when there is none (possible only above one unit: each para of unit price then
 * moves the amount by more than a para).
 */
export function exactUnitPrice(quantityMilli: Milli, totalPara: Para, preferred: Para): Para | null {
  if (quantityMilli <= 0 || totalPara < 0) return null;
  if (itemAmount(quantityMilli, preferred) === totalPara) return preferred;
  // round(u·m/1000) = T  ⇔  (T − ½)·1000 ≤ u·m < (T + ½)·1000 (halves away from zero, u, m, T ≥ 0).
  const lo = Math.max(0, Math.ceil(((totalPara - 0.5) * 1000) / quantityMilli));
  const hi = Math.ceil(((totalPara + 0.5) * 1000) / quantityMilli) - 1;
  let best: Para | null = null;
  // The interval is at most a few para wide; check each candidate with the same rounding the PFR uses.
  for (let u = Math.max(0, lo - 1); u <= hi + 1; u++) {
    if (itemAmount(quantityMilli, u) !== totalPara) continue;
    if (best === null || Math.abs(u - preferred) < Math.abs(best - preferred)) best = u;
  }
  return best;
}

/**
 * `quantityMilli` for exactly `totalPara` as one or two pieces that each multiply out, with unit prices
 * as close to `listUnitPara` as the para allow.
 * - One piece when a para unit price multiplies out (always so up to one unit, and for counted lines
 *   whose total divides by the count).
 * - Counted (whole units) otherwise: k units at ⌈T/n⌉ and n − k at ⌈T/n⌉ − 1 (3 for 299,00: 2 × 99,67 + 1 × 99,66).
 * - Weighed above one unit otherwise: the whole units at ⌊T/Q⌋ per unit and the fraction at the unit
 *   price that takes the rest (a fraction below one unit always has one).
 */
export function exactPieces(quantityMilli: Milli, totalPara: Para, listUnitPara: Para): ItemPiece[] {
  if (!Number.isSafeInteger(quantityMilli) || quantityMilli <= 0) throw new RangeError(`quantity ${quantityMilli}`);
  if (!Number.isSafeInteger(totalPara) || totalPara < 0) throw new RangeError(`total ${totalPara}`);
  const preferred = Math.max(0, Math.round((totalPara * 1000) / quantityMilli));
  const near = itemAmount(quantityMilli, listUnitPara) === totalPara ? listUnitPara : preferred;
  const one = exactUnitPrice(quantityMilli, totalPara, near);
  if (one !== null) return [{ quantityMilli, unitPricePara: one, totalPara }];
  const whole = Math.floor(quantityMilli / 1000);
  const fraction = quantityMilli % 1000;
  if (fraction === 0) {
    const hi = Math.ceil(totalPara / whole);
    const atHi = totalPara - whole * (hi - 1);
    return [
      { quantityMilli: atHi * 1000, unitPricePara: hi, totalPara: atHi * hi },
      { quantityMilli: (whole - atHi) * 1000, unitPricePara: hi - 1, totalPara: (whole - atHi) * (hi - 1) },
    ];
  }
  const perUnit = Math.floor((totalPara * 1000) / quantityMilli);
  const wholeTotal = perUnit * whole;
  const rest = totalPara - wholeTotal;
  const restUnit = exactUnitPrice(fraction, rest, perUnit);
  if (restUnit === null) throw new RangeError(`no exact price for ${fraction} of ${rest}`);
  return [
    { quantityMilli: whole * 1000, unitPricePara: perUnit, totalPara: wholeTotal },
    { quantityMilli: fraction, unitPricePara: restUnit, totalPara: rest },
  ];
}

/**
 * The gateway items of one order line: its amount exactly (`line.totalPara`), in items that multiply
 * out, the discount folded into the unit price and named on each item with its share of it.
 */
export function lineItems(line: OrderLine): ReceiptItem[] {
  const pieces = exactPieces(line.quantityMilli, line.totalPara, line.unitPricePara);
  // A line a promotion or a price list priced names it and the regular price (its unit price) it replaces.
  const name =
    line.priceRule && line.discountPara > 0 ? ruleItemName(line.name, line.priceRule, line.unitPricePara) : line.name;
  return pieces.map((p) => {
    // The item's share of the discount: what it would cost at the list price, less what it costs.
    const share = line.discountPara > 0 ? itemAmount(p.quantityMilli, line.unitPricePara) - p.totalPara : 0;
    return {
      name: share > 0 ? discountedName(name, share) : name,
      quantity: milliToDecimal(p.quantityMilli),
      unitPrice: paraToDecimal(p.unitPricePara),
      totalAmount: paraToDecimal(p.totalPara),
      labels: [...line.labels],
      ...(line.gtin ? { gtin: line.gtin } : {}),
    };
  });
}

/** The gateway items of an order's lines, in order (a line may become two items). */
export function receiptItems(lines: readonly OrderLine[]): ReceiptItem[] {
  return lines.flatMap(lineItems);
}

/** What earlier refunds took of one line: thousandths and para. */
export interface RefundedSoFar {
  quantityMilli: Milli;
  totalPara: Para;
}

/**
 * The amount of refunding `quantityMilli` more of `line`, after earlier refunds of it took
 * `earlier`: `round(total × (earlier + this) / sold)` less the earlier refunds' para; the last piece
 * takes exactly what is left. Throws when more than is left is asked for.
 */
export function refundAmount(
  line: Pick<OrderLine, 'quantityMilli' | 'totalPara'>,
  earlier: RefundedSoFar,
  quantityMilli: Milli,
): Para {
  const soFar = earlier.quantityMilli + quantityMilli;
  if (quantityMilli <= 0 || soFar > line.quantityMilli)
    throw new RangeError(`refund of ${quantityMilli} after ${earlier.quantityMilli} of ${line.quantityMilli}`);
  const cumulative =
    soFar === line.quantityMilli ? line.totalPara : roundDiv(line.totalPara * soFar, line.quantityMilli);
  // Earlier refunds priced another way (before this rule) may have taken more than the rule gives: never below zero.
  return Math.max(0, Math.min(cumulative, line.totalPara) - earlier.totalPara);
}

/** The refunded part of a line as an order line: `quantityMilli` of it, priced by `refundAmount`. */
export function refundLine(line: OrderLine, earlier: RefundedSoFar, quantityMilli: Milli): OrderLine {
  const totalPara = refundAmount(line, earlier, quantityMilli);
  const gross = itemAmount(quantityMilli, line.unitPricePara);
  // A line sold without a discount gets none: a para off from rounding is not a discount to name.
  const discountPara = line.discountPara > 0 ? Math.max(0, gross - totalPara) : 0;
  return { ...line, labels: [...line.labels], quantityMilli, totalPara, discountPara };
}

/** The para an old refund (stored without `totalPara`) took of a line: how refunds were priced before. */
export function legacyRefundPara(line: Pick<OrderLine, 'quantityMilli' | 'totalPara'>, quantityMilli: Milli): Para {
  if (quantityMilli >= line.quantityMilli) return line.totalPara;
  return roundDiv(line.totalPara * quantityMilli, line.quantityMilli);
}
