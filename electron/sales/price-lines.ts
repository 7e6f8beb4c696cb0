import type { OrderLine } from '../../shared/domain.ts';
import { lineTotal, toMilli, toPara } from '../../shared/money.ts';
import { CommandError, invalidInput } from '../errors.ts';

/**
 * A checkout's lines in para and thousandths: each line's total less its discount (a discount above the line is
 * refused), every label checked against the current tax rates (`known`; one in `refused`, which the Tax
 * Administration refused for this account, is named as such), the catalog product it names kept
 * (`productId`) or the line marked hand-typed when it names none. The counter's checkout, a further advance
 * and a final sale all price their lines here; whether a price needs a manager is the guard's (authz.ts).
 */
export function priceLines(
  input: readonly {
    name: string;
    quantity: number;
    unitPrice: number;
    labels: string[];
    gtin?: string | undefined;
    productId?: number | undefined;
    discount?: number | undefined;
  }[],
  known: ReadonlySet<string>,
  refused: ReadonlySet<string> = new Set(),
): OrderLine[] {
  if (known.size === 0) throw new CommandError('unavailable', 'tax_rates_missing');
  return input.map((l, i) => {
    const unitPricePara = toPara(l.unitPrice) as number;
    const quantityMilli = toMilli(l.quantity) as number;
    const discountPara = l.discount !== undefined ? (toPara(l.discount) as number) : 0;
    const gross = lineTotal(unitPricePara, quantityMilli, 0);
    if (discountPara > gross) throw invalidInput(`lines.${i}.discount`, 'discount_too_big');
    l.labels.forEach((label, j) => {
      if (refused.has(label))
        throw invalidInput(`lines.${i}.labels.${j}`, 'label_refused', { value: label, labels: [...known].join(', ') });
      if (!known.has(label)) throw invalidInput(`lines.${i}.labels.${j}`, 'label_unknown', { label });
    });
    return {
      name: l.name,
      quantityMilli,
      unitPricePara,
      discountPara,
      totalPara: gross - discountPara,
      labels: [...l.labels],
      ...(l.gtin ? { gtin: l.gtin } : {}),
      ...(l.productId !== undefined ? { productId: l.productId } : {}),
      // Naming no catalog product (no id, no barcode): a hand-typed item, kept marked as such.
      ...(l.productId === undefined && !l.gtin ? { handTyped: true as const } : {}),
    };
  });
}
