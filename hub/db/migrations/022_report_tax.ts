import type { HubMigration } from './index.ts';

/**
 * Every order's facts computed again on first need, the closed days and months summed again by the next round of
 * the day closer: what a migration runs when the facts gain something (this one, and 27).
 */
export const RECOMPUTE_REPORTS: readonly string[] = [
  `UPDATE orders SET facts = NULL`,
  `DELETE FROM hub_months`,
  `DELETE FROM hub_months_closed`,
  `DELETE FROM hub_days`,
  `DELETE FROM hub_days_dirty`,
  `DELETE FROM hub_days_closed`,
];

/**
 * One truth about tax (docs/hub.md, "Tax in reports"): a finalize's advance refund (АР) is stored with its order
 * (`extra_receipts`, pushed by tills from their migration 24), so a report sums the same receipts' tax items as the
 * till (shared/tax-summary.ts), and the facts carry the gross by label and rate (`g`) in place of the gross by
 * line label (`l`). Every order's facts are computed again on first need (hub/report-facts.ts `fillFacts`), and the
 * closed days and months, summed from the old facts, are summed again by the next round of the day closer.
 */
export const h022: HubMigration = {
  name: 'report_tax',
  statements: [`ALTER TABLE orders ADD COLUMN extra_receipts jsonb`, ...RECOMPUTE_REPORTS],
};
