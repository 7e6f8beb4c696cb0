import type { HubMigration } from './index.ts';

/**
 * Stock-taking (попис) at the hub (issue 40, docs/goods.md "Stock-taking at the hub"):
 *
 * - `hub_stock_counts`: a count of a shop, of the whole shop (`groups` null) or of some product groups, numbered
 *   per shop and year (`hub_goods_numbers`, kind `count`) when it starts; open, then posted (its document in
 *   `hub_goods_docs`, kind `count`) or cancelled. Open counts of one shop never overlap (checked when one starts).
 * - `hub_stock_count_lines`: each product of the count with its book quantity frozen at the start, its retail and
 *   purchase price then, and once counted the quantity, the book at that entry (the frozen one plus what moved
 *   since), when and by whom.
 *
 * Hub migration 30.
 */
export const h030: HubMigration = {
  name: 'stock_counts',
  statements: [
    `CREATE TABLE hub_stock_counts (
       id serial PRIMARY KEY, shop_id integer NOT NULL REFERENCES shops(id), number integer NOT NULL,
       year integer NOT NULL, state text NOT NULL CHECK (state IN ('open', 'posted', 'cancelled')), groups jsonb,
       started_at text NOT NULL, started_by text, closed_at text, closed_by text,
       doc_id integer REFERENCES hub_goods_docs(id), UNIQUE (shop_id, year, number))`,
    `CREATE INDEX hub_stock_counts_open ON hub_stock_counts (shop_id) WHERE state = 'open'`,
    `CREATE TABLE hub_stock_count_lines (
       count_id integer NOT NULL REFERENCES hub_stock_counts(id), line integer NOT NULL, code text NOT NULL,
       name text NOT NULL, grp text, unit text NOT NULL, book_milli bigint NOT NULL, price_para bigint NOT NULL,
       purchase_para bigint, counted_milli bigint, book_at_entry_milli bigint, counted_at text, counted_by text,
       PRIMARY KEY (count_id, code), UNIQUE (count_id, line))`,
  ],
};
