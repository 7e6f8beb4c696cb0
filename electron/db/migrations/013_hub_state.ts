import type { Migration } from '../open.ts';

/**
 * The till's marks of its parked carts at the store hub get a table of their own, `hub_parked`, instead of
 * string-prefixed keys in `hub_state` (`parked:<local id>` = the hub's id, `parked_owed:<local id>` = a
 * removal the hub has not heard of yet): one row per local cart, typed columns, no key parsing. The marks
 * of a till already enrolled are moved in; `hub_state` keeps the link itself (hub URL, till and shop id,
 * master-data cursor), so the enrolment, and the triggers of migration 009 that look for `till_id`, are
 * untouched.
 */
export const m013: Migration = {
  name: 'hub_state',
  up(db) {
    db.exec(`
      CREATE TABLE hub_parked (
        local_id INTEGER PRIMARY KEY,
        hub_id INTEGER,
        owed INTEGER NOT NULL DEFAULT 0 CHECK (owed IN (0, 1)),
        CHECK (hub_id IS NOT NULL OR owed = 1)
      ) STRICT;

      INSERT INTO hub_parked (local_id, hub_id)
        SELECT CAST(substr(key, 8) AS INTEGER), CAST(value AS INTEGER) FROM hub_state
        WHERE substr(key, 1, 7) = 'parked:';
      INSERT INTO hub_parked (local_id, owed)
        SELECT CAST(substr(key, 13) AS INTEGER), 1 FROM hub_state
        WHERE substr(key, 1, 12) = 'parked_owed:'
        ON CONFLICT (local_id) DO UPDATE SET owed = 1;
      DELETE FROM hub_state WHERE substr(key, 1, 7) = 'parked:' OR substr(key, 1, 12) = 'parked_owed:';
    `);
  },
};
