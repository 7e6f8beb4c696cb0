import type { Migration } from '../open.ts';

/**
 * Two fiscal processors (docs/lpfr.md, "Routing"): the gateway (a V-PFR in the cloud) and the shop's local
 * processor (L-PFR).
 * - `outbox.route`: the one processor an order may go to from now on. Set in the same transaction as the
 *   first attempt that may have reached it (OrderStore.startAttempts), or at capture for a refund or copy of an
 *   L-PFR receipt. NULL: never sent anywhere, either may sign it. An order is never sent to the other processor
 *   while an attempt at this one may have signed it: that is what keeps it exactly-once across both.
 * - `orders.processor`: which processor signed it, for the receipt screen, the status bar and the hub's reports.
 * Every order signed so far was signed by the gateway; every order with an attempt so far went to the gateway.
 */
export const m019: Migration = {
  name: 'processor',
  up(db) {
    db.exec(`
      ALTER TABLE orders ADD COLUMN processor TEXT CHECK (processor IN ('gateway', 'lpfr'));
      ALTER TABLE outbox ADD COLUMN route TEXT CHECK (route IN ('gateway', 'lpfr'));
      UPDATE orders SET processor = 'gateway' WHERE invoice_number IS NOT NULL;
      UPDATE outbox SET route = 'gateway'
        WHERE first_attempt_at IS NOT NULL OR order_id IN (SELECT order_id FROM attempts);
    `);
  },
};
