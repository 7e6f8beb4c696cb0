import type { HubMigration } from './index.ts';

/**
 * The hub's audit (#25): every admin and manager action at the hub (hub/audit.ts) — who (the manager, or
 * `admin` for the admin token), their shop (null: the chain), what, when, and a detail without secrets
 * (never a PIN, PIN hash, token, credential or enrolment code).
 */
export const h009: HubMigration = {
  name: 'audit',
  statements: [
    `CREATE TABLE hub_audit (
       id bigserial PRIMARY KEY, at text NOT NULL, shop_id integer REFERENCES shops(id), actor text NOT NULL,
       action text NOT NULL, detail jsonb NOT NULL DEFAULT '{}')`,
    `CREATE INDEX hub_audit_shop ON hub_audit (shop_id, id)`,
  ],
};
