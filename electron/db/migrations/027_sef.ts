import type { Migration } from '../open.ts';

/**
 * E-invoices through SEF (docs/sef.md). The merge renumbers this file to its position (its version).
 * - sef_documents: the SEF outbox, one row per document and at most one per order (the unique index: an order's
 *   e-invoice is made once, whoever asks twice). `request_id` is SEF's idempotency key, fixed when the row is made
 *   and changed only by a manager's retry of a document SEF refused (nothing was made at SEF then). `xml` is frozen
 *   at the first send (the buyer looked up in SEF's register first) and resent byte for byte. `in_doubt`: an
 *   attempt started and its answer never came (a crash, a lost answer): the next pass looks the request up before
 *   anything is sent again. `state`: queued → sent → accepted | rejected (the buyer) | cancelled | storno, or
 *   refused (SEF's validation, with its errors in `last_error`).
 * - sef_purchase_invoices: an incoming invoice made into a goods receipt draft, once per SEF purchase invoice id.
 */
export const m027: Migration = {
  name: 'sef',
  up(db) {
    db.exec(`
      CREATE TABLE sef_documents (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES orders(id),
        kind TEXT NOT NULL CHECK (kind IN ('invoice', 'advance', 'credit_note')),
        number TEXT NOT NULL,
        buyer_id TEXT NOT NULL,
        buyer_name TEXT,
        total_para INTEGER NOT NULL,
        request_id TEXT NOT NULL UNIQUE,
        xml TEXT,
        state TEXT NOT NULL CHECK (state IN
          ('queued', 'sent', 'accepted', 'rejected', 'cancelled', 'storno', 'refused')),
        sef_comment TEXT,
        invoice_id INTEGER,
        sales_invoice_id INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        in_doubt INTEGER NOT NULL DEFAULT 0 CHECK (in_doubt IN (0, 1)),
        -- Epoch milliseconds: not tried (sent, looked up or polled) before then.
        due_at INTEGER NOT NULL,
        last_error TEXT,
        auto INTEGER NOT NULL DEFAULT 0 CHECK (auto IN (0, 1)),
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX sef_documents_order ON sef_documents(order_id);
      CREATE INDEX sef_documents_due ON sef_documents(state, due_at);

      CREATE TABLE sef_purchase_invoices (
        sef_id INTEGER PRIMARY KEY,
        receipt_id INTEGER NOT NULL,
        supplier_pib TEXT NOT NULL,
        number TEXT NOT NULL,
        fetched_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
