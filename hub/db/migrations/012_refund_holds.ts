import type { HubMigration } from './index.ts';

/**
 * Refund holds (#25, hub/refund-holds.ts): a till holds the lines it is about to refund before it captures the
 * refund, so two tills refunding one sale cannot together refund more than was sold.
 */
export const h012: HubMigration = {
  name: 'refund_holds',
  statements: [
    `CREATE TABLE refund_holds (
       shop_id integer NOT NULL REFERENCES shops(id), hold_id text NOT NULL, till_id integer NOT NULL REFERENCES tills(id),
       invoice_number text NOT NULL, full_refund boolean NOT NULL, lines jsonb NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (shop_id, hold_id))`,
    `CREATE INDEX refund_holds_invoice ON refund_holds (shop_id, invoice_number)`,
  ],
};
