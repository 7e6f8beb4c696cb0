import type { Migration } from '../open.ts';

/**
 * The counter's open cart lives in the core (electron/sales/open-cart.ts), so a window reload, a crash or a
 * restart brings it back. One row: the till has one counter. `rev` is the counter's revision of the cart
 * (a later save wins, an older one arriving late is ignored); `closed_rev` is the revision a checkout sold:
 * a save at or below it is a cart already sold, never restored.
 */
export const m015: Migration = {
  name: 'open_cart',
  up(db) {
    db.exec(`
      CREATE TABLE open_cart (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        rev INTEGER NOT NULL,
        closed_rev INTEGER NOT NULL DEFAULT 0,
        lines TEXT NOT NULL,
        cashier TEXT,
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
