import type { Migration } from '../open.ts';

/**
 * Manager and back office: people who log in at the till (cashiers and managers, PINs as scrypt hashes,
 * the gateway's cashier id when registered there) and the persistent e-mail queue.
 */
export const m004: Migration = {
  name: 'manager',
  up(db) {
    db.exec(`
      CREATE TABLE staff (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('cashier','manager')),
        -- 'scrypt$<salt hex>$<hash hex>'; never the PIN itself
        pin_hash TEXT NOT NULL,
        gateway_id INTEGER UNIQUE,
        email TEXT,
        phone TEXT,
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0,1)),
        must_change_pin INTEGER NOT NULL DEFAULT 0 CHECK (must_change_pin IN (0,1)),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      -- Receipts to e-mail: sent through /receipt/send-email once the order is fiscalized and online.
      CREATE TABLE email_outbox (
        id INTEGER PRIMARY KEY,
        order_id INTEGER REFERENCES orders(id),
        invoice_number TEXT,
        email TEXT NOT NULL,
        cc TEXT,
        bcc TEXT,
        state TEXT NOT NULL CHECK (state IN ('queued','sent','failed')),
        tries INTEGER NOT NULL DEFAULT 0,
        due_at INTEGER NOT NULL,
        last_error TEXT,
        created_at TEXT NOT NULL,
        sent_at TEXT
      ) STRICT;
      CREATE INDEX email_outbox_due ON email_outbox(state, due_at);
    `);
  },
};
