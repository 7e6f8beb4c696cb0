import type { Migration } from '../open.ts';

/**
 * Report totals per closed UTC day (electron/manager/report-days.ts), so a long report reads a row per
 * day. The triggers delete a day's stored totals in the transaction that inserts an order into that day
 * or changes one of its orders, so stored totals are never stale; today is never stored, so a sale's
 * insert deletes nothing (and writes no page).
 */
export const m011: Migration = {
  name: 'report_days',
  up(db) {
    db.exec(`
      CREATE TABLE report_days (
        day TEXT NOT NULL,
        cashier TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (day, cashier)
      ) STRICT, WITHOUT ROWID;

      CREATE TRIGGER report_days_order_insert AFTER INSERT ON orders BEGIN
        DELETE FROM report_days WHERE day = substr(NEW.created_at, 1, 10);
      END;

      CREATE TRIGGER report_days_order_update
        AFTER UPDATE OF kind, invoice_type, state, total_para, data, created_at ON orders BEGIN
        DELETE FROM report_days WHERE day IN (substr(OLD.created_at, 1, 10), substr(NEW.created_at, 1, 10));
      END;
    `);
  },
};
