import type { HubMigration } from './index.ts';

/**
 * The counter's stock snapshot (docs/goods.md "The counter's figures"): every change of a shop's stock row is
 * stamped with the hub's clock (`changed_ms`, milliseconds since the epoch, by a trigger, so no writer can forget
 * it), and a till asks only for the rows changed since its last answer instead of a figure per keystroke. The
 * stamp is the database's own clock at the change, not the document's time: an offline till's sale pushed days
 * later is a change now.
 */
export const h028: HubMigration = {
  name: 'stock_changes',
  statements: [
    `ALTER TABLE hub_stock ADD COLUMN changed_ms bigint NOT NULL DEFAULT 0`,
    `CREATE FUNCTION hub_stock_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       NEW.changed_ms := floor(extract(epoch FROM clock_timestamp()) * 1000);
       RETURN NEW;
     END $$`,
    `CREATE TRIGGER hub_stock_stamp BEFORE INSERT OR UPDATE ON hub_stock FOR EACH ROW EXECUTE FUNCTION hub_stock_stamp()`,
    `CREATE INDEX hub_stock_changed ON hub_stock (shop_id, changed_ms)`,
  ],
};
