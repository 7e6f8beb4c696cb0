import type { HubMigration } from './index.ts';

/**
 * One shop's report over closed days reads that shop's day (and month) rows by shop first (#25): the day index
 * (migration 10) is by day then till, so a shop's 30 days read every till's rows of the chain for those days and
 * kept a twentieth of them (279,200 rows for 14,000 at 1,000,000 orders over 200 tills). With this index a shop's
 * 30 days took 28 ms instead of 125 ms (`npm run bench -- hub-history`, docs/hub.md).
 */
export const h019: HubMigration = {
  name: 'report_shop_index',
  statements: [
    `CREATE INDEX hub_days_shop ON hub_days (shop_id, day)`,
    `CREATE INDEX hub_months_shop ON hub_months (shop_id, month)`,
  ],
};
