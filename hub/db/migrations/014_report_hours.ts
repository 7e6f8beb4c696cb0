import type { HubMigration } from './index.ts';

/**
 * Reports by hour (#26, hub/report-days.ts): a closed day now also holds its orders' turnover per hour of the
 * shop's day (kind `h`). Days summed before lack them, so every closed day is forgotten and summed again by
 * the day closer's next round; until then a report reads those days from their orders (slower, still right).
 */
export const h014: HubMigration = {
  name: 'report_hours',
  statements: [`DELETE FROM hub_days`, `DELETE FROM hub_days_dirty`, `DELETE FROM hub_days_closed`],
};
