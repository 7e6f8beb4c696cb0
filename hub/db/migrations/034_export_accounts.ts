import type { HubMigration } from './index.ts';

/**
 * The shop's account map at the hub (issue 41 part 2, docs/exports.md "At the hub"): the accounts of the posting
 * journal a hub manager maps once per shop, as the till's Менаџер → Књиговођа keeps them (the same keys, 3 to 10
 * digits each, shared/exports/accounts.ts); a key not set keeps its default. One row per shop, written only by
 * hub/services/exports.ts, with who changed it and when.
 */
export const h034: HubMigration = {
  name: 'export_accounts',
  statements: [
    `CREATE TABLE hub_export_accounts (
       shop_id integer PRIMARY KEY REFERENCES shops(id), accounts jsonb NOT NULL, updated_at text NOT NULL,
       updated_by text)`,
  ],
};
