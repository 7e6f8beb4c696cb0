import type { HubMigration } from './index.ts';

/**
 * Goods documents a till enrolled at the hub enters for the shop's book, offline too (issue 40 part 9, docs/goods.md
 * "What a till enrolled at a hub still does itself, and how it merges"):
 *
 * - `hub_receipts` gets the till that made a draft and that till's own draft id (`till_id`, `till_draft_id`, unique
 *   together: a resend, a kill mid-send or a day offline makes one hub draft) and the till's version of it
 *   (`till_version`: an older version sent late changes nothing).
 * - `hub_count_till_entries`: every count entry a till pushed, once per (till, the till's entry id).
 * - `hub_count_sheets`: each till's count sheet of a count (пописна листа): per product what that till counted.
 *
 * Hub migration 33 of issue 40 (numbered at its position in the list until the migrations before it land).
 */
export const h033: HubMigration = {
  name: 'till_goods',
  statements: [
    `ALTER TABLE hub_receipts ADD COLUMN till_id integer REFERENCES tills(id), ADD COLUMN till_draft_id bigint,
       ADD COLUMN till_version integer`,
    `CREATE UNIQUE INDEX hub_receipts_till_draft ON hub_receipts (till_id, till_draft_id)`,
    `CREATE TABLE hub_count_till_entries (
       till_id integer NOT NULL REFERENCES tills(id), entry_id bigint NOT NULL,
       count_id integer NOT NULL REFERENCES hub_stock_counts(id), code text NOT NULL, qty_milli bigint NOT NULL,
       add boolean NOT NULL, at text NOT NULL, PRIMARY KEY (till_id, entry_id))`,
    `CREATE TABLE hub_count_sheets (
       count_id integer NOT NULL REFERENCES hub_stock_counts(id), till_id integer NOT NULL REFERENCES tills(id),
       code text NOT NULL, counted_milli bigint NOT NULL, at text NOT NULL, PRIMARY KEY (count_id, till_id, code))`,
  ],
};
