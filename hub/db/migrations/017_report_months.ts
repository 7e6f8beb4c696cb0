import type { HubMigration } from './index.ts';

/**
 * Closed months (#25, hub/report-days.ts, hub/reports.ts): `hub_months` holds each till's month per cashier, the
 * sum of its closed days' rows in `hub_days`, once every day of the month (in the hub's time zone) is closed
 * (`hub_months_closed`). A report reads a month wholly inside its period from its month rows, so the chain's year
 * sums 12 months, not 365 days. A till's month with a dirty day is read from its days (and that day from its
 * orders) until the day closer sums the day and the month again.
 */
export const h017: HubMigration = {
  name: 'report_months',
  statements: [
    `CREATE TABLE hub_months (
       till_id integer NOT NULL REFERENCES tills(id), month date NOT NULL, shop_id integer NOT NULL,
       cashier text NOT NULL, kind text NOT NULL, k text NOT NULL, rate float8, a int8 NOT NULL, b int8 NOT NULL,
       first int8 NOT NULL, last int8 NOT NULL)`,
    `CREATE INDEX hub_months_month ON hub_months (month, till_id)`,
    `CREATE TABLE hub_months_closed (month date PRIMARY KEY, at timestamptz NOT NULL)`,
  ],
};
