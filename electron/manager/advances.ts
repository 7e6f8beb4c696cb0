/**
 * The advance chain (docs/advances.md) as the back office uses it: which advances may take a
 * further advance or the final receipt, and the chain as the manager's screen shows it. The reads of the
 * chain (which advances are open, the chain of one order, its refunds) are the order repository's
 * (orders/queries.ts); BackOfficeOrders captures.
 */
import { invalidInput } from '../errors.ts';
import type { OrderQueries } from '../orders/queries.ts';
import type { OrderRow } from '../orders/store.ts';
// Advances and final sales price their lines exactly as a checkout does.
export { priceLines } from '../sales/price-lines.ts';

export function isAdvance(row: OrderRow): boolean {
  return row.kind === 'sale' && row.invoice_type === 'advance';
}

/** Refuses an advance that is not open, naming why (field `orderId`). */
export function requireOpenAdvance(q: OrderQueries, row: OrderRow | undefined, id: number): OrderRow {
  if (!row || !isAdvance(row)) throw invalidInput('orderId', 'advance_not_open', { id });
  const closed = q.advanceClosed(row);
  if (closed) throw invalidInput('orderId', `advance_${closed}`, { id: row.invoice_number ?? row.order_number });
  return row;
}

/** The chain of an open advance for the manager's screen (first to last) and what it paid net of refunds. */
export function chainView(
  q: OrderQueries,
  head: OrderRow,
): {
  orderId: number;
  advances: { orderId: number; orderNumber: string; invoiceNumber?: string; totalPara: number; refundedPara: number }[];
  paidPara: number;
} {
  const advances = q.chainOf(head).map((r) => ({
    orderId: r.id,
    orderNumber: r.order_number,
    ...(r.invoice_number ? { invoiceNumber: r.invoice_number } : {}),
    totalPara: r.total_para,
    refundedPara: q.refundsAgainst(r).para,
  }));
  return { orderId: head.id, advances, paidPara: advances.reduce((s, a) => s + a.totalPara - a.refundedPara, 0) };
}
