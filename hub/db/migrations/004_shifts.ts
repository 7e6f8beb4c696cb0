import type { HubMigration } from './index.ts';

/**
 * The tills' shifts (смена: a cashier's time with the drawer), pushed like orders through `till_events`:
 * one row per (till, the till's shift id) holding the latest snapshot (`seq` keeps an older event from
 * overwriting a newer one). Expected, counted and the difference's parts are the till's, never recomputed.
 */
export const h004: HubMigration = {
  name: 'shifts',
  statements: [
    `CREATE TABLE shifts (
       till_id integer NOT NULL REFERENCES tills(id), shift_id bigint NOT NULL, shop_id integer NOT NULL,
       seq bigint NOT NULL, cashier text NOT NULL, opened_at text NOT NULL, closed_at text, closed_by text,
       opening_float_para bigint NOT NULL, cash_in_para bigint NOT NULL, cash_out_para bigint NOT NULL,
       expected_para bigint, counted_para bigint, counted_detail jsonb, PRIMARY KEY (till_id, shift_id))`,
    `CREATE INDEX shifts_shop_opened ON shifts (shop_id, opened_at)`,
  ],
};
