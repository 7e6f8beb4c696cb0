/**
 * An order's own share of every report, computed once in JavaScript when the hub stores it (and for orders
 * stored before, on first need) with the till's arithmetic (shared/reports/totals.ts `addOrders`), kept in
 * `orders.facts` as a flat list the database sums: reports add up facts in SQL (hub/reports.ts), never orders'
 * JSON. Summing the facts of many orders in their order is `mergeTotals` of their totals, which is
 * `addOrders` of them all: the same report, exactly.
 *
 * A fact is `[kind, key, rate, a, b]`:
 * - `o`: the order counts (a = 1; its group exists and is ordered by its first order);
 * - `x`: the order cannot be read with the till's order shape (left out of every sum, counted);
 * - `sales` / `refunds` / `advances`: a = count, b = para; `nf` not fiscalized, `tr` training, `tg` tax group
 *   changed: a = count;
 * - `p`: a payment type (a = sales, b = refunds); `g`: gross by label (key label, rate or null; a = para, refunds
 *   negative; shared/tax-summary.ts); `t`: VAT (key label, rate; a = para); `r`: a receipt's stated rate of a
 *   label (the report's rate where no VAT of it was counted); (`l`, the gross by line label, is no longer made);
 *   `s`: the processor that signed a fiscalized order (key `gateway` or `lpfr`; a = 1, b = its turnover:
 *   sales and advances less refunds, the report's own figures; docs/lpfr.md);
 * - `pr` / `pd`: a sale's or a refund's lines by the price list or promotion that priced them (key `list\tname` or
 *   `promotion\tname`, '' for none: „без акције“): `pr` a = lines, b = quantity (thousandths); `pd` a = the lines'
 *   turnover, b = their discount (para); a refund's negative (docs/prices.md "Reports by promotion").
 */
import { addOrders, emptyTotals, type OrderData, type ReportOrder } from '../shared/reports/totals.ts';
import { isLpfrInvoiceNumber, type OrderKind } from '../shared/domain.ts';
import { OrderDataSchema, OrderReceiptData } from '../shared/order-data.ts';
import { z } from 'zod';
import type { Queryable } from './db/db.ts';

export type Fact = [kind: string, key: string, rate: number | null, a: number, b: number];

/** An order as the hub stores it: the columns a report reads. */
export interface FactRow {
  kind: OrderKind;
  invoice_type: string;
  state: string;
  total_para: number;
  data: unknown;
  receipt: unknown;
  invoice_number?: string | null;
  /** As the till recorded it (till migration 019); older tills send none: then the invoice number tells. */
  processor?: string | null;
  /** The order's other receipts: a finalize's advance refund (till migration 024); older tills send none. */
  extra_receipts?: unknown;
}

/** Which processor signed a fiscalized order: the till's word, else its invoice number's form. */
export function processorOf(row: Pick<FactRow, 'state' | 'invoice_number' | 'processor'>): 'gateway' | 'lpfr' | null {
  if (row.state !== 'fiscalized' || !row.invoice_number) return null;
  if (row.processor === 'gateway' || row.processor === 'lpfr') return row.processor;
  return isLpfrInvoiceNumber(row.invoice_number) ? 'lpfr' : 'gateway';
}

interface HubReceipt {
  taxItems?: { label?: unknown; rate?: unknown; amount?: unknown }[] | null;
  transactionType?: string;
  additional?: { taxGroupRevision?: unknown } | null;
}

/** A hub row as the till's report sums it: VAT from its receipts' taxItems, the tax-group note. */
export function reportOrder(
  r: FactRow & { data: OrderData; receipt: HubReceipt | null; extra_receipts?: HubReceipt[] | null | undefined },
): ReportOrder {
  const captured = (r.data as { taxGroup?: { groupId?: unknown } }).taxGroup?.groupId;
  const issued = r.receipt?.additional?.taxGroupRevision;
  return {
    kind: r.kind,
    invoice_type: r.invoice_type,
    state: r.state,
    total_para: r.total_para,
    data: r.data,
    // The receipts as the till reads them (electron/manager/report-days.ts): the receipt, then the extra ones (a
    // finalize's advance refund). A finalize from a till that does not send its advance refund yet: its final
    // sale alone would count the advances' VAT twice, so it adds its gross by line label and no VAT.
    receipts: !r.receipt
      ? []
      : r.kind === 'finalize' && !r.extra_receipts?.length
        ? []
        : [r.receipt, ...(r.extra_receipts ?? [])],
    taxGroupChanged:
      r.state === 'fiscalized' && captured != null && issued != null && String(captured) !== String(issued),
  };
}

/** The facts of one order (see the module's comment). */
export function orderFacts(row: FactRow): Fact[] {
  const receipt = row.receipt ?? null;
  const extra = row.extra_receipts ?? null;
  if (
    !OrderDataSchema.safeParse(row.data).success ||
    (receipt !== null && !OrderReceiptData.safeParse(receipt).success) ||
    (extra !== null && !z.array(OrderReceiptData).safeParse(extra).success)
  )
    return [['x', '', null, 1, 0]];
  const r = {
    ...row,
    data: row.data as OrderData,
    receipt: receipt as HubReceipt | null,
    extra_receipts: extra as HubReceipt[] | null,
  };
  const t = addOrders(emptyTotals(), [reportOrder(r)]);
  const out: Fact[] = [['o', '', null, 1, 0]];
  for (const k of ['sales', 'refunds', 'advances'] as const)
    if (t[k].count) out.push([k, '', null, t[k].count, t[k].totalPara]);
  if (t.notFiscalized) out.push(['nf', '', null, t.notFiscalized, 0]);
  if (t.trainingExcluded) out.push(['tr', '', null, t.trainingExcluded, 0]);
  if (t.taxGroupChanged) out.push(['tg', '', null, t.taxGroupChanged, 0]);
  for (const [type, e] of t.payments) out.push(['p', type, null, e.sales, e.refunds]);
  for (const [label, rate, para] of t.gross ?? []) out.push(['g', label, rate, para, 0]);
  for (const [label, rate, para] of t.taxes ?? []) out.push(['t', label, rate, para, 0]);
  const processor = processorOf(row);
  if (processor) out.push(['s', processor, null, 1, t.sales.totalPara + t.advances.totalPara - t.refunds.totalPara]);
  // The rate a receipt states for a label, the last one of the order (the report takes the period's last).
  const rates = new Map<string, number>();
  for (const item of r.receipt?.taxItems ?? [])
    if (typeof item.label === 'string' && typeof item.rate === 'number') {
      rates.delete(item.label);
      rates.set(item.label, item.rate);
    }
  for (const [label, rate] of rates) out.push(['r', label, rate, 0, 0]);
  out.push(...promotionFacts(row, r.data));
  return out;
}

/** Which rule priced a line, as a fact's key: `kind\tname`, '' for none. */
export function promotionKey(line: { priceRule?: unknown; priceRuleKind?: unknown }): string {
  if (typeof line.priceRule !== 'string' || line.priceRule === '') return '';
  return `${line.priceRuleKind === 'list' ? 'list' : 'promotion'}\t${line.priceRule}`;
}

/**
 * A counted sale's or refund's lines by the rule that priced them (`pr`, `pd`), as the report sums its turnover:
 * a sale adds, a refund subtracts; advances, finalizes, proformas, training and copies are not broken down.
 */
function promotionFacts(row: FactRow, data: OrderData): Fact[] {
  if (row.invoice_type === 'training' || row.invoice_type === 'proforma' || row.invoice_type === 'advance') return [];
  const sign = row.kind === 'sale' ? 1 : row.kind === 'refund' || row.kind === 'refund_full' ? -1 : 0;
  if (sign === 0) return [];
  const by = new Map<string, [lines: number, qty: number, total: number, discount: number]>();
  for (const l of data.lines) {
    const key = promotionKey(l);
    const e = by.get(key) ?? [0, 0, 0, 0];
    e[0] += sign;
    e[1] += sign * l.quantityMilli;
    e[2] += sign * l.totalPara;
    e[3] += sign * (l.discountPara ?? 0);
    by.set(key, e);
  }
  return [...by].flatMap(([key, [lines, qty, total, discount]]): Fact[] => [
    ['pr', key, null, lines, qty],
    ['pd', key, null, total, discount],
  ]);
}

/**
 * Computes the facts of the orders created in [from, to) that have none yet (stored before migration 010),
 * a page at a time. Returns how many it computed.
 */
export async function fillFacts(db: Queryable, from: string | null, to: string | null): Promise<number> {
  let done = 0;
  for (;;) {
    const rows = await db.query<FactRow & { till_id: number; order_number: string }>(
      `SELECT till_id, order_number, kind, invoice_type, state, total_para, data, receipt, extra_receipts, invoice_number
         FROM orders
        WHERE facts IS NULL AND ($1::timestamptz IS NULL OR created_at >= $1) AND ($2::timestamptz IS NULL OR created_at < $2)
        LIMIT 500`,
      [from, to],
    );
    if (!rows.length) return done;
    await db.query(
      `UPDATE orders o SET facts = f.facts FROM
         (SELECT * FROM unnest($1::int4[], $2::text[], $3::jsonb[]) AS u(till_id, order_number, facts)) f
        WHERE o.till_id = f.till_id AND o.order_number = f.order_number`,
      [rows.map((r) => r.till_id), rows.map((r) => r.order_number), rows.map((r) => JSON.stringify(orderFacts(r)))],
    );
    done += rows.length;
  }
}
