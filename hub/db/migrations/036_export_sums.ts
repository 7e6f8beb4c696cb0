import type { HubMigration } from './index.ts';

/**
 * The export's kept sums (docs/exports.md "At the hub", "Kept sums"), written only by the day closer
 * (hub/export-sums.ts), so that a year's export reads days' and documents' sums, not a year of orders and movements:
 * - `hub_export_days`: a shop's Belgrade day of orders summed as the export sums it (its report totals, the advances
 *   split, what final sales closed, the documents and the rates its receipts stated), as JSON; a shop without orders
 *   that day has no row. `hub_export_days_closed`: the days kept for every shop at once (after the report's close).
 * - `hub_export_costs`: how far the shop's goods book (hub_stock_movements, by id) has been costed at the weighted
 *   average purchase price, and how many movements that was; `hub_export_cost_state` each product's quantity and
 *   average after them, with the tax label the costing used; `hub_export_goods_out` the goods out at purchase value
 *   so far per day, document, account key and label, with its first movement's id; `hub_export_cost_fallback` the
 *   goods out that went at their product's last purchase price (before its first receipt), priced at each export.
 */
export const h036: HubMigration = {
  name: 'export_sums',
  statements: [
    `CREATE TABLE hub_export_days (
       shop_id integer NOT NULL REFERENCES shops(id), day date NOT NULL, body text NOT NULL,
       PRIMARY KEY (shop_id, day))`,
    `CREATE TABLE hub_export_days_closed (day date PRIMARY KEY, at text NOT NULL)`,
    `CREATE TABLE hub_export_costs (
       shop_id integer PRIMARY KEY REFERENCES shops(id), last_id bigint NOT NULL, n bigint NOT NULL)`,
    `CREATE TABLE hub_export_cost_state (
       shop_id integer NOT NULL REFERENCES shops(id), code text NOT NULL, qty_milli bigint NOT NULL,
       avg_para bigint, label text, PRIMARY KEY (shop_id, code))`,
    `CREATE TABLE hub_export_cost_fallback (
       shop_id integer NOT NULL REFERENCES shops(id), movement_id bigint NOT NULL, day text NOT NULL,
       PRIMARY KEY (shop_id, movement_id))`,
    `CREATE TABLE hub_export_goods_out (
       shop_id integer NOT NULL REFERENCES shops(id), day text NOT NULL, doc text NOT NULL, key text NOT NULL,
       label text NOT NULL, kind text NOT NULL, source text NOT NULL, first_id bigint NOT NULL,
       retail_para bigint NOT NULL, purchase_para bigint NOT NULL, PRIMARY KEY (shop_id, day, doc, key, label))`,
  ],
};
