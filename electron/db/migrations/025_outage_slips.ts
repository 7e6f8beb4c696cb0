import type { Migration } from '../open.ts';
import { printJobsTable } from './014_print_truth.ts';

/**
 * An outage without an L-PFR (docs/printing.md, "Sales nobody could sign"):
 * - print_jobs learns the kind `late`: the fiscal receipt of a sale that was made while nothing could sign it,
 *   printed when it is issued later. Never held for its age (the customer has left either way: the receipt is
 *   kept for them at the till), so it needs a kind of its own. SQLite cannot change a CHECK in place: the table
 *   is rebuilt as migration 014 did (copied aside, dropped, created, copied back; no RENAME, no TEMP table).
 * - late_receipts: one row per such sale, written at the checkout that left it unsigned. `slip`: whether the
 *   non-fiscal slip was queued for the customer (`printing`) or no printer was set (`none`). `handed_over`: how
 *   its fiscal receipt reached the buyer once issued (`printed` at this till, or `emailed` by the gateway to
 *   the address the buyer gave), NULL while it still waits: the manager's list (print.lateReceipts).
 */
export const m025: Migration = {
  name: 'outage_slips',
  up(db) {
    db.exec(`
      CREATE TABLE print_jobs_before_025 AS SELECT * FROM print_jobs;
      DROP TABLE print_jobs;
      ${printJobsTable(`'receipt','test','slip','late'`)}
      INSERT INTO print_jobs
        (id, order_id, kind, payload, state, attempts, next_attempt_at, last_error, created_at, printed_at, sent_at,
         released)
        SELECT id, order_id, kind, payload, state, attempts, next_attempt_at, last_error, created_at, printed_at,
               sent_at, released
        FROM print_jobs_before_025;
      DROP TABLE print_jobs_before_025;
      CREATE INDEX print_jobs_due ON print_jobs(state, next_attempt_at);
      CREATE INDEX print_jobs_order ON print_jobs(order_id);

      CREATE TABLE late_receipts (
        order_id INTEGER PRIMARY KEY REFERENCES orders(id),
        sold_at TEXT NOT NULL,
        slip TEXT NOT NULL CHECK (slip IN ('printing', 'none')),
        handed_over TEXT CHECK (handed_over IN ('printed', 'emailed')),
        handed_over_at TEXT
      ) STRICT;
      CREATE INDEX late_receipts_waiting ON late_receipts(handed_over) WHERE handed_over IS NULL;
    `);
  },
};
