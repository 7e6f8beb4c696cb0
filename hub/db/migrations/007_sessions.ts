import type { HubMigration } from './index.ts';

/**
 * Hub UI sessions in the database (#25), so a hub restart does not log managers out: one row per session
 * token (its SHA-256 only), the manager (shop, name) it belongs to, and when it expires (epoch ms). A
 * session ends on logout (its row deleted) and, by the trigger below, on any change of its manager's role,
 * PIN hash or active flag, whoever made it (the hub UI, the admin token or a till's staff event).
 */
export const h007: HubMigration = {
  name: 'sessions',
  statements: [
    `CREATE TABLE hub_sessions (
       token_hash text PRIMARY KEY, shop_id integer NOT NULL REFERENCES shops(id), name text NOT NULL,
       created_at text NOT NULL, expires_at bigint NOT NULL)`,
    `CREATE INDEX hub_sessions_person ON hub_sessions (shop_id, name)`,
    `CREATE FUNCTION hub_sessions_end_on_staff_change() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       DELETE FROM hub_sessions WHERE shop_id = OLD.shop_id AND name = OLD.name;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER staff_ends_sessions AFTER UPDATE ON staff FOR EACH ROW
       WHEN ((OLD.role, OLD.pin_hash, OLD.active) IS DISTINCT FROM (NEW.role, NEW.pin_hash, NEW.active))
       EXECUTE FUNCTION hub_sessions_end_on_staff_change()`,
  ],
};
