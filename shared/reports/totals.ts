/**
 * The part of a report that adds up order by order (reports.ts makes the report of it; report-days.ts
 * keeps one per closed day). Pure: no database.
 */
import type { OrderKind, OrderLine, OrderPayment, PaymentType } from '../domain.ts';
import { addReceiptTax, type LabelTax, type TaxReceipt } from '../tax-summary.ts';

/** What a report needs of an order's `data`. */
export interface OrderData {
  lines: OrderLine[];
  payments: OrderPayment[];
}

/** What a report needs of an issued receipt: its transaction type and the VAT it states. */
export interface ReceiptTaxes {
  transactionType?: string | undefined;
  taxItems?: readonly { label?: unknown; rate?: unknown; amount?: unknown }[] | null | undefined;
}

/** One order as a report sums it (the till's rows, or the store hub's copies of every till's). */
export interface ReportOrder {
  kind: OrderKind;
  invoice_type: string;
  state: string;
  total_para: number;
  data: OrderData;
  /** The order's issued receipts (a finalize has two: the final sale and the advance refund). */
  receipts?: readonly ReceiptTaxes[] | undefined;
  /** Issued under another tax-rate group than the one in force at capture (electron/orders/tax-group.ts). */
  taxGroupChanged?: boolean | undefined;
  /** The hour (0–23) of its creation in the shop's time zone: the by-hour bucket (none: not bucketed). */
  hour?: number | undefined;
  /** Who sold it (`data.cashier`): the by-cashier bucket (none: not bucketed; '' for nobody named). */
  cashier?: string | undefined;
}

/**
 * The part of a report that adds up order by order, so the totals of two periods merge into the totals
 * of both (report-days.ts keeps one per closed day). Payment types and labels keep the order in which
 * they first appeared.
 */
export interface ReportTotals {
  sales: { count: number; totalPara: number };
  refunds: { count: number; totalPara: number };
  advances: { count: number; totalPara: number };
  notFiscalized: number;
  trainingExcluded: number;
  payments: [PaymentType, { sales: number; refunds: number }][];
  /**
   * Gross per [label, rate, para] (refunds subtracted): the orders' receipts' totals split over their labels
   * (shared/tax-summary.ts); rate null where no receipt stated one (an order not signed yet). Adds up to the
   * gross. Absent in a day stored before it existed (such a day is summed again).
   */
  gross?: [string, number | null, number][];
  /** VAT per [label, rate, para]: the receipts' taxItems, refunds subtracted (shared/tax-summary.ts). */
  taxes?: [string, number, number][];
  /** Orders issued under another tax-rate group than the one at capture. */
  taxGroupChanged?: number;
  /**
   * Per hour of the day (shop's zone) and per cashier: the orders counted and their turnover (sales and
   * advances less refunds, the report's own figures). Absent in a day stored before they existed.
   */
  hours?: [number, Bucket][];
  cashiers?: [string, Bucket][];
}

/** A bucket of a breakdown: orders counted, and their turnover in para (refunds subtracted). */
export interface Bucket {
  count: number;
  para: number;
}

export const emptyTotals = (): ReportTotals => ({
  sales: { count: 0, totalPara: 0 },
  refunds: { count: 0, totalPara: 0 },
  advances: { count: 0, totalPara: 0 },
  notFiscalized: 0,
  trainingExcluded: 0,
  payments: [],
  gross: [],
  taxes: [],
  taxGroupChanged: 0,
  hours: [],
  cashiers: [],
});

function addBucket<K>(list: [K, Bucket][], key: K, count: number, para: number): void {
  const e = list.find((x) => x[0] === key);
  if (e) {
    e[1].count += count;
    e[1].para += para;
  } else list.push([key, { count, para: para === 0 ? 0 : para }]);
}

function addTax(t: ReportTotals, label: string, rate: number, para: number): void {
  const list = (t.taxes ??= []);
  const e = list.find((x) => x[0] === label && x[1] === rate);
  if (e) e[2] += para;
  else list.push([label, rate, para === 0 ? 0 : para]);
}

function addGross(t: ReportTotals, label: string, rate: number | null, para: number): void {
  const list = (t.gross ??= []);
  const e = list.find((x) => x[0] === label && x[1] === rate);
  if (e) e[2] += para;
  else list.push([label, rate, para === 0 ? 0 : para]);
}

const isRefund = (kind: OrderKind): boolean => kind === 'refund' || kind === 'refund_full';

/**
 * The receipts of an order as shared/tax-summary.ts sums them, each with the gross the report counts for it:
 * a signed order's receipts, each signed by its transaction type (its main receipt's items are the order's
 * lines; a finalize's advance refund cancels what the chain paid, its total less the new money), or, for an
 * order not signed yet (or signed with no receipt the report can read, or a finalize without its advance
 * refund), its lines without VAT.
 */
export function orderTaxReceipts(r: ReportOrder, contributionPara: number): TaxReceipt[] {
  const kindSign: 1 | -1 = isRefund(r.kind) ? -1 : 1;
  let receipts = r.state === 'fiscalized' ? (r.receipts ?? []) : [];
  // A finalize without its advance refund (not stored, or not pushed by an older till): its final sale alone
  // would count the advances' VAT twice, so it is counted as not signed: its gross by line label, no VAT.
  if (r.kind === 'finalize' && receipts.length < 2) receipts = [];
  if (!receipts.length)
    return [{ sign: kindSign, totalPara: Math.abs(contributionPara), taxItems: null, items: r.data.lines }];
  return receipts.map((receipt, i): TaxReceipt => {
    const tx = receipt.transactionType?.toLowerCase();
    const sign: 1 | -1 = tx === undefined ? (i === 0 ? kindSign : -1) : tx === 'refund' ? -1 : 1;
    return i === 0
      ? { sign, totalPara: r.total_para, taxItems: receipt.taxItems, items: r.data.lines }
      : { sign, totalPara: Math.max(0, r.total_para - Math.abs(contributionPara)), taxItems: receipt.taxItems };
  });
}

/** Adds the order's gross and VAT by label (shared/tax-summary.ts) to `t`. */
function addOrderTax(t: ReportTotals, r: ReportOrder, contributionPara: number): void {
  const rows: LabelTax[] = [];
  for (const receipt of orderTaxReceipts(r, contributionPara)) addReceiptTax(rows, receipt);
  for (const x of rows) {
    if (x.rate !== null) addTax(t, x.label, x.rate, x.taxPara);
    addGross(t, x.label, x.rate, x.grossPara);
  }
}

function entry<K, V>(list: [K, V][], key: K, init: () => V): V {
  const found = list.find((e) => e[0] === key);
  if (found) return found[1];
  const value = init();
  list.push([key, value]);
  return value;
}

/** Adds orders to `t` (in place) and returns it. */
export function addOrders(t: ReportTotals, rows: readonly ReportOrder[]): ReportTotals {
  const addPayments = (list: OrderPayment[], sign: 1 | -1): void => {
    for (const p of list) {
      const e = entry(t.payments, p.type, () => ({ sales: 0, refunds: 0 }));
      if (sign > 0) e.sales += p.amountPara;
      else e.refunds += p.amountPara;
    }
  };
  for (const r of rows) {
    if (r.invoice_type === 'training') {
      t.trainingExcluded++;
      continue;
    }
    if (r.invoice_type === 'proforma' || r.kind === 'copy') continue;
    if (r.state !== 'fiscalized') t.notFiscalized++;
    if (r.taxGroupChanged) t.taxGroupChanged = (t.taxGroupChanged ?? 0) + 1;
    const data = r.data;
    const before = t.sales.totalPara + t.advances.totalPara - t.refunds.totalPara;
    switch (r.kind) {
      case 'sale':
        if (r.invoice_type === 'advance') {
          t.advances.count++;
          t.advances.totalPara += r.total_para;
        } else {
          t.sales.count++;
          t.sales.totalPara += r.total_para;
        }
        addPayments(data.payments, 1);
        break;
      case 'finalize': {
        // The advance was counted when it was paid; only new money counts now.
        const paid = data.payments.reduce((s, p) => s + p.amountPara, 0);
        t.sales.count++;
        t.sales.totalPara += paid;
        addPayments(data.payments, 1);
        break;
      }
      case 'refund':
      case 'refund_full':
        t.refunds.count++;
        t.refunds.totalPara += r.total_para;
        addPayments(data.payments, -1);
        break;
      default:
        continue;
    }
    const turnover = t.sales.totalPara + t.advances.totalPara - t.refunds.totalPara - before;
    addOrderTax(t, r, turnover);
    if (r.hour !== undefined) addBucket((t.hours ??= []), r.hour, 1, turnover);
    if (r.cashier !== undefined) addBucket((t.cashiers ??= []), r.cashier, 1, turnover);
  }
  return t;
}

/** Adds `from`'s totals to `into` (in place) and returns it. */
export function mergeTotals(into: ReportTotals, from: ReportTotals): ReportTotals {
  for (const k of ['sales', 'refunds', 'advances'] as const) {
    into[k].count += from[k].count;
    into[k].totalPara += from[k].totalPara;
  }
  into.notFiscalized += from.notFiscalized;
  into.trainingExcluded += from.trainingExcluded;
  for (const [type, e] of from.payments) {
    const x = entry(into.payments, type, () => ({ sales: 0, refunds: 0 }));
    x.sales += e.sales;
    x.refunds += e.refunds;
  }
  for (const [label, rate, para] of from.gross ?? []) addGross(into, label, rate, para);
  for (const [label, rate, para] of from.taxes ?? []) addTax(into, label, rate, para);
  into.taxGroupChanged = (into.taxGroupChanged ?? 0) + (from.taxGroupChanged ?? 0);
  for (const [hour, b] of from.hours ?? []) addBucket((into.hours ??= []), hour, b.count, b.para);
  for (const [who, b] of from.cashiers ?? []) addBucket((into.cashiers ??= []), who, b.count, b.para);
  return into;
}
