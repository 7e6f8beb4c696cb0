import type { Migration } from '../open.ts';

/**
 * The store hub learns which processor signed each order (migration 019, docs/lpfr.md): the order triggers of
 * the hub outbox (migration 009) are rebuilt with `processor` in the snapshot, so the hub's reports break down
 * by processor. An order is fiscalized (state, invoice number, receipt and processor) in one UPDATE, so the
 * snapshot that carries the receipt carries its processor too.
 */
export const ENROLLED = `EXISTS (SELECT 1 FROM hub_state WHERE key = 'till_id')`;
export const ORDER_SNAPSHOT_JSON = `json_object('order_number', NEW.order_number, 'kind', NEW.kind,
  'invoice_type', NEW.invoice_type, 'transaction_type', NEW.transaction_type, 'state', NEW.state,
  'created_at', NEW.created_at, 'total_para', NEW.total_para, 'data', json(NEW.data),
  'invoice_number', NEW.invoice_number, 'sdc_date_time', NEW.sdc_date_time, 'receipt', json(NEW.receipt),
  'processor', NEW.processor)`;

/**
 * Drops both order triggers of the hub outbox and makes the insert trigger again with the snapshot `snapshot`
 * (this migration and 024; each then makes its update trigger). The text is what sqlite_master keeps.
 */
export const newOrderInsertTrigger = (snapshot: string): string => `DROP TRIGGER hub_order_insert;
      DROP TRIGGER hub_order_update;
      CREATE TRIGGER hub_order_insert AFTER INSERT ON orders WHEN ${ENROLLED}
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('order', NEW.order_number, ${snapshot}); END;`;

export const m020: Migration = {
  name: 'hub_processor',
  up(db) {
    db.exec(`
      ${newOrderInsertTrigger(ORDER_SNAPSHOT_JSON)}
      CREATE TRIGGER hub_order_update AFTER UPDATE OF state, invoice_number, receipt, data, processor ON orders
      WHEN ${ENROLLED} AND (OLD.state IS NOT NEW.state OR OLD.invoice_number IS NOT NEW.invoice_number
        OR OLD.receipt IS NOT NEW.receipt OR OLD.data IS NOT NEW.data OR OLD.processor IS NOT NEW.processor)
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('order', NEW.order_number, ${ORDER_SNAPSHOT_JSON}); END;
    `);
  },
};
