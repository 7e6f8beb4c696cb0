import type { Migration } from '../open.ts';

/**
 * The store hub's outbox on the till (electron/hub): `hub_state` (till id, hub URL, master-data cursor) and
 * `hub_outbox`, one row per change to push, numbered by `seq` (AUTOINCREMENT: never reused, no gap from a
 * rolled-back transaction). Triggers write the rows inside the very transaction that captures an order,
 * changes its state, writes an audit entry or changes a staff member, so nothing reaches the hub that was
 * not committed and nothing committed is missed. A staff row still on its first-run PIN (0000,
 * `must_change_pin`) never leaves the till: it would overwrite the shop's manager at the hub. They fire only once the
 * till is enrolled (`hub_state`
 * has a `till_id`): without a hub the till behaves exactly as before.
 */
const ENROLLED = `EXISTS (SELECT 1 FROM hub_state WHERE key = 'till_id')`;
const ORDER_JSON = `json_object('order_number', NEW.order_number, 'kind', NEW.kind, 'invoice_type', NEW.invoice_type,
  'transaction_type', NEW.transaction_type, 'state', NEW.state, 'created_at', NEW.created_at,
  'total_para', NEW.total_para, 'data', json(NEW.data), 'invoice_number', NEW.invoice_number,
  'sdc_date_time', NEW.sdc_date_time, 'receipt', json(NEW.receipt))`;

export const m009: Migration = {
  name: 'hub_sync',
  up(db) {
    db.exec(`
      CREATE TABLE hub_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      CREATE TABLE hub_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('order','audit','staff')),
        ref TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      ) STRICT;

      CREATE TRIGGER hub_order_insert AFTER INSERT ON orders WHEN ${ENROLLED}
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('order', NEW.order_number, ${ORDER_JSON}); END;

      CREATE TRIGGER hub_order_update AFTER UPDATE OF state, invoice_number, receipt, data ON orders
      WHEN ${ENROLLED} AND (OLD.state IS NOT NEW.state OR OLD.invoice_number IS NOT NEW.invoice_number
        OR OLD.receipt IS NOT NEW.receipt OR OLD.data IS NOT NEW.data)
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('order', NEW.order_number, ${ORDER_JSON}); END;

      CREATE TRIGGER hub_audit_insert AFTER INSERT ON audit_log WHEN ${ENROLLED}
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('audit', 'audit:' || NEW.id,
        json_object('at', NEW.at, 'actor', NEW.actor, 'action', NEW.action, 'detail', NEW.detail)); END;

      CREATE TRIGGER hub_staff_insert AFTER INSERT ON staff WHEN ${ENROLLED} AND NEW.must_change_pin = 0
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('staff', NEW.name,
        json_object('name', NEW.name, 'role', NEW.role, 'pin_hash', NEW.pin_hash, 'active', NEW.active)); END;

      CREATE TRIGGER hub_staff_update AFTER UPDATE OF name, role, pin_hash, active, must_change_pin ON staff
      WHEN ${ENROLLED} AND NEW.must_change_pin = 0 AND (OLD.name IS NOT NEW.name OR OLD.role IS NOT NEW.role OR OLD.pin_hash IS NOT NEW.pin_hash
        OR OLD.active IS NOT NEW.active OR OLD.must_change_pin IS NOT NEW.must_change_pin)
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('staff', NEW.name,
        json_object('name', NEW.name, 'role', NEW.role, 'pin_hash', NEW.pin_hash, 'active', NEW.active)); END;
    `);
  },
};
