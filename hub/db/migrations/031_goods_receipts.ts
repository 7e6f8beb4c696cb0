import type { HubMigration } from './index.ts';

/**
 * Goods receipts as drafts and reversals at the hub, and minimums per product (issue 40 part 7, docs/goods.md
 * "At the hub"):
 *
 * - `hub_receipts`: every goods receipt of a shop, a `receipt` or its `reversal`, in the state `draft` (its form
 *   as saved in `input`, editable, moving nothing), `posted` (its numbered document `doc_id` in `hub_goods_docs`)
 *   or `reversed` (a posted receipt that a reversal, `reverses` on the reversal's row, took back out). The
 *   receipts posted before this migration get their row, posted.
 * - `hub_stock_minimums`: a shop's minimum quantity of a product (thousandths): the reorder list.
 *
 * Hub migration 31 of issue 40 (numbered at its position in the list until the migrations before it land).
 */
export const h031: HubMigration = {
  name: 'goods_receipts',
  statements: [
    `CREATE TABLE hub_receipts (
       id serial PRIMARY KEY, shop_id integer NOT NULL REFERENCES shops(id), kind text NOT NULL,
       state text NOT NULL, input jsonb NOT NULL, doc_id integer UNIQUE REFERENCES hub_goods_docs(id),
       reverses integer UNIQUE REFERENCES hub_receipts(id), created_at text NOT NULL, updated_at text NOT NULL,
       actor text)`,
    `CREATE INDEX hub_receipts_shop ON hub_receipts (shop_id, state, id)`,
    `INSERT INTO hub_receipts (shop_id, kind, state, input, doc_id, created_at, updated_at, actor)
       SELECT shop_id, 'receipt', 'posted', '{}'::jsonb, id, at, at, actor FROM hub_goods_docs
        WHERE kind = 'receipt' ORDER BY id`,
    `CREATE TABLE hub_stock_minimums (
       shop_id integer NOT NULL REFERENCES shops(id), code text NOT NULL, min_milli bigint NOT NULL,
       updated_at text NOT NULL, PRIMARY KEY (shop_id, code))`,
  ],
};
