import type { Migration } from '../open.ts';

/**
 * Tills hold verifiers, not the hub's PIN hashes (issue 39, electron/auth/hub-pins.ts): a person pulled from the hub
 * has this till's own verifier of their PIN in `staff.pin_hash` (`tv1$…`), or nothing until the hub made one. A
 * verifier is not a PIN hash the hub could take: a change of such a person is never pushed as a staff snapshot
 * (it went to the hub first, approved, or came from it). Only a hash this till made (`scrypt$…`) goes up, as before.
 * The till's PIN key, the salt of its verifiers, is kept in `hub_state` (`pin_key`).
 */
const ENROLLED = `EXISTS (SELECT 1 FROM hub_state WHERE key = 'till_id')`;
const STAFF_JSON = `json_object('id', NEW.uid, 'name', NEW.name, 'role', NEW.role, 'pin_hash', NEW.pin_hash,
  'active', NEW.active`;
const OWN_HASH = `substr(NEW.pin_hash, 1, 7) = 'scrypt$'`;

export const m030: Migration = {
  name: 'hub_pin_verifiers',
  up(db) {
    db.exec(`
      DROP TRIGGER hub_staff_insert;
      DROP TRIGGER hub_staff_update;
      CREATE TRIGGER hub_staff_insert AFTER INSERT ON staff
      WHEN ${ENROLLED} AND NEW.must_change_pin = 0 AND ${OWN_HASH}
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('staff', NEW.name, ${STAFF_JSON})); END;
      CREATE TRIGGER hub_staff_update AFTER UPDATE OF name, role, pin_hash, active, must_change_pin ON staff
      WHEN ${ENROLLED} AND NEW.must_change_pin = 0 AND OLD.must_change_pin = 0 AND ${OWN_HASH}
        AND (OLD.name IS NOT NEW.name OR OLD.role IS NOT NEW.role OR OLD.pin_hash IS NOT NEW.pin_hash
          OR OLD.active IS NOT NEW.active)
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('staff', NEW.name,
        ${STAFF_JSON}, 'prev_pin_hash', OLD.pin_hash)); END;
    `);
  },
};
