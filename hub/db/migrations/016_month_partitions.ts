import type { HubMigration } from './index.ts';

/**
 * Chain scale (#25, hub/partitions.ts): `orders` and `till_events` are partitioned by month of their time
 * (`created_at`, `received_at`; UTC months), so a month's orders are one table and a month of acknowledged events
 * leaves as a whole table (hub/events.ts). A month without its table goes to the `_default` partition.
 *
 * - A unique index of a partitioned table must hold its time, so an order's identity moves to `order_keys`, one
 *   row per order stored: (till, order number) once, with its first `created_at` (the order's row is found by it)
 *   and its invoice number once per shop (`order_keys_shop_invoice`, the old `orders_shop_invoice_unique`).
 * - An event's identity (till, seq) is kept by the push, which holds the till's row lock (`FOR UPDATE`) while it
 *   looks an event up and stores it; below the till's `events_floor` the floor answers (migration 11).
 * - `hub_month_partition(parent, column, month)` makes a month's table (moving its rows out of the default
 *   partition, then attaching it) unless it exists; the day closer calls it for the coming months.
 * - The old tables' rows are copied into partitions of every month that has data, plus the current and next.
 */
export const h016: HubMigration = {
  name: 'month_partitions',
  statements: [
    `CREATE FUNCTION hub_month_partition(parent text, col text, m date) RETURNS boolean LANGUAGE plpgsql AS $f$
     DECLARE
       part text := parent || '_' || to_char(m, 'YYYY_MM');
       lo timestamptz := date_trunc('month', m)::timestamp AT TIME ZONE 'UTC';
       hi timestamptz := (date_trunc('month', m) + interval '1 month')::timestamp AT TIME ZONE 'UTC';
     BEGIN
       IF to_regclass(part) IS NOT NULL THEN RETURN false; END IF;
       EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, parent);
       IF to_regclass(parent || '_default') IS NOT NULL THEN
         EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= $1 AND %I < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
                        parent || '_default', col, col, part) USING lo, hi;
       END IF;
       EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, lo, hi);
       RETURN true;
     END $f$`,

    // The orders' keys.
    `CREATE TABLE order_keys (
       till_id integer NOT NULL REFERENCES tills(id), order_number text NOT NULL, created_at timestamptz NOT NULL,
       shop_id integer NOT NULL, seq bigint NOT NULL, invoice_number text, PRIMARY KEY (till_id, order_number))`,
    `INSERT INTO order_keys (till_id, order_number, created_at, shop_id, seq, invoice_number)
     SELECT till_id, order_number, created_at, shop_id, seq, invoice_number FROM orders`,
    `CREATE UNIQUE INDEX order_keys_shop_invoice ON order_keys (shop_id, invoice_number) WHERE invoice_number IS NOT NULL`,
    // A cross-till lookup by order number (hub/service.ts lookup) finds the order's month here.
    `CREATE INDEX order_keys_shop_number ON order_keys (shop_id, order_number)`,

    // orders: the old table keeps its rows under another name, without its indexes (their names are reused).
    `ALTER TABLE orders RENAME TO orders_unparted`,
    `ALTER TABLE orders_unparted DROP CONSTRAINT orders_pkey`,
    `DROP INDEX orders_shop_number, orders_shop_created, orders_shop_invoice_unique, orders_facts_missing,
       orders_created, orders_till_created, orders_refund_of`,
    `CREATE TABLE orders (LIKE orders_unparted INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (created_at)`,
    `CREATE TABLE orders_default PARTITION OF orders DEFAULT`,
    `SELECT hub_month_partition('orders', 'created_at', m) FROM (
       SELECT DISTINCT date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS m FROM orders_unparted
       UNION SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date
       UNION SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month')::date) s ORDER BY m`,
    `INSERT INTO orders SELECT * FROM orders_unparted`,
    `DROP TABLE orders_unparted`,
    `ALTER TABLE orders ADD CONSTRAINT orders_pkey PRIMARY KEY (till_id, order_number, created_at)`,
    `ALTER TABLE orders ADD CONSTRAINT orders_till_id_fkey FOREIGN KEY (till_id) REFERENCES tills(id)`,
    `CREATE INDEX orders_shop_number ON orders (shop_id, order_number)`,
    `CREATE INDEX orders_shop_invoice ON orders (shop_id, invoice_number)`,
    `CREATE INDEX orders_shop_created ON orders (shop_id, created_at)`,
    `CREATE INDEX orders_facts_missing ON orders (created_at) WHERE facts IS NULL`,
    `CREATE INDEX orders_created ON orders (created_at)`,
    `CREATE INDEX orders_till_created ON orders (till_id, created_at)`,
    `CREATE INDEX orders_refund_of ON orders (shop_id, (data->'refundOf'->>'invoiceNumber'))
       WHERE kind IN ('refund', 'refund_full')`,

    // till_events, the same way.
    `ALTER TABLE till_events RENAME TO till_events_unparted`,
    `ALTER TABLE till_events_unparted DROP CONSTRAINT till_events_pkey`,
    `CREATE TABLE till_events (LIKE till_events_unparted INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
       PARTITION BY RANGE (received_at)`,
    `CREATE TABLE till_events_default PARTITION OF till_events DEFAULT`,
    `SELECT hub_month_partition('till_events', 'received_at', m) FROM (
       SELECT DISTINCT date_trunc('month', received_at AT TIME ZONE 'UTC')::date AS m FROM till_events_unparted
       UNION SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date
       UNION SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month')::date) s ORDER BY m`,
    `INSERT INTO till_events SELECT * FROM till_events_unparted`,
    `DROP TABLE till_events_unparted`,
    `ALTER TABLE till_events ADD CONSTRAINT till_events_till_id_fkey FOREIGN KEY (till_id) REFERENCES tills(id)`,
    `CREATE INDEX till_events_till_seq ON till_events (till_id, seq)`,
  ],
};
