import type { HubMigration } from './index.ts';

/**
 * The goods at the hub (issue 40, docs/goods.md "At the hub"): each shop's stock book, kept like the till's.
 *
 * - `hub_stock`: per shop and product code the quantity on hand (thousandths) and the retail price the book holds it
 *   at, with the last purchase price; changed only together with a movement or a price change, in one transaction.
 * - `hub_stock_movements`: one signed row per change of a quantity, once per `(shop, source, line)`: a sale or refund
 *   of a till is `order:<till>:<order number>` (a re-push moves nothing), a document `<kind>:<id>`.
 * - `hub_stock_sales`: each fiscalized sale or refund once (its till and order number), its day and payments.
 * - `hub_kep_days` and `hub_kep_turnover`: per shop and day the change of the KEP balance, the retail value the day's
 *   sales moved and the fiscal turnover by payment type, added to in the same transaction, so a year's KEP reads
 *   days, not a million orders.
 * - `hub_goods_docs`: the documents made at the hub (goods receipt, write-off, price change, transfer out and in),
 *   numbered per shop, kind and year (`hub_goods_numbers`).
 * - `hub_transfers`: a transfer between two shops of a chain, sent and then received (with its differences).
 */
export const h026: HubMigration = {
  name: 'goods',
  statements: [
    `CREATE TABLE hub_stock (
       shop_id integer NOT NULL REFERENCES shops(id), code text NOT NULL, name text NOT NULL,
       qty_milli bigint NOT NULL, price_para bigint NOT NULL, purchase_para bigint, updated_at text NOT NULL,
       PRIMARY KEY (shop_id, code))`,
    `CREATE TABLE hub_stock_movements (
       id bigserial PRIMARY KEY, shop_id integer NOT NULL REFERENCES shops(id), code text NOT NULL,
       at text NOT NULL, day text NOT NULL, kind text NOT NULL, source text NOT NULL, line integer NOT NULL,
       qty_milli bigint NOT NULL, price_para bigint NOT NULL, value_para bigint NOT NULL,
       UNIQUE (shop_id, source, line))`,
    `CREATE INDEX hub_stock_movements_day ON hub_stock_movements (shop_id, day)`,
    `CREATE TABLE hub_stock_sales (
       till_id integer NOT NULL REFERENCES tills(id), order_number text NOT NULL, shop_id integer NOT NULL,
       day text NOT NULL, at text NOT NULL, invoice_number text, turnover_para bigint NOT NULL, payments jsonb NOT NULL,
       PRIMARY KEY (till_id, order_number))`,
    `CREATE TABLE hub_kep_days (
       shop_id integer NOT NULL REFERENCES shops(id), day text NOT NULL, value_para bigint NOT NULL DEFAULT 0,
       sold_value_para bigint NOT NULL DEFAULT 0, PRIMARY KEY (shop_id, day))`,
    `CREATE TABLE hub_kep_turnover (
       shop_id integer NOT NULL REFERENCES shops(id), day text NOT NULL, payment_type text NOT NULL,
       amount_para bigint NOT NULL, PRIMARY KEY (shop_id, day, payment_type))`,
    `CREATE TABLE hub_goods_numbers (
       shop_id integer NOT NULL REFERENCES shops(id), kind text NOT NULL, year integer NOT NULL, last integer NOT NULL,
       PRIMARY KEY (shop_id, kind, year))`,
    `CREATE TABLE hub_goods_docs (
       id serial PRIMARY KEY, shop_id integer NOT NULL REFERENCES shops(id), kind text NOT NULL,
       number integer NOT NULL, year integer NOT NULL, at text NOT NULL, day text NOT NULL, actor text,
       value_para bigint NOT NULL, detail jsonb NOT NULL, UNIQUE (shop_id, kind, year, number))`,
    `CREATE INDEX hub_goods_docs_day ON hub_goods_docs (shop_id, day)`,
    `CREATE TABLE hub_transfers (
       id serial PRIMARY KEY, from_shop integer NOT NULL REFERENCES shops(id), to_shop integer NOT NULL REFERENCES shops(id),
       out_doc integer NOT NULL REFERENCES hub_goods_docs(id), in_doc integer REFERENCES hub_goods_docs(id),
       sent_at text NOT NULL, received_at text, lines jsonb NOT NULL)`,
  ],
};
