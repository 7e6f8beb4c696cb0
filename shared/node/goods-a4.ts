/**
 * The A4 layouts of a goods receipt with its calculation (калкулација) and of the reorder list, shared by the
 * till's documents (electron/goods/documents.ts) and the hub's (hub/goods/documents.ts): one layout, two books.
 * Each returns the document's part of an A4Input; the caller adds the language, the shop and the print time.
 */
import type { Language } from '../domain.ts';
import type { ReceiptLineView, ReceiptView, ReorderView } from '../contract/goods.ts';
import { formatQuantity, formatRsd } from '../money.ts';
import { GOODS_DOC_WORDS, kepDate, percentText } from '../i18n/goods.ts';
import { formatMoment } from '../i18n/time.ts';
import type { A4Column, A4Input } from './a4.ts';
import { interpolate } from '../i18n/catalog.ts';

type A4Part = Omit<A4Input, 'language' | 'shop' | 'printedAt'>;

/** What a receipt's page shows: the till's ReceiptView, or the hub's receipt in the same shape. */
export type ReceiptA4 = Pick<
  ReceiptView,
  | 'kind'
  | 'state'
  | 'number'
  | 'invoiceNumber'
  | 'invoiceDate'
  | 'postedAt'
  | 'postedBy'
  | 'purchasePara'
  | 'retailPara'
> & {
  supplier: { name: string; pib: string };
  lines: (Pick<
    ReceiptLineView,
    | 'code'
    | 'name'
    | 'quantityMilli'
    | 'purchasePara'
    | 'discountBp'
    | 'netPara'
    | 'ratePercent'
    | 'retailPara'
    | 'purchaseValuePara'
    | 'retailValuePara'
  > & { marginBp: number | null })[];
  /** A reversal: the number of the receipt it reverses. */
  reversesNumber?: string | null;
};

/** A goods receipt or its reversal with its calculation: supplier, invoice, per line the prices and the totals. */
export function receiptA4(r: ReceiptA4, lang: Language): A4Part {
  const w = GOODS_DOC_WORDS[lang];
  const title =
    r.state === 'draft'
      ? w.draftTitle
      : interpolate(r.kind === 'reversal' ? w.reversalTitle : w.receiptTitle, { number: r.number ?? '' });
  const widths = [0.45, 0.9, 2.6, 0.7, 1, 0.7, 1, 0.7, 0.55, 1, 1.15, 1.15];
  const columns: A4Column[] = w.receiptHeader.map((header, i) => ({
    header,
    width: widths[i] ?? 1,
    align: i === 1 || i === 2 ? 'left' : 'right',
  }));
  return {
    landscape: true,
    title,
    lines: [
      interpolate(w.supplier, { name: r.supplier.name, pib: r.supplier.pib }),
      interpolate(w.invoice, { number: r.invoiceNumber, date: kepDate(r.invoiceDate, lang) }),
      ...(r.reversesNumber ? [interpolate(w.reverses, { number: r.reversesNumber })] : []),
      ...(r.postedAt
        ? [interpolate(w.posted, { at: formatMoment(r.postedAt, lang), person: r.postedBy ?? '' }).replace(/, $/, '')]
        : []),
    ],
    columns,
    rows: r.lines.map((l, i) => [
      String(i + 1),
      l.code,
      l.name,
      formatQuantity(l.quantityMilli),
      formatRsd(l.purchasePara),
      percentText(l.discountBp),
      formatRsd(l.netPara),
      l.marginBp === null ? '' : percentText(l.marginBp),
      l.ratePercent === null ? '' : percentText(Math.round(l.ratePercent * 100)),
      formatRsd(l.retailPara),
      formatRsd(l.purchaseValuePara),
      formatRsd(l.retailValuePara),
    ]),
    totals: [['', '', w.total, '', '', '', '', '', '', '', formatRsd(r.purchasePara), formatRsd(r.retailPara)]],
    after: [w.signatures],
  };
}

/** The reorder list: per supplier its products below their minimum with the quantity to order. */
export function reorderA4(view: Omit<ReorderView, 'csv'>, lang: Language, day: Date): A4Part {
  const w = GOODS_DOC_WORDS[lang];
  const widths = [1, 3, 1, 1, 1, 1.2];
  const rows: string[][] = [];
  for (const g of view.suppliers) {
    // The supplier's row names it in the wide name column (the code column would wrap it word by word).
    rows.push(['', g.supplier ? `${g.supplier.name} (${g.supplier.pib})` : w.noSupplier, '', '', '', '']);
    for (const i of g.items)
      rows.push([
        i.code,
        i.name,
        formatQuantity(i.onHandMilli),
        formatQuantity(i.minimumMilli),
        formatQuantity(i.orderMilli),
        i.purchasePara === null ? '' : formatRsd(i.purchasePara),
      ]);
  }
  return {
    title: w.reorderTitle,
    lines: [interpolate(w.date, { date: formatMoment(day, lang) })],
    columns: w.reorderHeader.map((header, i) => ({ header, width: widths[i] ?? 1, align: i < 2 ? 'left' : 'right' })),
    rows,
  };
}
