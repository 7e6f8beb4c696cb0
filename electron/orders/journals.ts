/**
 * The orders whose stored receipt came without its journal, and completing one once the archive has it
 * (outbox/journal.ts fetches it). The orders table has one writer, this folder: the fetcher only asks.
 */
import type { Db } from '../db/open.ts';

export interface MissingJournal {
  id: number;
  order_number: string;
  invoice_number: string;
}

export interface ReceiptJournals {
  /** Fiscalized orders among the newest `recent` whose stored receipt has no journal, oldest first. */
  missing(recent: number): MissingJournal[];
  /** Stores the journal in the order's receipt, unless one is there already. */
  complete(orderId: number, journal: string): void;
}

export function receiptJournals(db: Db): ReceiptJournals {
  // Only the newest orders are scanned (a primary-key range, never the whole history): a receipt without
  // journal is fetched or handed to a person long before that many newer sales exist.
  const select = db.prepare<[number], MissingJournal>(
    `SELECT id, order_number, invoice_number FROM orders
      WHERE id > (SELECT coalesce(max(id), 0) FROM orders) - ?
        AND state = 'fiscalized' AND receipt IS NOT NULL AND invoice_number IS NOT NULL
        AND trim(coalesce(json_extract(receipt, '$.journal'), '')) = ''
      ORDER BY id`,
  );
  const complete = db.prepare(
    `UPDATE orders SET receipt = json_set(receipt, '$.journal', ?) WHERE id = ?
        AND trim(coalesce(json_extract(receipt, '$.journal'), '')) = ''`,
  );
  return {
    missing: (recent) => select.all(recent),
    complete: (orderId, journal) => void complete.run(journal, orderId),
  };
}
