/**
 * The advance chain (issue #21, docs/advances.md): which advances are open, the chain of advances of one
 * order (each further advance references the previous one), what the chain paid net of its refunds, and
 * whether an advance is closed (refunded, chained on, finalized). Reads only: BackOfficeOrders captures.
 *
 * Every query reads the partial indexes of migration 010: the advances index (rows of advances only), the
 * refunds-of probes and the finalize-of probe. The cost is the number of advances ever made, never the
 * whole history.
 */
import type { Db } from '../db/open.ts';
import { invalidInput } from '../errors.ts';
import type { OrderRow } from '../orders/store.ts';
// Advances and final sales price their lines exactly as a checkout does.
export { priceLines } from '../sales/price-lines.ts';

/** A refund counts against an advance in every state but a refused (parked) one. */
const LIVE_REFUND = `r.kind IN ('refund', 'refund_full') AND r.state <> 'needs_attention'`;

/**
 * Advances that may be open: not parked, not finalized, no further advance chained on them. Three walks of
 * the advances and final-receipt indexes (each once). Whether one was refunded is two index probes per
 * candidate with bound values (`openAdvanceRows`): a correlated probe is planned as a scan of every refund.
 */
export const OPEN_ADVANCES_SQL = `SELECT * FROM orders o
  WHERE o.kind = 'sale' AND o.invoice_type = 'advance' AND o.state <> 'needs_attention'
    AND o.id NOT IN (SELECT json_extract(f.data, '$.advanceOf.orderId') FROM orders f
                     WHERE f.kind = 'finalize' AND json_extract(f.data, '$.advanceOf.orderId') IS NOT NULL)
    AND o.id NOT IN (SELECT json_extract(n.data, '$.advanceChain.previousOrderId') FROM orders n
                     WHERE n.kind = 'sale' AND n.invoice_type = 'advance' AND n.state <> 'needs_attention'
                       AND json_extract(n.data, '$.advanceChain.previousOrderId') IS NOT NULL)
  ORDER BY o.id DESC`;

/** Open advances: the candidates of OPEN_ADVANCES_SQL with no refund (partial or full, any state but refused). */
export function openAdvanceRows(db: Db): OrderRow[] {
  return db
    .prepare<[], OrderRow>(OPEN_ADVANCES_SQL)
    .all()
    .filter((r) => refundsAgainst(db, r).count === 0);
}

const NEXT_SQL = `SELECT * FROM orders WHERE kind = 'sale' AND invoice_type = 'advance' AND state <> 'needs_attention'
  AND json_extract(data, '$.advanceChain.previousOrderId') = ? ORDER BY id LIMIT 1`;
const FINAL_SQL = `SELECT * FROM orders WHERE kind = 'finalize' AND json_extract(data, '$.advanceOf.orderId') = ? ORDER BY id LIMIT 1`;
export const REFUNDED_ID_SQL = `SELECT r.id, r.total_para FROM orders r WHERE ${LIVE_REFUND} AND json_extract(r.data, '$.refundOf.orderId') = ?`;
export const REFUNDED_INVOICE_SQL = `SELECT r.id, r.total_para FROM orders r WHERE ${LIVE_REFUND} AND json_extract(r.data, '$.refundOf.invoiceNumber') = ?`;

/** Why an advance is not open, or null when it is. */
export type AdvanceClosed = 'refunded' | 'finalized' | 'chained' | 'parked' | null;

interface ChainData {
  advanceChain?: { previousOrderId: number };
}

function chainData(row: OrderRow): ChainData {
  return JSON.parse(row.data) as ChainData;
}

export function isAdvance(row: OrderRow): boolean {
  return row.kind === 'sale' && row.invoice_type === 'advance';
}

/** The advances of the chain ending at `head`, first to last (each further advance references the previous one). */
export function chainOf(db: Db, head: OrderRow): OrderRow[] {
  const out: OrderRow[] = [head];
  const get = db.prepare<[number], OrderRow>('SELECT * FROM orders WHERE id = ?');
  let cur = head;
  for (let guard = 0; guard < 1000; guard++) {
    const prev = chainData(cur).advanceChain?.previousOrderId;
    const row = prev !== undefined ? get.get(prev) : undefined;
    if (!row) break;
    out.unshift(row);
    cur = row;
  }
  return out;
}

/** The last advance of the chain `row` belongs to (itself when nothing was chained on it). */
export function lastOfChain(db: Db, row: OrderRow): OrderRow {
  const next = db.prepare<[number], OrderRow>(NEXT_SQL);
  let cur = row;
  for (let guard = 0; guard < 1000; guard++) {
    const n = next.get(cur.id);
    if (!n) break;
    cur = n;
  }
  return cur;
}

/** The final sale (finalize order) of the chain `row` belongs to, if any. */
export function finalOfChain(db: Db, row: OrderRow): OrderRow | undefined {
  return db.prepare<[number], OrderRow>(FINAL_SQL).get(lastOfChain(db, row).id);
}

/** Refunds (not refused) of one order: by its id on this till and by its invoice number. */
export function refundsAgainst(db: Db, row: OrderRow): { count: number; para: number } {
  const found = new Map<number, number>();
  for (const r of db.prepare<[number], { id: number; total_para: number }>(REFUNDED_ID_SQL).all(row.id))
    found.set(r.id, r.total_para);
  if (row.invoice_number) {
    for (const r of db
      .prepare<[string], { id: number; total_para: number }>(REFUNDED_INVOICE_SQL)
      .all(row.invoice_number))
      found.set(r.id, r.total_para);
  }
  let para = 0;
  for (const v of found.values()) para += v;
  return { count: found.size, para };
}

/** Why `row` (an advance) is not open for a further advance or the final receipt; null when it is. */
export function advanceClosed(db: Db, row: OrderRow): AdvanceClosed {
  if (row.state === 'needs_attention') return 'parked';
  if (db.prepare<[number], OrderRow>(FINAL_SQL).get(row.id)) return 'finalized';
  if (db.prepare<[number], OrderRow>(NEXT_SQL).get(row.id)) return finalOfChain(db, row) ? 'finalized' : 'chained';
  if (refundsAgainst(db, row).count > 0) return 'refunded';
  return null;
}

/** Refuses an advance that is not open, naming why (field `orderId`). */
export function requireOpenAdvance(db: Db, row: OrderRow | undefined, id: number): OrderRow {
  if (!row || !isAdvance(row)) throw invalidInput('orderId', 'advance_not_open', { id });
  const closed = advanceClosed(db, row);
  if (closed) throw invalidInput('orderId', `advance_${closed}`, { id: row.invoice_number ?? row.order_number });
  return row;
}

/** What the chain ending at `head` paid: its advances minus their refunds, in para. */
export function chainPaidPara(db: Db, head: OrderRow): { chain: OrderRow[]; paidPara: number } {
  const chain = chainOf(db, head);
  const paidPara = chain.reduce((s, r) => s + r.total_para - refundsAgainst(db, r).para, 0);
  return { chain, paidPara };
}

/** The chain of an open advance for the manager's screen (first to last) and what it paid net of refunds. */
export function chainView(
  db: Db,
  head: OrderRow,
): {
  orderId: number;
  advances: { orderId: number; orderNumber: string; invoiceNumber?: string; totalPara: number; refundedPara: number }[];
  paidPara: number;
} {
  const advances = chainOf(db, head).map((r) => ({
    orderId: r.id,
    orderNumber: r.order_number,
    ...(r.invoice_number ? { invoiceNumber: r.invoice_number } : {}),
    totalPara: r.total_para,
    refundedPara: refundsAgainst(db, r).para,
  }));
  return { orderId: head.id, advances, paidPara: advances.reduce((s, a) => s + a.totalPara - a.refundedPara, 0) };
}
