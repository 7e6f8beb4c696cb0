import type { Migration } from '../open.ts';

/**
 * History that stays fast. Every query a person waits on reads an index range, never the
 * whole `orders` table:
 * - `orders_created`: reports and archive by day / date range read only that range (ISO UTC text sorts
 *   in time order; the rowid in the index keeps `ORDER BY created_at DESC, id DESC` free of a sort).
 * - `order_payments`: one row per order and payment type it was paid with, kept by triggers in the same
 *   transaction as the order itself (no code path can forget it), so "paid by card" is an index range
 *   instead of `json_each` over every order's data.
 * Order number (exact and prefix) uses the UNIQUE index of 001; invoice number `orders_invoice`; the
 * needs-attention list and sync status `orders_state` and the outbox.
 */
export const m007: Migration = {
  name: 'history',
  up(db) {
    db.exec(`
      CREATE INDEX orders_created ON orders(created_at);

      CREATE TABLE order_payments (
        type TEXT NOT NULL,
        order_id INTEGER NOT NULL REFERENCES orders(id),
        PRIMARY KEY (type, order_id)
      ) STRICT, WITHOUT ROWID;

      CREATE TRIGGER order_payments_insert AFTER INSERT ON orders BEGIN
        INSERT OR IGNORE INTO order_payments (type, order_id)
          SELECT json_extract(p.value, '$.type'), new.id FROM json_each(new.data, '$.payments') p
          WHERE json_extract(p.value, '$.type') IS NOT NULL;
      END;

      CREATE TRIGGER order_payments_update AFTER UPDATE OF data ON orders BEGIN
        DELETE FROM order_payments WHERE order_id = new.id
          AND type NOT IN (SELECT json_extract(p.value, '$.type') FROM json_each(new.data, '$.payments') p);
        INSERT OR IGNORE INTO order_payments (type, order_id)
          SELECT json_extract(p.value, '$.type'), new.id FROM json_each(new.data, '$.payments') p
          WHERE json_extract(p.value, '$.type') IS NOT NULL;
      END;

      INSERT OR IGNORE INTO order_payments (type, order_id)
        SELECT json_extract(p.value, '$.type'), o.id FROM orders o, json_each(o.data, '$.payments') p
        WHERE json_extract(p.value, '$.type') IS NOT NULL;
    `);
  },
};
