import type { Migration } from '../open.ts';

/**
 * Parked carts mirrored as gateway drafts (so another till can pick them up): the draft id of each parked
 * cart, and draft deletions still owed to the gateway (a cart taken while offline).
 */
export const m005: Migration = {
  name: 'parked_drafts',
  up(db) {
    db.exec(`
      ALTER TABLE parked_sales ADD COLUMN draft_id INTEGER;
      CREATE TABLE draft_deletions (draft_id INTEGER PRIMARY KEY, created_at TEXT NOT NULL) STRICT;
    `);
  },
};
