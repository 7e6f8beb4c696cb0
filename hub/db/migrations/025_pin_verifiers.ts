import type { HubMigration } from './index.ts';

/**
 * Tills no longer hold the hub's PIN hashes (issue 39, hub/pin-verifiers.ts):
 * - `tills.pin_key`: a per-till secret (32 random bytes, hex), made at the till's first pull; the salt of that
 *   till's verifiers is derived from it and the till's id, so a verifier is valid at that till only.
 * - `pin_verifiers`: one verifier per till and person, made when the hub sees the person's PIN in clear (set or
 *   checked at the hub). It has a version of `change_seq`, so a till pulls it like a change of the person.
 * - A person's PIN hash changed (or the person gone): their verifiers go with it (trigger), so no till is left with
 *   a verifier of an old PIN once it pulls.
 * - Every person gets a new version, so every till pulls the shop's people again: the hashes tills hold from before
 *   are replaced by verifiers (or by nothing, until the person's PIN is next seen at the hub).
 */
export const h025: HubMigration = {
  name: 'pin_verifiers',
  statements: [
    `ALTER TABLE tills ADD COLUMN pin_key text`,
    `CREATE TABLE pin_verifiers (
       till_id integer NOT NULL REFERENCES tills(id), shop_id integer NOT NULL, person_id text NOT NULL,
       verifier text NOT NULL, version bigint NOT NULL, PRIMARY KEY (till_id, person_id))`,
    `CREATE INDEX pin_verifiers_person ON pin_verifiers (shop_id, person_id)`,
    `CREATE OR REPLACE FUNCTION pin_verifiers_end_on_staff_change() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       DELETE FROM pin_verifiers WHERE shop_id = OLD.shop_id AND person_id = OLD.id;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER staff_pin_ends_verifiers AFTER UPDATE ON staff FOR EACH ROW
       WHEN ((OLD.id, OLD.pin_hash) IS DISTINCT FROM (NEW.id, NEW.pin_hash))
       EXECUTE FUNCTION pin_verifiers_end_on_staff_change()`,
    `CREATE TRIGGER staff_gone_ends_verifiers AFTER DELETE ON staff FOR EACH ROW
       EXECUTE FUNCTION pin_verifiers_end_on_staff_change()`,
    `UPDATE staff SET version = nextval('change_seq')`,
  ],
};
