import type { Migration } from '../open.ts';

/**
 * The stock figures this till last read from its store hub (docs/goods.md "At the hub"): a till enrolled at a hub
 * shows the shop's stock as the hub keeps it, and while the hub is away the last figure it read, with its time.
 */
export const m035: Migration = {
  name: 'hub_stock_seen',
  up(db) {
    db.exec(`
      CREATE TABLE hub_stock_seen (
        product_code TEXT PRIMARY KEY, qty_milli INTEGER NOT NULL, at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
