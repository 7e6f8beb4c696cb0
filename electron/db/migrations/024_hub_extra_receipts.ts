import type { Migration } from '../open.ts';
import { ENROLLED, newOrderInsertTrigger } from './020_hub_processor.ts';

/**
 * The store hub gets a finalize's advance refund (АР) too (docs/hub.md, "Tax in reports"): the order triggers of
 * the hub outbox (migrations 009, 020) are rebuilt with `extra_receipts` in the snapshot, so the hub sums the
 * same receipts' tax items as the till (shared/tax-summary.ts): the final sale's VAT less the advance refund's.
 * The orders that have extra receipts are queued again once (an enrolled till only), so the hub learns the
 * advance refunds of the finalizes it already has.
 */
const snapshot = (row: string): string => `json_object('order_number', ${row}.order_number, 'kind', ${row}.kind,
  'invoice_type', ${row}.invoice_type, 'transaction_type', ${row}.transaction_type, 'state', ${row}.state,
  'created_at', ${row}.created_at, 'total_para', ${row}.total_para, 'data', json(${row}.data),
  'invoice_number', ${row}.invoice_number, 'sdc_date_time', ${row}.sdc_date_time, 'receipt', json(${row}.receipt),
  'processor', ${row}.processor, 'extra_receipts', json(${row}.extra_receipts))`;
export const ORDER_SNAPSHOT_JSON = snapshot('NEW');
/** The snapshot of `orders` rows read by a SELECT (the enrolment's history: electron/hub-client/sync.ts). */
export const ORDER_ROW_SNAPSHOT_JSON = snapshot('orders');

export const m024: Migration = {
  name: 'hub_extra_receipts',
  up(db) {
    db.exec(`
      ${newOrderInsertTrigger(ORDER_SNAPSHOT_JSON)}
      CREATE TRIGGER hub_order_update AFTER UPDATE OF state, invoice_number, receipt, extra_receipts, data, processor
      ON orders
      WHEN ${ENROLLED} AND (OLD.state IS NOT NEW.state OR OLD.invoice_number IS NOT NEW.invoice_number
        OR OLD.receipt IS NOT NEW.receipt OR OLD.extra_receipts IS NOT NEW.extra_receipts OR OLD.data IS NOT NEW.data
        OR OLD.processor IS NOT NEW.processor)
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('order', NEW.order_number, ${ORDER_SNAPSHOT_JSON}); END;
      INSERT INTO hub_outbox (kind, ref, payload)
        SELECT 'order', order_number, ${ORDER_ROW_SNAPSHOT_JSON} FROM orders
         WHERE extra_receipts IS NOT NULL AND ${ENROLLED} ORDER BY id;
    `);
  },
};
