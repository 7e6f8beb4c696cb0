import type { HubMigration } from './index.ts';

/**
 * A till speaks only for its own records (issue 39, hub/till-trust.ts):
 * - `hub_signers`: which tills of a shop have signed with which card (an L-PFR invoice number's
 *   `requestedBy-signedBy`, the same UID twice). An invoice number under a card another till of the shop
 *   uses, and this till never did, is not the till's: its order is held as an unproven claim
 *   (`invoice_claims.code` `invoice_unproven`), never stored. Filled here from the orders stored so far.
 * - `hub_maintenance`: the day closer's (and its partition upkeep's) last failure, shown to the managers as an alarm
 *   until a round works again.
 */
export const h024: HubMigration = {
  name: 'till_trust',
  statements: [
    `CREATE TABLE hub_signers (
       shop_id integer NOT NULL REFERENCES shops(id), signer text NOT NULL, till_id integer NOT NULL REFERENCES tills(id),
       at timestamptz NOT NULL, PRIMARY KEY (shop_id, signer, till_id))`,
    `INSERT INTO hub_signers (shop_id, signer, till_id, at)
     SELECT DISTINCT shop_id, substring(invoice_number FROM '^([A-Za-z0-9]{8}-[A-Za-z0-9]{8})-[0-9]+$'), till_id, now()
       FROM order_keys WHERE invoice_number ~ '^([A-Za-z0-9]{8})-\\1-[0-9]+$'
     ON CONFLICT DO NOTHING`,
    `ALTER TABLE invoice_claims ADD COLUMN code text NOT NULL DEFAULT 'invoice_claimed'`,
    `CREATE TABLE hub_maintenance (
       task text PRIMARY KEY, failing_since timestamptz, error text, at timestamptz NOT NULL)`,
  ],
};
