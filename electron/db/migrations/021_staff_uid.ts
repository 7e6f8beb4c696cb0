import crypto from 'node:crypto';
import type { Migration } from '../open.ts';

/**
 * People have ids (#25): every person at the till gets `uid`, a UUID made where the person was created (here,
 * or at the hub, whose id the till takes). The staff sync with the hub goes by it, never by name, so the hub's
 * "Менаџер" and this till's first-run "Менаџер" are two people. The hub outbox's staff triggers (migration 009)
 * are rebuilt to carry the id and, on a change, the PIN hash before it (the hub takes a person's own PIN change
 * only when that hash is the one it holds: docs/hub.md, Staff).
 */
const ENROLLED = `EXISTS (SELECT 1 FROM hub_state WHERE key = 'till_id')`;
const STAFF_JSON = `json_object('id', NEW.uid, 'name', NEW.name, 'role', NEW.role, 'pin_hash', NEW.pin_hash,
  'active', NEW.active`;

export const m021: Migration = {
  name: 'staff_uid',
  up(db) {
    db.exec('ALTER TABLE staff ADD COLUMN uid TEXT');
    const set = db.prepare('UPDATE staff SET uid = ? WHERE id = ?');
    for (const { id } of db.prepare<[], { id: number }>('SELECT id FROM staff ORDER BY id').all())
      set.run(crypto.randomUUID(), id);
    db.exec(`
      CREATE UNIQUE INDEX staff_uid ON staff (uid);
      DROP TRIGGER hub_staff_insert;
      DROP TRIGGER hub_staff_update;
      CREATE TRIGGER hub_staff_insert AFTER INSERT ON staff WHEN ${ENROLLED} AND NEW.must_change_pin = 0
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('staff', NEW.name, ${STAFF_JSON})); END;
      CREATE TRIGGER hub_staff_update AFTER UPDATE OF name, role, pin_hash, active, must_change_pin ON staff
      WHEN ${ENROLLED} AND NEW.must_change_pin = 0 AND (OLD.name IS NOT NEW.name OR OLD.role IS NOT NEW.role
        OR OLD.pin_hash IS NOT NEW.pin_hash OR OLD.active IS NOT NEW.active OR OLD.must_change_pin IS NOT NEW.must_change_pin)
      BEGIN INSERT INTO hub_outbox (kind, ref, payload) VALUES ('staff', NEW.name,
        ${STAFF_JSON}, 'prev_pin_hash', OLD.pin_hash)); END;
    `);
  },
};
