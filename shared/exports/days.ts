/**
 * The turnover part of the bookkeeper's exports (docs/exports.md), the same at the till and at the hub: what one
 * order adds to its Belgrade day (the report's totals, split into advances and the rest for the journal, what a
 * final sale's advance refund closes, the refunds, advances and final sales as receipt rows), and the period's days,
 * total and journal days from the days' sums. Pure: the till reads its orders from SQLite (electron/exports/days.ts),
 * the hub from its database (hub/exports.ts).
 */
import type { ExportDay, ExportView } from '../contract/exports.ts';
import type { KepEntry } from '../contract/goods.ts';
import type { ReportView } from '../contract/reports.ts';
import {
  addOrders,
  emptyTotals,
  mergeTotals,
  orderTaxReceipts,
  type ReportOrder,
  type ReportTotals,
} from '../reports/totals.ts';
import { finishReport } from '../reports/view.ts';
import { receiptRow, type ReceiptRow } from '../reports/receipts.ts';
import { addReceiptTax, type LabelTax } from '../tax-summary.ts';
import type { JournalDay, LabelRow } from './journal.ts';

/** One Belgrade day's part of an export. */
export interface DayTotals {
  all: ReportTotals;
  /** The day's orders other than advances (the journal's sales). */
  other: ReportTotals;
  advance: ReportTotals;
  /** What the day's final sales' advance refunds close, by label, as the report signs it. */
  closed: LabelTax[];
  /** The day's refunds, advance receipts and final sales. */
  documents: ReceiptRow[];
}

export function emptyDay(): DayTotals {
  return { all: emptyTotals(), other: emptyTotals(), advance: emptyTotals(), closed: [], documents: [] };
}

/** Adds one order (as the report reads it) to its day. */
export function addToDay(
  d: DayTotals,
  order: ReportOrder,
  meta: { at: string; invoiceNumber: string | null; cashier: string; till: string },
): void {
  // The order as the report sums it, once; then added to the day and to the day's split for the journal.
  const one = addOrders(emptyTotals(), [{ ...order, hour: undefined, cashier: undefined }]);
  mergeTotals(d.all, one);
  mergeTotals(order.invoice_type === 'advance' ? d.advance : d.other, one);
  // A final sale's advance refund (its second receipt): what it closes, by label, as the report signs it.
  if (order.kind === 'finalize' && order.state === 'fiscalized' && (order.receipts?.length ?? 0) >= 2) {
    const paid = order.data.payments.reduce((s, p) => s + p.amountPara, 0);
    for (const r of orderTaxReceipts(order, paid).slice(1)) addReceiptTax(d.closed, r);
  }
  const refund = order.kind === 'refund' || order.kind === 'refund_full';
  if (refund || order.invoice_type === 'advance' || order.kind === 'finalize') {
    const r = receiptRow(order, meta);
    if (r) d.documents.push(r);
  }
}

/**
 * The period's turnover from its days' sums (`days` in order, each with its instants): the days with turnover, the
 * period's report, its documents and the journal's days.
 */
export function turnoverOf(
  days: readonly { day: string; from: string; to: string }[],
  byDay: ReadonlyMap<string, DayTotals>,
  rateOf: (label: string) => number | undefined,
  range: { from: string; to: string },
): { days: ExportDay[]; total: ReportView; documents: ReceiptRow[]; journalDays: JournalDay[] } {
  const labelRows = (t: ReportTotals, r: { from: string; to: string }): LabelRow[] =>
    finishReport(t, rateOf, r).byLabel.map((x) => ({
      label: x.label,
      rate: x.rate,
      grossPara: x.netPara,
      taxPara: x.taxPara,
    }));
  const all = emptyTotals();
  const out: ExportDay[] = [];
  const journalDays: JournalDay[] = [];
  const documents: ReceiptRow[] = [];
  for (const { day, from, to } of days) {
    const d = byDay.get(day);
    if (!d) continue;
    documents.push(...d.documents);
    mergeTotals(all, d.all);
    const dayRange = { from, to };
    const v = finishReport(d.all, rateOf, dayRange);
    if (v.sales.count + v.refunds.count + v.advances.count === 0) continue;
    out.push({
      day,
      salesPara: v.sales.totalPara,
      refundsPara: v.refunds.totalPara,
      advancesPara: v.advances.totalPara,
      grossPara: v.grossPara,
      taxPara: v.taxPara,
      byPayment: v.byPayment,
      byLabel: v.byLabel.map((x) => ({ label: x.label, rate: x.rate, grossPara: x.netPara, taxPara: x.taxPara })),
      notFiscalized: v.notFiscalized,
    });
    journalDays.push({
      day,
      payments: v.byPayment.map((p) => ({ type: p.type, netPara: p.netPara })),
      sales: labelRows(d.other, dayRange),
      advances: labelRows(d.advance, dayRange),
      advancesClosed: d.closed.map((x) => ({
        label: x.label,
        rate: x.rate ?? rateOf(x.label) ?? 0,
        grossPara: x.grossPara,
        taxPara: x.taxPara,
      })),
    });
  }
  return { days: out, total: finishReport(all, rateOf, range), documents, journalDays };
}

/** The export's KEP part from the book's period: opening, Σ debit, Σ credit, closing and the entries. */
export function kepPart(k: { openingPara: number; entries: KepEntry[]; closingPara: number }): ExportView['kep'] {
  return {
    openingPara: k.openingPara,
    debitPara: k.entries.reduce((s, e) => s + e.debitPara, 0),
    creditPara: k.entries.reduce((s, e) => s + e.creditPara, 0),
    closingPara: k.closingPara,
    entries: k.entries,
  };
}
