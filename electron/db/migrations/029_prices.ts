import type { Migration } from '../open.ts';

/**
 * Price lists, promotions and scheduled price changes (issue 42, docs/prices.md). Master data of this shop: on a
 * lone till set here; the hub's side (set at the hub for a shop or a chain, pulled as the catalog is) comes later
 * and carries the same rows. Money is para, quantities thousandths, percentages hundredths of a percent.
 *
 * - price_lists: a list applies to the shop, the chain, or one business buyer (by PIB), in a time window (days,
 *   weekdays, minutes of the day in Europe/Belgrade), with a priority. It is a set of prices (price_list_items)
 *   and/or a rule (`rule_percent_bp` off the products of `rule_group`, or of all when the group is null).
 * - promotions: a deal (a price, a percentage off, N for the price of M, every n-th at a percentage off) on a
 *   product or a group, in a window, with a priority and a minimum quantity.
 * - scheduled_prices: a new regular price of a product from a moment on. A durable job: `state` goes from
 *   'pending' to 'applied' in the same transaction that changes the catalog price (and writes its нивелација),
 *   so a change is applied exactly once, at its moment or at the first start after it.
 */
export const m029: Migration = {
  name: 'prices',
  up(db) {
    db.exec(`
      CREATE TABLE price_lists (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        priority INTEGER NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN ('shop', 'chain', 'buyer')),
        buyer_pib TEXT CHECK ((scope = 'buyer') = (buyer_pib IS NOT NULL)),
        from_day TEXT,
        to_day TEXT,
        -- Days of the week as digits 1 (Monday) … 7, e.g. '12345'; null: every day.
        weekdays TEXT,
        from_minute INTEGER CHECK (from_minute BETWEEN 0 AND 1440),
        to_minute INTEGER CHECK (to_minute BETWEEN 0 AND 1440),
        rule_group TEXT,
        rule_percent_bp INTEGER CHECK (rule_percent_bp BETWEEN 1 AND 10000),
        updated_at TEXT NOT NULL,
        CHECK (from_day IS NULL OR to_day IS NULL OR from_day <= to_day)
      ) STRICT;

      CREATE TABLE price_list_items (
        list_id INTEGER NOT NULL REFERENCES price_lists(id) ON DELETE CASCADE,
        product_code TEXT NOT NULL,
        price_para INTEGER NOT NULL CHECK (price_para >= 0),
        PRIMARY KEY (list_id, product_code)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE promotions (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        priority INTEGER NOT NULL,
        target_code TEXT,
        target_group TEXT,
        kind TEXT NOT NULL CHECK (kind IN ('price', 'percent', 'multibuy', 'nth')),
        price_para INTEGER CHECK (price_para >= 0),
        percent_bp INTEGER CHECK (percent_bp BETWEEN 1 AND 10000),
        buy INTEGER CHECK (buy >= 2),
        pay INTEGER CHECK (pay >= 1),
        nth INTEGER CHECK (nth >= 2),
        min_qty_milli INTEGER CHECK (min_qty_milli > 0),
        from_day TEXT NOT NULL,
        to_day TEXT NOT NULL,
        weekdays TEXT,
        from_minute INTEGER CHECK (from_minute BETWEEN 0 AND 1440),
        to_minute INTEGER CHECK (to_minute BETWEEN 0 AND 1440),
        updated_at TEXT NOT NULL,
        CHECK ((target_code IS NULL) <> (target_group IS NULL)),
        CHECK (from_day <= to_day)
      ) STRICT;
      CREATE INDEX promotions_code ON promotions(target_code) WHERE target_code IS NOT NULL;
      CREATE INDEX promotions_group ON promotions(target_group) WHERE target_group IS NOT NULL;

      CREATE TABLE scheduled_prices (
        id INTEGER PRIMARY KEY,
        product_code TEXT NOT NULL,
        price_para INTEGER NOT NULL CHECK (price_para >= 0),
        at TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'applied', 'cancelled', 'skipped')),
        -- Once applied: when, and the price it replaced.
        applied_at TEXT,
        old_price_para INTEGER,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX scheduled_prices_due ON scheduled_prices(at) WHERE state = 'pending';
    `);
  },
};
