import type { Migration } from '../open.ts';

/**
 * Price lists, promotions and scheduled price changes from the store hub (issue 42, docs/prices.md "At the hub"):
 * each row the hub sent carries the hub's id (`hub_id`), by which the next pull changes or deletes it. A row without
 * one is this till's own (a lone till's, or one made before the till enrolled).
 */
export const m036: Migration = {
  name: 'hub_prices',
  up(db) {
    db.exec(`
      ALTER TABLE price_lists ADD COLUMN hub_id INTEGER;
      ALTER TABLE promotions ADD COLUMN hub_id INTEGER;
      ALTER TABLE scheduled_prices ADD COLUMN hub_id INTEGER;
      CREATE UNIQUE INDEX price_lists_hub ON price_lists(hub_id) WHERE hub_id IS NOT NULL;
      CREATE UNIQUE INDEX promotions_hub ON promotions(hub_id) WHERE hub_id IS NOT NULL;
      CREATE UNIQUE INDEX scheduled_prices_hub ON scheduled_prices(hub_id) WHERE hub_id IS NOT NULL;
    `);
  },
};
