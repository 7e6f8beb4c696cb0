/**
 * The goods part of the bookkeeper's exports (docs/exports.md), the same at the till and at the hub: the goods
 * receipts and reversals of the period with their calculation's totals, and the price changes as the journal posts
 * them. Each side reads its own book (electron/exports/service.ts, hub/export-goods.ts) and hands the rows here.
 * Pure: no database.
 */
import type { ExportGoodsReceipt } from '../contract/exports.ts';
import type { PriceChangeView } from '../contract/goods.ts';
import { vatIn } from '../goods/calc.ts';
import { dayIn } from '../i18n/time.ts';
import type { JournalPriceChange } from './journal.ts';

/** What one receipt's (or reversal's) movements of one tax label brought in, as the book holds it. */
export interface ReceiptLabelRow {
  /** The document's id in its book (its rows of several labels share it). */
  id: number;
  kind: 'receipt' | 'reversal';
  /** `<number>/<year>`. */
  number: string;
  /** The first day its goods moved. */
  day: string;
  supplier: string;
  pib: string;
  invoiceNumber: string;
  /** The document's purchase value without VAT, signed (a reversal negative). */
  purchasePara: number;
  label: string;
  /** Σ the retail value its movements of this label moved (the KEP's debit), signed. */
  valuePara: number;
}

/**
 * The receipts and reversals of the period, in the rows' order: each with the retail value its movements brought in,
 * the VAT within it by each line's label, and the margin retail − VAT − purchase.
 */
export function exportReceipts(
  rows: readonly ReceiptLabelRow[],
  rateOf: (label: string) => number,
): ExportGoodsReceipt[] {
  const out = new Map<number, ExportGoodsReceipt>();
  for (const r of rows) {
    let e = out.get(r.id);
    if (!e)
      out.set(
        r.id,
        (e = {
          day: r.day,
          number: r.number,
          kind: r.kind,
          supplier: r.supplier,
          supplierPib: r.pib,
          invoiceNumber: r.invoiceNumber,
          purchasePara: r.purchasePara,
          retailPara: 0,
          vatPara: 0,
          marginPara: 0,
        }),
      );
    e.retailPara += r.valuePara;
    e.vatPara += vatIn(r.valuePara, rateOf(r.label));
  }
  for (const e of out.values()) e.marginPara = e.retailPara - e.vatPara - e.purchasePara;
  return [...out.values()];
}

/** The price changes as the journal posts them: the difference and the VAT within it by the product's label. */
export function journalPriceChanges(
  changes: readonly PriceChangeView[],
  labelOf: (code: string) => string | undefined,
  rateOf: (label: string) => number,
): JournalPriceChange[] {
  return changes.map((p) => ({
    day: dayIn(new Date(p.at)),
    number: p.number,
    name: p.name,
    diffPara: p.diffPara,
    vatPara: vatIn(p.diffPara, rateOf(labelOf(p.code) ?? '')),
  }));
}
