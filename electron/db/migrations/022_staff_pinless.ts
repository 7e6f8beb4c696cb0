import type { Migration } from '../open.ts';

/**
 * Who is nobody at the hub yet is not pushed as a change (#25), which the hub would refuse and audit as a new
 * person from a till:
 * - A person without a PIN: a cashier this till took from the gateway's list has none until a manager gives one,
 *   and that change goes to the hub first, approved (electron/auth/staff.ts). A pull that brings the hub's person
 *   of the same name takes this till's PIN-less row (StaffService.applyHubStaff).
 * - The first-run manager's first PIN (must_change_pin 1 → 0) at an enrolled till: the hub link offers them to
 *   the shop instead (adopted, or a staff choice: hub-client/sync.ts `offerLatePeople`). A row the hub's pull
 *   takes over (it clears must_change_pin) is no change of this till either.
 */
const ENROLLED = `EXISTS (SELECT 1 FROM hub_state WHERE key = 'till_id')`;
const STAFF_JSON = `json_object('id', NEW.uid, 'name', NEW.name, 'role', NEW.role, 'pin_hash', NEW.pin_hash,
  'active', NEW.active`;

export const m022: Migration = {
  name: 'staff_pinless',
  up(db) {
    db.exec(`
      DROP TRIGGER hub_staff_insert;
      DROP TRIGGER hub_staff_update;
      CREATE TRIGGER hub_staff_insert AFTER INSERT ON staff
      WHEN ${ENROLLED} AND NEW.must_change_pin = 0 AND NEW.pin_hash <> ''
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('staff', NEW.name, ${STAFF_JSON})); END;
      CREATE TRIGGER hub_staff_update AFTER UPDATE OF name, role, pin_hash, active, must_change_pin ON staff
      WHEN ${ENROLLED} AND NEW.must_change_pin = 0 AND OLD.must_change_pin = 0 AND NEW.pin_hash <> ''
        AND (OLD.name IS NOT NEW.name OR OLD.role IS NOT NEW.role OR OLD.pin_hash IS NOT NEW.pin_hash
          OR OLD.active IS NOT NEW.active)
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('staff', NEW.name,
        ${STAFF_JSON}, 'prev_pin_hash', OLD.pin_hash)); END;
    `);
  },
};
