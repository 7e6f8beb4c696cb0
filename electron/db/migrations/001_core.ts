import type { Migration } from '../open.ts';

/**
 * The core: settings, cached tax rates, the order sequence, orders with their frozen gateway request,
 * the outbox, the attempt journal and the audit log.
 */
export const m001: Migration = {
  name: 'core',
  up(db) {
    db.exec(`
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

      CREATE TABLE tax_rates (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        group_id INTEGER NOT NULL,
        valid_from TEXT NOT NULL,
        body TEXT NOT NULL,
        fetched_at TEXT NOT NULL
      ) STRICT;

      -- Last sequence number handed out per terminal and day; order numbers are never reused.
      CREATE TABLE order_sequence (prefix TEXT PRIMARY KEY, last INTEGER NOT NULL) STRICT;

      CREATE TABLE orders (
        id INTEGER PRIMARY KEY,
        order_number TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('sale','refund','refund_full','finalize','copy')),
        invoice_type TEXT NOT NULL,
        transaction_type TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued','fiscalized','needs_attention')),
        created_at TEXT NOT NULL,
        total_para INTEGER NOT NULL,
        change_para INTEGER NOT NULL DEFAULT 0,
        data TEXT NOT NULL,
        -- The gateway request body, frozen: resent byte for byte. NULL while it waits for a dependency.
        request TEXT,
        depends_on INTEGER REFERENCES orders(id),
        invoice_number TEXT,
        sdc_date_time TEXT,
        receipt TEXT,
        extra_receipts TEXT,
        last_error TEXT,
        fiscalized_at TEXT
      ) STRICT;
      CREATE INDEX orders_state ON orders(state, id);
      CREATE INDEX orders_invoice ON orders(invoice_number) WHERE invoice_number IS NOT NULL;
      CREATE INDEX orders_depends ON orders(depends_on) WHERE depends_on IS NOT NULL;

      -- One row per order not yet fiscalized nor parked; deleted in the transaction that settles it.
      CREATE TABLE outbox (
        order_id INTEGER PRIMARY KEY REFERENCES orders(id),
        due_at INTEGER NOT NULL,
        tries INTEGER NOT NULL DEFAULT 0,
        first_attempt_at INTEGER,
        unknown INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX outbox_due ON outbox(due_at);

      -- Every attempt, written before the request leaves and completed after; no outcome = UNKNOWN.
      CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES orders(id),
        mode TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        outcome TEXT,
        http_status INTEGER,
        code TEXT,
        correlation_id TEXT,
        message TEXT
      ) STRICT;
      CREATE INDEX attempts_order ON attempts(order_id);
      CREATE INDEX attempts_open ON attempts(finished_at) WHERE finished_at IS NULL;

      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT,
        action TEXT NOT NULL,
        detail TEXT
      ) STRICT;
    `);
  },
};
