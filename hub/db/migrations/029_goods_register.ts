import type { HubMigration } from './index.ts';

/**
 * The hub's goods register (issue 40, docs/goods.md "At the hub"):
 *
 * - `hub_suppliers`: a shop's suppliers (name, PIB with its check digit verified, address, bank account, contact),
 *   one PIB one supplier per shop; a goods receipt names one of them.
 * - `hub_shop_identity`: the shop's PIB and address, which the hub prints in the title block of its A4 documents
 *   (the shop's name is `shops.name`).
 *
 * Hub migration 29.
 */
export const h029: HubMigration = {
  name: 'goods_register',
  statements: [
    `CREATE TABLE hub_suppliers (
       id serial PRIMARY KEY, shop_id integer NOT NULL REFERENCES shops(id), name text NOT NULL, pib text NOT NULL,
       address text NOT NULL DEFAULT '', bank_account text NOT NULL DEFAULT '', contact text NOT NULL DEFAULT '',
       updated_at text NOT NULL, UNIQUE (shop_id, pib))`,
    `CREATE TABLE hub_shop_identity (
       shop_id integer PRIMARY KEY REFERENCES shops(id), pib text NOT NULL, address text NOT NULL,
       updated_at text NOT NULL)`,
  ],
};
