import type { Migration } from '../open.ts';

/**
 * Discounts approved when they were entered (electron/sales/discount-approvals.ts). A manager approves a
 * discount beyond the limit at the counter, for exactly one line (`line`: name, code, price, quantity and
 * discount as one canonical text) and for the cashier who asked; the checkout that sells that line uses the
 * approval once, in the order's own transaction (`used_order`). A line changed since matches nothing, so a
 * small approved discount can never cover a larger one.
 */
export const m018: Migration = {
  name: 'discount_approvals',
  up(db) {
    db.exec(`
      CREATE TABLE discount_approvals (
        id INTEGER PRIMARY KEY,
        line TEXT NOT NULL,
        actor_id INTEGER,
        actor TEXT,
        approver_id INTEGER NOT NULL,
        approver TEXT NOT NULL,
        created_at TEXT NOT NULL,
        used_order TEXT,
        used_at TEXT,
        CHECK ((used_order IS NULL) = (used_at IS NULL))
      ) STRICT;
      CREATE INDEX discount_approvals_open ON discount_approvals(line, actor_id) WHERE used_order IS NULL;
    `);
  },
};
