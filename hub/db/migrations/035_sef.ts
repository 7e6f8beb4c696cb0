import type { HubMigration } from './index.ts';

/**
 * The hub's SEF outbox (issue 41 part 1, docs/sef.md "Sending from the hub"): one row per e-invoice the hub sends for
 * a shop, keyed by the document (shop, number, kind) so a second push, a second till or a restart never makes a
 * second one; `request_id` is SEF's idempotency key (the document's first id is derived from it, as the till's);
 * `in_doubt` says an attempt's answer never came (looked up before anything is sent again). The order it comes from
 * is the till's (`till_id`, `order_number`), as pushed.
 */
export const h035: HubMigration = {
  name: 'sef',
  statements: [
    `CREATE TABLE hub_sef_documents (
       id serial PRIMARY KEY,
       shop_id integer NOT NULL REFERENCES shops(id),
       till_id integer NOT NULL REFERENCES tills(id),
       order_number text NOT NULL,
       kind text NOT NULL CHECK (kind IN ('invoice', 'advance', 'credit_note')),
       number text NOT NULL,
       buyer_id text NOT NULL,
       buyer_name text,
       total_para bigint NOT NULL,
       request_id text NOT NULL UNIQUE,
       xml text,
       state text NOT NULL CHECK (state IN ('queued', 'sent', 'accepted', 'rejected', 'cancelled', 'storno', 'refused')),
       sef_comment text,
       invoice_id bigint,
       sales_invoice_id bigint,
       attempts integer NOT NULL DEFAULT 0,
       in_doubt boolean NOT NULL DEFAULT false,
       due_at bigint NOT NULL,
       last_error jsonb,
       created_at text NOT NULL,
       updated_at text NOT NULL,
       UNIQUE (shop_id, number, kind))`,
    `CREATE INDEX hub_sef_documents_due ON hub_sef_documents (due_at) WHERE state IN ('queued', 'sent')`,
    `CREATE INDEX hub_sef_documents_order ON hub_sef_documents (till_id, order_number)`,
  ],
};
