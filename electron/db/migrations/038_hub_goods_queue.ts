import type { Migration } from '../open.ts';

/**
 * What a till enrolled at a store hub enters for the shop's book, kept until the hub has it (docs/goods.md "What a
 * till enrolled at a hub still does itself, and how it merges"; electron/goods/hub-goods.ts, their one writer):
 *
 * - `hub_goods_drafts`: each goods receipt draft saved on this till for the hub; its id (never reused) with the
 *   till's id at the hub is the idempotency key, `version` counts the saves and `sent_version` what the hub has
 *   acknowledged; the hub's answer (its draft id, state, number) or its refusal at a field.
 * - `hub_count_entries`: each counted quantity entered on this till into a count of the hub, queued until the hub
 *   acknowledged it (its id is the entry's key), with the hub's answer or its refusal.
 * - `hub_counts_seen`: the shop's open counts as the hub last listed them, so that a till entering counts offline
 *   still knows which counts there are.
 *
 * Till migration 39 of issue 40 (numbered at its position in the list until the migrations before it land).
 */
export const m038: Migration = {
  name: 'hub_goods_queue',
  up(db) {
    db.exec(`
      CREATE TABLE hub_goods_drafts (
        id INTEGER PRIMARY KEY AUTOINCREMENT, form TEXT NOT NULL, version INTEGER NOT NULL,
        sent_version INTEGER NOT NULL DEFAULT 0, hub_id INTEGER, hub_state TEXT, hub_number TEXT, refusal TEXT,
        updated_at TEXT NOT NULL, sent_at TEXT
      ) STRICT;
      CREATE TABLE hub_count_entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT, count_id INTEGER NOT NULL, code TEXT NOT NULL,
        qty_milli INTEGER NOT NULL, add_to INTEGER NOT NULL, state TEXT NOT NULL DEFAULT 'queued', name TEXT,
        sheet_milli INTEGER, counted_milli INTEGER, refusal TEXT, at TEXT NOT NULL, sent_at TEXT
      ) STRICT;
      CREATE INDEX hub_count_entries_queued ON hub_count_entries (state, id);
      CREATE TABLE hub_counts_seen (
        count_id INTEGER PRIMARY KEY, number TEXT NOT NULL, groups TEXT, started_at TEXT NOT NULL, seen_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
