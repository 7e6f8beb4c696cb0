import type { HubMigration } from './index.ts';
import { RECOMPUTE_REPORTS } from './022_report_tax.ts';

/**
 * Price lists, promotions and scheduled price changes as master data at the hub (issue 42, docs/prices.md "At the
 * hub"): one row per rule, its checked row (shared/prices/rules.ts) as `data`, for one shop (`shop_id`) or every
 * shop of the chain (`shop_id` null), with a version of `change_seq` that the tills pull after their cursor, as
 * products. A deletion keeps the row, `deleted`, with a new version, so every till hears of it. A scheduled change
 * (`kind` 'scheduled') carries its `state` (pending → applied | cancelled | skipped).
 *
 * Reports by promotion: an order's facts gain its lines by the rule that priced them (hub/report-facts.ts `pr`,
 * `pd`). Every order's facts are computed again on first need and the closed days and months summed again by the
 * next round of the day closer (as migration 22 did); older orders' lines without a rule count as „без акције“.
 */
export const h027: HubMigration = {
  name: 'prices',
  statements: [
    `CREATE TABLE hub_prices (
       id bigserial PRIMARY KEY,
       chain_id integer NOT NULL REFERENCES chains(id),
       shop_id integer REFERENCES shops(id),
       kind text NOT NULL CHECK (kind IN ('list', 'promotion', 'scheduled')),
       data jsonb NOT NULL,
       state text CHECK ((kind = 'scheduled') = (state IS NOT NULL)),
       deleted boolean NOT NULL DEFAULT false,
       version bigint NOT NULL,
       updated_at timestamptz NOT NULL)`,
    `CREATE INDEX hub_prices_version ON hub_prices (chain_id, version)`,
    `CREATE INDEX hub_prices_due ON hub_prices (((data->>'at')::text)) WHERE kind = 'scheduled' AND state = 'pending'`,
    ...RECOMPUTE_REPORTS,
  ],
};
