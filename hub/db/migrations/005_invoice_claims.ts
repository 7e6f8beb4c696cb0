import type { HubMigration } from './index.ts';

/**
 * Nothing a till can forge (#25): an invoice number belongs to one order of a shop, enforced by a unique
 * index so two tills pushing the same number at the same moment cannot both have it. A later claimant's
 * order is not stored in `orders` (its event stays in `till_events` as evidence) and is recorded in
 * `invoice_claims`, which raises the till's `invoice_claimed` alarm until a manager clears it. Orders
 * already stored twice under one number keep the first one the hub received; the others move to the
 * claims. `tills.refusal` is the last batch the hub refused whole (400/409/413): the till's
 * `batch_refused` alarm while it lasts, cleared by the till's next push that the hub stores.
 */
export const h005: HubMigration = {
  name: 'invoice_claims',
  statements: [
    `CREATE TABLE invoice_claims (
       id bigserial PRIMARY KEY, shop_id integer NOT NULL REFERENCES shops(id),
       till_id integer NOT NULL REFERENCES tills(id), seq bigint NOT NULL, order_number text NOT NULL,
       invoice_number text NOT NULL, holder_till_id integer, holder_order_number text, at text NOT NULL,
       cleared_at text, UNIQUE (till_id, seq))`,
    `CREATE INDEX invoice_claims_open ON invoice_claims (till_id) WHERE cleared_at IS NULL`,
    `ALTER TABLE tills ADD COLUMN refusal jsonb`,
    // Earlier double claims: the first received keeps the number, the rest become claims and leave `orders`.
    `WITH ranked AS (
       SELECT o.till_id, o.order_number, o.shop_id, o.seq, o.invoice_number,
              first_value(o.till_id) OVER w AS holder_till_id, first_value(o.order_number) OVER w AS holder_order_number,
              row_number() OVER w AS n
         FROM orders o LEFT JOIN till_events e ON e.till_id = o.till_id AND e.seq = o.seq
        WHERE o.invoice_number IS NOT NULL
       WINDOW w AS (PARTITION BY o.shop_id, o.invoice_number ORDER BY e.received_at NULLS LAST, o.till_id, o.seq)
     ), moved AS (
       INSERT INTO invoice_claims (shop_id, till_id, seq, order_number, invoice_number, holder_till_id,
                                   holder_order_number, at)
       SELECT shop_id, till_id, seq, order_number, invoice_number, holder_till_id, holder_order_number,
              to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         FROM ranked WHERE n > 1
       ON CONFLICT (till_id, seq) DO NOTHING
       RETURNING till_id, order_number
     )
     DELETE FROM orders o USING ranked r
      WHERE r.n > 1 AND o.till_id = r.till_id AND o.order_number = r.order_number`,
    `DROP INDEX orders_shop_invoice`,
    `CREATE UNIQUE INDEX orders_shop_invoice_unique ON orders (shop_id, invoice_number) WHERE invoice_number IS NOT NULL`,
  ],
};
