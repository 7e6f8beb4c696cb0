import type { Migration } from '../open.ts';

/**
 * The bookkeeper's exports (issue 41, docs/exports.md):
 * - `export_days`: an export's sums of one closed Belgrade day (electron/exports/days.ts), so a year's export reads
 *   a row per day instead of every order. An order's Belgrade day is its UTC date or the next one (Belgrade is
 *   UTC+1 or UTC+2), so the triggers delete both in the transaction that inserts an order or changes one: a stored
 *   day is never stale. Today is never stored.
 * - `export_mails`: the month's export sent by e-mail to the bookkeeper (electron/exports/mail.ts), one row per
 *   month, queued in the transaction that records the month's run and marked sent when the mail server accepted it;
 *   a failure stays queued with its reason and is tried again.
 */
export const m037: Migration = {
  name: 'export_days',
  up(db) {
    db.exec(`
      CREATE TABLE export_days (
        day TEXT PRIMARY KEY,
        body TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;

      CREATE TRIGGER export_days_order_insert AFTER INSERT ON orders BEGIN
        DELETE FROM export_days WHERE day IN (substr(NEW.created_at, 1, 10), date(NEW.created_at, '+1 day'));
      END;

      CREATE TRIGGER export_days_order_update
        AFTER UPDATE OF kind, invoice_type, state, total_para, data, created_at, receipt, extra_receipts,
          invoice_number ON orders BEGIN
        DELETE FROM export_days WHERE day IN (substr(OLD.created_at, 1, 10), date(OLD.created_at, '+1 day'),
          substr(NEW.created_at, 1, 10), date(NEW.created_at, '+1 day'));
      END;

      CREATE TRIGGER export_days_order_delete AFTER DELETE ON orders BEGIN
        DELETE FROM export_days WHERE day IN (substr(OLD.created_at, 1, 10), date(OLD.created_at, '+1 day'));
      END;

      CREATE TABLE export_mails (
        month TEXT PRIMARY KEY,
        -- The recipients, as the settings named them when the month was queued.
        recipients TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued', 'sent')),
        tries INTEGER NOT NULL DEFAULT 0,
        queued_at TEXT NOT NULL,
        sent_at TEXT,
        -- The last failure's reason (the mail server's reply or the network error), null once sent.
        last_error TEXT
      ) STRICT;
    `);
  },
};
