/**
 * The cart's arithmetic, without state: line totals, the sale discount shared over the lines, and the one
 * place decimals appear (the contract's checkout input). Money is integer para, quantities integer thousandths.
 */
import type { AppError, CommandInput } from '../../../shared/contract/index.ts';
import type { ProductUnit } from '../../../shared/contract/catalog.ts';
import type { TaxRatesView } from '../../../shared/domain.ts';
import { lineTotal, milliToDecimal, paraToDecimal, type Milli, type Para } from '../../../shared/money.ts';
import type { PaymentEntry } from './payment.ts';

/** One cart line. `key` is stable for React and tests. */
export interface CartLine {
  key: number;
  productId?: number;
  name: string;
  unitPricePara: Para;
  quantityMilli: Milli;
  discountPara: Para;
  label: string;
  unit: ProductUnit;
  gtin?: string;
  /** The in-store price barcode the line was scanned by: the core accepts the price it carries. */
  priceCode?: string;
  /** A price a manager approved at the counter (the price dialog): a catalog change leaves it alone. Not saved. */
  priceSet?: true;
  /** The price before the catalog changed it under the line (shown beside the new one). Not saved. */
  priceWas?: Para;
  /**
   * The promotion or price list in force that prices the line (`prices.quote`): its name and the part of the line's
   * discount it gives (the rest is the cashier's). Shown with the regular price it replaces. Not saved.
   */
  rule?: { name: string; discountPara: Para };
  /**
   * What the product had on hand when it was put in the cart (the till's book, or the shop's at the hub), to flag a
   * line that takes it below zero (`belowZero`). Not saved.
   */
  onHandMilli?: Milli;
  /** The core refused the checkout at this line's quantity (while the quantity is still the one refused). Not saved. */
  refused?: { message: string; quantityMilli: Milli };
}

/** The cart line a refusal names at its quantity (`lines.N.quantity`), or null. */
export function refusedLine(error: AppError): number | null {
  const field = 'field' in error && typeof error.field === 'string' ? error.field : '';
  const m = /^lines\.(\d+)\.quantity$/.exec(field);
  return m ? Number(m[1]) : null;
}

/** The lists and promotions pricing the cart, each named once (the cart's buyer line and the payment screen). */
export function ruleNamesOf(lines: readonly CartLine[]): string[] {
  return [...new Set(lines.flatMap((l) => (l.rule ? [l.rule.name] : [])))];
}

/** A line as the core keeps it (`cart.save`, `parked.save`): without the counter's own marks. */
export function storedLine({
  key: _key,
  priceSet: _set,
  priceWas: _was,
  rule: _rule,
  onHandMilli: _onHand,
  refused: _refused,
  ...l
}: CartLine): Omit<CartLine, 'key'> {
  return l;
}

/**
 * What is left on hand after the cart's lines of the same product up to and including line `index`, when that is
 * below zero (the line is flagged at the counter: docs/goods.md); null when the line stays at or above zero or its
 * product's stock is unknown. A refund's cart puts goods back and is never below zero.
 */
export function belowZero(lines: readonly CartLine[], index: number): Milli | null {
  const line = lines[index];
  if (!line || line.productId === undefined || line.onHandMilli === undefined) return null;
  let taken = 0;
  for (let i = 0; i <= index; i++) {
    const l = lines[i];
    if (l && l.productId === line.productId) taken += Math.abs(l.quantityMilli);
  }
  const left = line.onHandMilli - taken;
  return left < 0 ? left : null;
}

/**
 * The lines priced by the rules in force (`prices.quote`, one answer per line of `asked`): a catalog line at its
 * regular price gets the rule's discount in place of the previous rule's, the cashier's own discount kept on top.
 * Returns null when nothing changes.
 */
export function applyRules(
  lines: readonly CartLine[],
  asked: readonly number[],
  priced: readonly {
    regularPara: Para;
    discountPara: Para;
    rule: { name: string } | null;
  }[],
): CartLine[] | null {
  let changed = false;
  const next = lines.map((l) => l);
  asked.forEach((index, k) => {
    const l = lines[index];
    const p = priced[k];
    if (!l || !p || p.regularPara !== l.unitPricePara) return;
    const before = l.rule?.discountPara ?? 0;
    const own = Math.max(0, l.discountPara - before);
    const ruleDiscount = p.rule ? p.discountPara : 0;
    const discountPara = Math.min(own + ruleDiscount, lineTotal(l.unitPricePara, l.quantityMilli));
    const name = p.rule && ruleDiscount > 0 ? p.rule.name : null;
    if (discountPara === l.discountPara && (l.rule?.name ?? null) === name && before === ruleDiscount) return;
    const line: CartLine = { ...l, discountPara };
    if (name) line.rule = { name, discountPara: ruleDiscount };
    else delete line.rule;
    next[index] = line;
    changed = true;
  });
  return changed ? next : null;
}

/**
 * The lines after a catalog change: a line of a catalog product sold at its catalog price follows the product's
 * new price (`priceWas` keeps the old one to show), its discount capped at the new total. A line with a
 * manager's price, an in-store price barcode's price, or a product the catalog no longer has stays as it is.
 */
export function followCatalog(
  lines: readonly CartLine[],
  products: readonly { id: number; pricePara: Para }[],
): { lines: CartLine[]; changed: CartLine[] } {
  const price = new Map(products.map((p) => [p.id, p.pricePara]));
  const changed: CartLine[] = [];
  const next = lines.map((l) => {
    const now = l.productId === undefined ? undefined : price.get(l.productId);
    if (now === undefined || now === l.unitPricePara || l.priceSet || l.priceCode) return l;
    const line: CartLine = {
      ...l,
      unitPricePara: now,
      priceWas: l.priceWas ?? l.unitPricePara,
      discountPara: Math.min(l.discountPara, lineTotal(now, l.quantityMilli)),
    };
    // Back at the price it had: nothing to point out.
    if (line.priceWas === now) delete line.priceWas;
    changed.push(line);
    return line;
  });
  return { lines: changed.length > 0 ? next : [...lines], changed };
}

/** The cart total in para. */
export function cartTotal(lines: readonly CartLine[]): Para {
  return lines.reduce((sum, l) => sum + lineTotal(l.unitPricePara, l.quantityMilli, l.discountPara), 0);
}

/**
 * The label a new item starts with (F3, the product form, an advance): the shop's usual label as the core
 * decided it (`usualLabel`), while it is a current one; else the first current label.
 */
export function defaultLabel(taxRates: TaxRatesView | null): string {
  const labels = currentLabels(taxRates);
  const usual = taxRates?.usualLabel;
  return usual !== undefined && labels.includes(usual) ? usual : (labels[0] ?? '');
}

/** The labels the cashier may choose: exactly those `taxRates.get` returned. */
export function currentLabels(taxRates: TaxRatesView | null): string[] {
  return taxRates?.labels.map((l) => l.label) ?? [];
}

/** One cart line as the contract's decimal checkout line. */
export function toCheckoutLine(l: CartLine): CommandInput<'sales.checkout'>['lines'][number] {
  return {
    name: l.name,
    quantity: milliToDecimal(l.quantityMilli),
    unitPrice: paraToDecimal(l.unitPricePara),
    labels: [l.label],
    ...(l.gtin ? { gtin: l.gtin } : {}),
    // The catalog product the line sells: its price is checked against the catalog's, barcode or not.
    ...(l.productId !== undefined ? { productId: l.productId } : {}),
    ...(l.priceCode ? { priceCode: l.priceCode } : {}),
    ...(l.discountPara > 0 ? { discount: paraToDecimal(l.discountPara) } : {}),
  };
}

/**
 * Converts the cart and payments to the contract's decimal checkout input (the only place decimals appear). No
 * cashier: the core names the person logged in.
 */
export function toCheckoutInput(lines: readonly CartLine[], entry: PaymentEntry): CommandInput<'sales.checkout'> {
  return {
    lines: lines.map(toCheckoutLine),
    payments: entry.payments
      .filter((p) => p.amountPara > 0)
      .map((p) => ({ type: p.type, amount: paraToDecimal(p.amountPara) })),
    invoiceType: entry.invoiceType,
    ...(entry.buyerId ? { buyerId: entry.buyerId } : {}),
    ...(entry.email ? { email: entry.email } : {}),
    ...(entry.ipsReference ? { ipsReference: entry.ipsReference } : {}),
  };
}

/**
 * Shares `amount` (para) over `weights` in proportion, each share whole para and at most its weight, the
 * shares adding up to `amount` exactly (capped at the weights' sum): the floor of each, then the odd para
 * to the largest remainders, earlier lines first on a tie.
 */
export function shareOut(amount: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum <= 0) return weights.map(() => 0);
  const total = Math.min(amount, sum);
  const exact = weights.map((w) => (w * total) / sum);
  const shares = exact.map((x) => Math.floor(x));
  let left = total - shares.reduce((s, x) => s + x, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    if ((shares[i] ?? 0) < (weights[i] ?? 0)) {
      shares[i] = (shares[i] ?? 0) + 1;
      left--;
    }
  }
  return shares;
}
