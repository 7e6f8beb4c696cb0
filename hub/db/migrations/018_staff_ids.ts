import type { HubMigration } from './index.ts';

/**
 * People have ids (#25): a shop's staff are keyed by a stable id (a UUID made where the person was created, at
 * a till or at the hub), not by name, so two tills' first-run managers "Менаџер" are two people and the staff
 * sync applies by id both ways. People already stored get an id here. A name still names one person of the shop
 * (active or not, as on the till: `StaffService` keeps names unique), so the hub UI's routes by name and the
 * sessions kept by name (migration 007, whose trigger keeps working) stay exact.
 */
export const h018: HubMigration = {
  name: 'staff_ids',
  statements: [
    `ALTER TABLE staff ADD COLUMN id text`,
    `UPDATE staff SET id = gen_random_uuid()::text`,
    `ALTER TABLE staff ALTER COLUMN id SET NOT NULL`,
    `ALTER TABLE staff DROP CONSTRAINT staff_pkey`,
    `ALTER TABLE staff ADD PRIMARY KEY (shop_id, id)`,
    `CREATE UNIQUE INDEX staff_shop_name ON staff (shop_id, name)`,
  ],
};
