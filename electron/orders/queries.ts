/**
 * The back office's reads of the order history: the advance chain, earlier refunds of an original, the
 * local archive, the seller's newest receipt, orders issued under another tax group. They live beside the
 * repository (store.ts) so that no other module needs the database handle of the orders; the store hands
 * them out as `OrderStore.queries`.
 *
 * Every query here is an index range over migrations 007, 010 and 012 (bench/history.bench.ts measures
 * them on a 300,000-order till, test/electron/history.test.ts checks their plans): the SQL text is what
 * those indexes were built for, so a change to it is a change to the plans.
 */
import type { Db } from '../db/open.ts';
import { TAX_GROUP_CHANGED_WHERE } from './tax-group.ts';
import { countUpTo, type OrderRow } from './store.ts';

/** A refund counts against an advance in every state but a refused (parked) one. */
const LIVE_REFUND = `r.kind IN ('refund', 'refund_full') AND r.state <> 'needs_attention'`;

/**
 * Advances that may be open: not parked, not finalized, no further advance chained on them. Three walks of
 * the advances and final-receipt indexes (each once). Whether one was refunded is two index probes per
 * candidate with bound values (`openAdvances`): a correlated probe is planned as a scan of every refund.
 */
export const OPEN_ADVANCES_SQL = `SELECT * FROM orders o
  WHERE o.kind = 'sale' AND o.invoice_type = 'advance' AND o.state <> 'needs_attention'
    AND o.id NOT IN (SELECT json_extract(f.data, '$.advanceOf.orderId') FROM orders f
                     WHERE f.kind = 'finalize' AND json_extract(f.data, '$.advanceOf.orderId') IS NOT NULL)
    AND o.id NOT IN (SELECT json_extract(n.data, '$.advanceChain.previousOrderId') FROM orders n
                     WHERE n.kind = 'sale' AND n.invoice_type = 'advance' AND n.state <> 'needs_attention'
                       AND json_extract(n.data, '$.advanceChain.previousOrderId') IS NOT NULL)
  ORDER BY o.id DESC`;

const NEXT_SQL = `SELECT * FROM orders WHERE kind = 'sale' AND invoice_type = 'advance' AND state <> 'needs_attention'
  AND json_extract(data, '$.advanceChain.previousOrderId') = ? ORDER BY id LIMIT 1`;
// Each string is one line of SQL split at a space, so the text is the one the indexes were planned for.
const FINAL_SQL =
  `SELECT * FROM orders WHERE kind = 'finalize' ` +
  `AND json_extract(data, '$.advanceOf.orderId') = ? ORDER BY id LIMIT 1`;
export const REFUNDED_ID_SQL =
  `SELECT r.id, r.total_para FROM orders r WHERE ${LIVE_REFUND} ` +
  `AND json_extract(r.data, '$.refundOf.orderId') = ?`;
export const REFUNDED_INVOICE_SQL =
  `SELECT r.id, r.total_para FROM orders r WHERE ${LIVE_REFUND} ` +
  `AND json_extract(r.data, '$.refundOf.invoiceNumber') = ?`;

/**
 * Refunds already made of an original, by its order id (this till) or its invoice number (another till,
 * the archive): each a probe of a partial index of migration 010 (only refunds are in it).
 */
export const REFUNDS_OF_ID_SQL = `SELECT id, data FROM orders
  WHERE kind IN ('refund', 'refund_full') AND json_extract(data, '$.refundOf.orderId') = ?`;
export const REFUNDS_OF_INVOICE_SQL = `SELECT id, data FROM orders
  WHERE kind IN ('refund', 'refund_full') AND json_extract(data, '$.refundOf.invoiceNumber') = ?`;

/** Why an advance is not open, or null when it is. */
export type AdvanceClosed = 'refunded' | 'finalized' | 'chained' | 'parked' | null;

/** The local archive's filters (the gateway archive's, dates on creation time). */
export interface ArchiveFilters {
  page?: number | undefined;
  limit?: number | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  orderNumber?: string | undefined;
  invoiceNumber?: string | undefined;
  invoiceType?: string | undefined;
  transactionType?: string | undefined;
  paymentType?: string | undefined;
}

interface ChainData {
  advanceChain?: { previousOrderId: number };
}

function chainData(row: OrderRow): ChainData {
  return JSON.parse(row.data) as ChainData;
}

/**
 * The ids of orders issued under another group, newest first, and how many there are. `INDEXED BY`:
 * the planner would otherwise take `orders_state` (every fiscalized order); with it SQLite reads only
 * the partial index, and refuses the query outright should the WHERE ever stop matching the index.
 */
export function taxGroupChangedIds(db: Db, limit: number, offset: number): { ids: number[]; total: number } {
  const ids = db
    .prepare<[number, number], { id: number }>(
      `SELECT id FROM orders INDEXED BY orders_tax_group_changed WHERE ${TAX_GROUP_CHANGED_WHERE} ` +
        `ORDER BY id DESC LIMIT ? OFFSET ?`,
    )
    .all(limit, offset)
    .map((r) => r.id);
  const total =
    db
      .prepare<[], { n: number }>(
        `SELECT count(*) AS n FROM orders INDEXED BY orders_tax_group_changed WHERE ${TAX_GROUP_CHANGED_WHERE}`,
      )
      .get()?.n ?? 0;
  return { ids, total };
}

export class OrderQueries {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  // ---- the advance chain (docs/advances.md) ---------------------------------------------------------

  /** Open advances: the candidates of OPEN_ADVANCES_SQL with no refund (partial or full, any state but refused). */
  openAdvances(): OrderRow[] {
    return this.#db
      .prepare<[], OrderRow>(OPEN_ADVANCES_SQL)
      .all()
      .filter((r) => this.refundsAgainst(r).count === 0);
  }

  /** The advances of the chain ending at `head`, first to last (each further advance references the previous one). */
  chainOf(head: OrderRow): OrderRow[] {
    const out: OrderRow[] = [head];
    const get = this.#db.prepare<[number], OrderRow>('SELECT * FROM orders WHERE id = ?');
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
  lastOfChain(row: OrderRow): OrderRow {
    const next = this.#db.prepare<[number], OrderRow>(NEXT_SQL);
    let cur = row;
    for (let guard = 0; guard < 1000; guard++) {
      const n = next.get(cur.id);
      if (!n) break;
      cur = n;
    }
    return cur;
  }

  /** The final sale (finalize order) of the chain `row` belongs to, if any. */
  finalOfChain(row: OrderRow): OrderRow | undefined {
    return this.#db.prepare<[number], OrderRow>(FINAL_SQL).get(this.lastOfChain(row).id);
  }

  /** Refunds (not refused) of one order: by its id on this till and by its invoice number. */
  refundsAgainst(row: OrderRow): { count: number; para: number } {
    const db = this.#db;
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
  advanceClosed(row: OrderRow): AdvanceClosed {
    const db = this.#db;
    if (row.state === 'needs_attention') return 'parked';
    if (db.prepare<[number], OrderRow>(FINAL_SQL).get(row.id)) return 'finalized';
    if (db.prepare<[number], OrderRow>(NEXT_SQL).get(row.id)) return this.finalOfChain(row) ? 'finalized' : 'chained';
    if (this.refundsAgainst(row).count > 0) return 'refunded';
    return null;
  }

  /** What the chain ending at `head` paid: its advances minus their refunds, in para. */
  chainPaidPara(head: OrderRow): { chain: OrderRow[]; paidPara: number } {
    const chain = this.chainOf(head);
    const paidPara = chain.reduce((s, r) => s + r.total_para - this.refundsAgainst(r).para, 0);
    return { chain, paidPara };
  }

  // ---- refunds and originals -----------------------------------------------------------------------

  /**
   * Earlier refunds of an original (every state: a parked refund may still be resent), oldest first. Two
   * probes of partial indexes (migration 010), one per way a refund names its original; an OR of both
   * would walk every refund ever made.
   */
  refundsOf(q: { orderId?: number | undefined; invoiceNumber?: string | undefined }): { id: number; data: string }[] {
    const db = this.#db;
    const byId = db.prepare<[number], { id: number; data: string }>(REFUNDS_OF_ID_SQL);
    const byInvoice = db.prepare<[string], { id: number; data: string }>(REFUNDS_OF_INVOICE_SQL);
    const found = new Map<number, string>();
    if (q.orderId !== undefined) for (const r of byId.all(q.orderId)) found.set(r.id, r.data);
    if (q.invoiceNumber !== undefined) for (const r of byInvoice.all(q.invoiceNumber)) found.set(r.id, r.data);
    return [...found.entries()].sort((a, b) => a[0] - b[0]).map(([id, data]) => ({ id, data }));
  }

  /** The first order with this invoice number, else the first with this order number. */
  byInvoiceOrOrderNumber(key: string): OrderRow | undefined {
    return (
      this.#db
        .prepare<[string], OrderRow>('SELECT * FROM orders WHERE invoice_number = ? ORDER BY id LIMIT 1')
        .get(key) ??
      this.#db.prepare<[string], OrderRow>('SELECT * FROM orders WHERE order_number = ? ORDER BY id LIMIT 1').get(key)
    );
  }

  /** The newest stored receipt (JSON) of this till, or undefined before its first. */
  newestReceipt(): string | undefined {
    return this.#db
      .prepare<[], { receipt: string }>('SELECT receipt FROM orders WHERE receipt IS NOT NULL ORDER BY id DESC LIMIT 1')
      .get()?.receipt;
  }

  // ---- the archive ---------------------------------------------------------------------------------

  /**
   * Local orders, newest first, filtered like the gateway archive (dates on creation time). Every filter
   * is an index range (migration 007): order number exact or prefix on its UNIQUE index, invoice number on
   * `orders_invoice`, dates on `orders_created`, payment type on `order_payments`. The total is counted
   * up to `COUNT_CAP` rows past the page asked for, so a search over years of history stays bounded.
   */
  archive(f: ArchiveFilters, limit: number, offset: number): { rows: OrderRow[]; total: number } {
    const where: string[] = [];
    const args: (string | number)[] = [];
    let from = 'orders';
    if (f.paymentType) {
      from = 'order_payments p JOIN orders ON orders.id = p.order_id';
      where.push('p.type = ?');
      args.push(f.paymentType);
    }
    if (f.startDate) {
      where.push('created_at >= ?');
      args.push(new Date(f.startDate).toISOString());
    }
    if (f.endDate) {
      where.push('created_at <= ?');
      args.push(new Date(f.endDate).toISOString());
    }
    if (f.orderNumber) {
      // Exact or prefix ("T1-20260301" = that till's day): a range on the UNIQUE index.
      where.push('order_number >= ? AND order_number < ?');
      args.push(f.orderNumber, `${f.orderNumber}\uffff`);
    }
    if (f.invoiceNumber) {
      where.push('invoice_number = ?');
      args.push(f.invoiceNumber);
    }
    if (f.invoiceType) {
      where.push('invoice_type = ?');
      args.push(f.invoiceType);
    }
    if (f.transactionType) {
      where.push('transaction_type = ?');
      args.push(f.transactionType);
    }
    const sql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const db = this.#db;
    // Each order walks the index the filter ranges over, so no sort and no scan: a number search goes
    // down the order-number index (newest day first), a payment type down order_payments (type, order_id),
    // a date range down orders_created, else the newest ids first.
    const order = f.orderNumber
      ? 'order_number DESC'
      : f.paymentType
        ? 'p.order_id DESC'
        : f.startDate || f.endDate
          ? 'created_at DESC, orders.id DESC'
          : 'orders.id DESC';
    // Payment type alone: counted on order_payments' own key, without reading an order row per match.
    const countFrom = f.paymentType && where.length === 1 ? 'order_payments p' : from;
    const total = countUpTo(db, `SELECT 1 FROM ${countFrom} ${sql}`, args, offset);
    const rows = db
      .prepare<unknown[], OrderRow>(`SELECT orders.* FROM ${from} ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...args, limit, offset);
    return { rows, total };
  }

  /** The local order with this invoice number, if any. */
  byInvoice(invoiceNumber: string): OrderRow | undefined {
    return this.#db
      .prepare<[string], OrderRow>('SELECT * FROM orders WHERE invoice_number = ? LIMIT 1')
      .get(invoiceNumber);
  }

  /** The id of the local order with this invoice number, if any (without reading its row). */
  idByInvoice(invoiceNumber: string): number | undefined {
    return this.#db
      .prepare<[string], { id: number }>('SELECT id FROM orders WHERE invoice_number = ? LIMIT 1')
      .get(invoiceNumber)?.id;
  }

  /**
   * Fiscalized refunds the L-PFR signed since `sinceIso` (refund-copy.ts: those that may still lack their fiscal
   * copy after a stop). created_at is indexed: the cost does not grow with history.
   */
  lpfrRefundIdsSince(sinceIso: string): number[] {
    return this.#db
      .prepare<[string], { id: number }>(
        `SELECT id FROM orders WHERE created_at >= ? AND kind IN ('refund', 'refund_full') AND processor = 'lpfr'
           AND state = 'fiscalized'`,
      )
      .all(sinceIso)
      .map((r) => r.id);
  }

  // ---- tax groups ----------------------------------------------------------------------------------

  /** Orders issued under another tax-rate group than the one at capture (tax-group.ts). */
  taxGroupChangedIds(limit: number, offset: number): { ids: number[]; total: number } {
    return taxGroupChangedIds(this.#db, limit, offset);
  }
}
