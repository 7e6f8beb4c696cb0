import type { HubMigration } from './index.ts';

/**
 * Shop settings a shop's tills share (price/weight barcode rules, the discount limit, outage alarms),
 * edited at the hub and sent down with the same change cursor as products and staff.
 */
export const h002: HubMigration = {
  name: 'shop_settings',
  statements: [
    `CREATE TABLE shop_settings (
       shop_id integer NOT NULL REFERENCES shops(id), key text NOT NULL, value jsonb NOT NULL,
       version bigint NOT NULL, PRIMARY KEY (shop_id, key))`,
    `CREATE INDEX shop_settings_version ON shop_settings (shop_id, version)`,
  ],
};
