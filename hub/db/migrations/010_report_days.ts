import type { HubMigration } from './index.ts';

/**
 * Chain scale (#25), hub/report-days.ts and hub/reports.ts:
 * - `orders.created_at` and `till_events.received_at` become `timestamptz` (the drivers hand them back as ISO
 *   UTC text, hub/db/db.ts), with the indexes chain-wide time ranges and a till's days need.
 * - `orders.facts`: the order's own report totals (hub/report-facts.ts), computed once when it is stored, so a
 *   report sums them in SQL and never reads an order's JSON in JavaScript. NULL until computed (orders from
 *   before this migration are computed on first need, `orders_facts_missing`).
 * - `hub_days`: the summed facts of one till's closed day per cashier; `hub_days_closed`: the days summed for
 *   every till; `hub_days_dirty`: a till's closed day that received an order after it was summed (summed again
 *   by the next round; until then a report reads that till's day from its orders).
 * - The refund lookup by the refunded invoice number gets its index (a till's cross-till lookup).
 */
export const h010: HubMigration = {
  name: 'report_days',
  statements: [
    `ALTER TABLE orders ALTER COLUMN created_at TYPE timestamptz USING created_at::timestamptz`,
    `ALTER TABLE till_events ALTER COLUMN received_at TYPE timestamptz USING received_at::timestamptz`,
    `ALTER TABLE orders ADD COLUMN facts jsonb`,
    `CREATE INDEX orders_facts_missing ON orders (created_at) WHERE facts IS NULL`,
    `CREATE INDEX orders_created ON orders (created_at)`,
    `CREATE INDEX orders_till_created ON orders (till_id, created_at)`,
    `CREATE INDEX orders_refund_of ON orders (shop_id, (data->'refundOf'->>'invoiceNumber'))
       WHERE kind IN ('refund', 'refund_full')`,
    `CREATE TABLE hub_days (
       till_id integer NOT NULL REFERENCES tills(id), day date NOT NULL, shop_id integer NOT NULL,
       cashier text NOT NULL, kind text NOT NULL, k text NOT NULL, rate float8, a int8 NOT NULL, b int8 NOT NULL,
       first int8 NOT NULL, last int8 NOT NULL)`,
    `CREATE INDEX hub_days_day ON hub_days (day, till_id)`,
    `CREATE TABLE hub_days_closed (day date PRIMARY KEY, at timestamptz NOT NULL)`,
    `CREATE TABLE hub_days_dirty (
       till_id integer NOT NULL, day date NOT NULL, n integer NOT NULL DEFAULT 1, PRIMARY KEY (till_id, day))`,
  ],
};
