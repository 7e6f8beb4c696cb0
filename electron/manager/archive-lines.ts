/**
 * The lines of a full refund of a receipt known only to the gateway archive.
 *
 * The full-refund endpoint refunds the original's own items (spec, rule 4), but the request still carries
 * `items`; Kasa used to send one invented line with the first tax label of the group. Now it sends the
 * archived receipt's items (`GET /archive/receipts/{invoiceNumber}`; the vendor's SDK reads `items` on the
 * archived receipt, `ReceiptDetailsDto`). When the archive carries no items (the spec shows none), the
 * lines are built from the receipt's `taxItems`, one per label with the gross amount that label's tax
 * implies, so every label is the original's own and the lines add up to the receipt's total. Never an
 * invented label: a receipt with neither is refused.
 */
import { z } from 'zod';
import type { OrderLine } from '../../shared/domain.ts';
import { roundDiv, toMilli, toPara } from '../../shared/money.ts';
import { CommandError } from '../errors.ts';
import type { GatewayClient } from '../gateway/client.ts';
import { gatewayCommandError } from '../auth/staff.ts';

const ArchivedItem = z.looseObject({
  name: z.string().min(1),
  quantity: z.number().positive(),
  unitPrice: z.number().nonnegative(),
  totalAmount: z.number().nonnegative(),
  labels: z.array(z.string().min(1)).min(1),
  gtin: z.string().nullish(),
  discount: z.number().nonnegative().nullish(),
});

const TaxItem = z.looseObject({ label: z.string().min(1), amount: z.number(), rate: z.number().nonnegative() });

/** The archived receipt's items as order lines; null when absent, unreadable or not adding up to `totalPara`. */
export function linesFromItems(items: unknown, totalPara: number): OrderLine[] | null {
  const parsed = z.array(ArchivedItem).min(1).safeParse(items);
  if (!parsed.success) return null;
  const lines: OrderLine[] = [];
  for (const i of parsed.data) {
    const quantityMilli = toMilli(i.quantity);
    const unitPricePara = toPara(i.unitPrice);
    const total = toPara(i.totalAmount);
    const discountPara = i.discount ? toPara(i.discount) : 0;
    if (quantityMilli === null || unitPricePara === null || total === null || discountPara === null) return null;
    lines.push({
      name: i.name,
      quantityMilli,
      unitPricePara,
      discountPara,
      totalPara: total,
      labels: [...i.labels],
      ...(i.gtin ? { gtin: i.gtin } : {}),
    });
  }
  return lines.reduce((s, l) => s + l.totalPara, 0) === totalPara ? lines : null;
}

/**
 * One line per tax label of the receipt: a label's gross is its tax × (100 + rate) / rate (VAT is included
 * in the price). Rounding is settled so the lines add up to `totalPara`: the rest goes to the 0 % label
 * (whose gross no tax reveals), or to the largest line. Null without tax items.
 */
export function linesFromTaxItems(taxItems: unknown, totalPara: number, name: string): OrderLine[] | null {
  const parsed = z.array(TaxItem).min(1).safeParse(taxItems);
  if (!parsed.success) return null;
  const byLabel = new Map<string, { taxPara: number; rateMilli: number }>();
  for (const t of parsed.data) {
    const prev = byLabel.get(t.label);
    byLabel.set(t.label, {
      taxPara: (prev?.taxPara ?? 0) + (toPara(Math.abs(t.amount).toFixed(2)) ?? 0),
      rateMilli: Math.round(t.rate * 1000),
    });
  }
  const labels = [...byLabel.entries()];
  const gross = labels.map(([label, t]) => ({
    label,
    totalPara:
      labels.length === 1
        ? totalPara
        : t.rateMilli > 0
          ? roundDiv(t.taxPara * (100_000 + t.rateMilli), t.rateMilli)
          : 0,
    zero: t.rateMilli === 0,
  }));
  const rest = totalPara - gross.reduce((s, g) => s + g.totalPara, 0);
  const target = gross.find((g) => g.zero) ?? gross.reduce((a, b) => (b.totalPara > a.totalPara ? b : a));
  target.totalPara += rest;
  return gross
    .filter((g) => g.totalPara > 0)
    .map((g) => ({
      name: `${name} (${g.label})`,
      quantityMilli: 1000,
      unitPricePara: g.totalPara,
      discountPara: 0,
      totalPara: g.totalPara,
      labels: [g.label],
    }));
}

/** Fetches the archived receipt and returns the lines of its full refund (see the file's comment). */
export async function archivedRefundLines(
  client: GatewayClient,
  invoiceNumber: string,
  totalPara: number,
): Promise<OrderLine[]> {
  let receipt;
  try {
    receipt = (await client.archiveGet(invoiceNumber, { timeoutMs: 5000 })).receipt;
  } catch (err) {
    throw gatewayCommandError(err, 'invoiceNumber', invoiceNumber);
  }
  const lines =
    linesFromItems((receipt as Record<string, unknown>)['items'], totalPara) ??
    linesFromTaxItems(receipt.taxItems, totalPara, `Поврат ${invoiceNumber}`);
  if (!lines || lines.length === 0)
    throw new CommandError('conflict', 'refund_archive_no_items', { id: invoiceNumber });
  return lines;
}
