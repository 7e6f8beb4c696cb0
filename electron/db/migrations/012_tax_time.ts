import type { Migration } from '../open.ts';

/**
 * Time, cashier and tax group of a receipt; reports from the receipts' VAT:
 * - `report_days` are cleared: a stored day's totals now carry the VAT of its receipts' taxItems and the
 *   count of orders issued under another tax-rate group; the days are computed again (report-days.ts
 *   warms them in the background, and a report computes a missing day when it needs it).
 * - `tax_rates_announced`: the groups the gateway announced for later than the current one
 *   (`allTaxRates`), so the till switches at their `validFrom` offline too (sales/tax-rates.ts).
 * - `orders_tax_group_changed`: a partial index (its WHERE is orders/tax-group.ts's TAX_GROUP_CHANGED_WHERE)
 *   holding only the orders issued under another group than the one at capture (orders/tax-group.ts), so the
 *   manager's list of them reads no history.
 */
export const m012: Migration = {
  name: 'tax_time',
  up(db) {
    db.exec(`
      DELETE FROM report_days;

      CREATE TABLE tax_rates_announced (
        group_id INTEGER PRIMARY KEY,
        valid_from TEXT NOT NULL,
        body TEXT NOT NULL
      ) STRICT;

      CREATE INDEX orders_tax_group_changed ON orders (id) WHERE state = 'fiscalized' AND json_extract(data, '$.taxGroup.groupId') IS NOT NULL
    AND CAST(json_extract(data, '$.taxGroup.groupId') AS TEXT) <> CAST(json_extract(receipt, '$.additional.taxGroupRevision') AS TEXT);
    `);
  },
};
