/**
 * Sales nobody could sign, until their fiscal receipt reaches the buyer (table late_receipts, migration 025;
 * docs/printing.md, "Sales nobody could sign").
 *
 * A sale that takes money and leaves the checkout unsigned (neither the gateway nor an L-PFR could sign it) is
 * recorded here with whether its slip was queued. When its fiscal receipt is issued later, the core prints it at
 * this till as a `late` job (never held for its age: the customer has left either way, and the receipt is kept
 * for them), or counts it e-mailed where the buyer gave an address (the gateway sends it with the receipt). It is
 * handed over once that job printed (in the print service's own transaction) or the e-mail went; until then the
 * manager sees it (`print.lateReceipts`) and can print it.
 */
import type Database from 'better-sqlite3';
import type { LateReceipt } from '../../shared/contract/printer.ts';

interface Row {
  order_id: number;
  order_number: string;
  total_para: number;
  sold_at: string;
  slip: 'printing' | 'none';
  state: LateReceipt['orderState'];
  invoice_number: string | null;
  fiscalized_at: string | null;
  data: string;
  job_state: string | null;
  job_error: string | null;
}

const WAITING_JOB = new Set(['queued', 'printing', 'sent', 'unconfirmed', 'failed']);

function cashierOf(data: string): string | null {
  try {
    const v: unknown = JSON.parse(data);
    const c = typeof v === 'object' && v !== null ? (v as { cashier?: unknown }).cashier : undefined;
    return typeof c === 'string' && c !== '' ? c : null;
  } catch {
    return null;
  }
}

/** The late_receipts rows and the manager's list. */
export function createLateReceipts(db: Database.Database) {
  const insert = db.prepare(`INSERT OR IGNORE INTO late_receipts (order_id, sold_at, slip) VALUES (?, ?, ?)`);
  const waiting = db.prepare<[number], { n: number }>(
    `SELECT COUNT(*) AS n FROM late_receipts WHERE order_id = ? AND handed_over IS NULL`,
  );
  const handOver = db.prepare(
    `UPDATE late_receipts SET handed_over = ?, handed_over_at = ? WHERE order_id = ? AND handed_over IS NULL`,
  );
  // The latest late job of each order tells whether it still waits at the printer.
  const list = db.prepare<[], Row>(
    `SELECT l.order_id, o.order_number, o.total_para, l.sold_at, l.slip, o.state, o.invoice_number, o.fiscalized_at,
            o.data, j.state AS job_state, j.last_error AS job_error
     FROM late_receipts l
     JOIN orders o ON o.id = l.order_id
     LEFT JOIN print_jobs j ON j.id =
       (SELECT MAX(id) FROM print_jobs WHERE order_id = l.order_id AND kind = 'late')
     WHERE l.handed_over IS NULL
     ORDER BY l.order_id
     LIMIT 500`,
  );
  return {
    /** The checkout left the sale unsigned: it waits for its fiscal receipt to reach the buyer. */
    record(orderId: number, soldAt: string, slip: 'printing' | 'none'): void {
      insert.run(orderId, soldAt, slip);
    },
    /** The sale was made unsigned and its receipt has not reached the buyer yet. */
    waiting(orderId: number): boolean {
      return (waiting.get(orderId)?.n ?? 0) > 0;
    },
    /** Its fiscal receipt was printed at this till, or e-mailed; false when it was not waiting. */
    handedOver(orderId: number, how: 'printed' | 'emailed', atIso: string): boolean {
      return handOver.run(how, atIso, orderId).changes === 1;
    },
    /** What the manager sees: every such sale not handed over yet, oldest first. */
    list(): LateReceipt[] {
      return list.all().map((r) => ({
        orderId: r.order_id,
        orderNumber: r.order_number,
        totalPara: r.total_para,
        soldAt: r.sold_at,
        cashier: cashierOf(r.data),
        slip: r.slip,
        orderState: r.state,
        invoiceNumber: r.invoice_number,
        issuedAt: r.fiscalized_at,
        job: r.job_state !== null && WAITING_JOB.has(r.job_state) ? (r.job_state as LateReceipt['job']) : null,
        lastError: r.job_error,
      }));
    },
  };
}

export type LateReceipts = ReturnType<typeof createLateReceipts>;
