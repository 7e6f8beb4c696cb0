import type { HubMigration } from './index.ts';

/**
 * Times are `timestamptz` (#25), not text: the rest of the hub's times (orders and events moved in migration 10,
 * the closed days and months, refund holds and staff refusals were made so). Both drivers hand them to the hub's
 * code as ISO UTC text, as before; a comparison or an order by time is by the instant, not by the text. Two stay:
 * `orders.sdc_date_time` is the gateway's signing time exactly as the gateway wrote it (a fiscal record, never
 * rewritten), and `hub_schema.applied_at` is the migration runner's own note. Times stored as the empty string
 * (none were written so) become NULL.
 */
const COLUMNS: [table: string, column: string][] = [
  ['shops', 'created_at'],
  ['enrol_codes', 'created_at'],
  ['enrol_codes', 'used_at'],
  ['tills', 'created_at'],
  ['tills', 'last_seen'],
  ['tills', 'revoked_at'],
  ['parked_carts', 'created_at'],
  ['shifts', 'opened_at'],
  ['shifts', 'closed_at'],
  ['invoice_claims', 'at'],
  ['invoice_claims', 'cleared_at'],
  ['hub_sessions', 'created_at'],
  ['hub_audit', 'at'],
];

export const h021: HubMigration = {
  name: 'times',
  statements: COLUMNS.map(
    ([table, column]) =>
      `ALTER TABLE ${table} ALTER COLUMN ${column} TYPE timestamptz USING nullif(${column}, '')::timestamptz`,
  ),
};
