import type { HubMigration } from './index.ts';

/**
 * Issue 39 (the version is its place in the list).
 *
 * - Hub sessions belong to a person, not a name: `hub_sessions.person_id` (the staff row's id). A session counts
 *   only while that person is an active manager, and ends on ANY change of that person (a rename too) or their
 *   removal, so a session never survives a rename and never comes back for whoever takes the name. A session
 *   whose name matches nobody now is dropped.
 * - Enrolment codes are minted on request only and can be listed and revoked: each gets an id to name it by
 *   (never its hash) and `revoked_at`.
 */
export const h023: HubMigration = {
  name: 'people_and_codes',
  statements: [
    `ALTER TABLE hub_sessions ADD COLUMN person_id text`,
    `UPDATE hub_sessions s SET person_id = st.id FROM staff st WHERE st.shop_id = s.shop_id AND st.name = s.name`,
    `DELETE FROM hub_sessions WHERE person_id IS NULL`,
    `ALTER TABLE hub_sessions ALTER COLUMN person_id SET NOT NULL`,
    `DROP TRIGGER staff_ends_sessions ON staff`,
    `DROP INDEX hub_sessions_person`,
    `CREATE INDEX hub_sessions_person ON hub_sessions (shop_id, person_id)`,
    `CREATE OR REPLACE FUNCTION hub_sessions_end_on_staff_change() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       DELETE FROM hub_sessions WHERE shop_id = OLD.shop_id AND person_id = OLD.id;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER staff_ends_sessions AFTER UPDATE ON staff FOR EACH ROW
       WHEN ((OLD.id, OLD.name, OLD.role, OLD.pin_hash, OLD.active) IS DISTINCT FROM
             (NEW.id, NEW.name, NEW.role, NEW.pin_hash, NEW.active))
       EXECUTE FUNCTION hub_sessions_end_on_staff_change()`,
    `CREATE TRIGGER staff_gone_ends_sessions AFTER DELETE ON staff FOR EACH ROW
       EXECUTE FUNCTION hub_sessions_end_on_staff_change()`,
    `ALTER TABLE enrol_codes ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY`,
    `ALTER TABLE enrol_codes ADD CONSTRAINT enrol_codes_id UNIQUE (id)`,
    `ALTER TABLE enrol_codes ADD COLUMN revoked_at timestamptz`,
  ],
};
