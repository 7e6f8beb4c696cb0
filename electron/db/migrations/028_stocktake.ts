import type { Migration } from '../open.ts';

/**
 * Stock-taking (попис) and minimum quantities (issue 40, part 2, docs/goods.md).
 *
 * - stock_counts: one count, numbered per year when started; `groups` is a JSON array of the catalog groups it
 *   covers, NULL for the whole shop. Open until a manager posts (or cancels) it.
 * - stock_count_lines: one row per product in scope with the book quantity frozen at the start, and once counted:
 *   the counted quantity and the book quantity at the moment of that entry (the start's less what sold or moved
 *   since), so a line counted after a sale is right. Posting moves counted − book at entry as a `count` movement.
 * - stock_minimums: the least quantity to keep per product code; the reorder list shows what is below it.
 * - kep_days: the KEP's change of balance per day (Σ the day's movements' and price changes' values), kept by the
 *   ledger in the same transaction as each of them, so a period's opening balance is a sum over days, not over
 *   every movement the shop ever made (flat as history grows: bench/kep-year.bench.ts). Filled here from history.
 * - an index of movements by day and kind carrying their value: a period's sales and receipts read from it alone.
 */
export const m028: Migration = {
  name: 'stocktake',
  up(db) {
    db.exec(`
      CREATE TABLE stock_counts (
        id INTEGER PRIMARY KEY,
        number INTEGER NOT NULL,
        year INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'posted', 'cancelled')),
        groups TEXT,
        started_at TEXT NOT NULL,
        started_by TEXT,
        posted_at TEXT,
        posted_by TEXT,
        UNIQUE (year, number)
      ) STRICT;
      -- One open count at a time.
      CREATE UNIQUE INDEX stock_counts_open ON stock_counts(state) WHERE state = 'open';

      CREATE TABLE stock_count_lines (
        count_id INTEGER NOT NULL REFERENCES stock_counts(id),
        line INTEGER NOT NULL,
        product_code TEXT NOT NULL,
        name TEXT NOT NULL,
        grp TEXT,
        unit TEXT NOT NULL,
        book_milli INTEGER NOT NULL,
        price_para INTEGER NOT NULL,
        purchase_para INTEGER,
        counted_milli INTEGER CHECK (counted_milli >= 0),
        book_at_entry_milli INTEGER,
        counted_at TEXT,
        counted_by TEXT,
        PRIMARY KEY (count_id, product_code),
        UNIQUE (count_id, line)
      ) STRICT;

      CREATE TABLE kep_days (
        day TEXT PRIMARY KEY,
        value_para INTEGER NOT NULL
      ) STRICT;
      INSERT INTO kep_days (day, value_para)
        SELECT day, sum(v) FROM (
          SELECT day, value_para AS v FROM stock_movements
          UNION ALL
          SELECT day, diff_para AS v FROM price_changes
        ) GROUP BY day;
      CREATE INDEX stock_movements_day_kind ON stock_movements(day, kind, value_para);

      CREATE TABLE stock_minimums (
        product_code TEXT PRIMARY KEY,
        min_milli INTEGER NOT NULL CHECK (min_milli > 0),
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
