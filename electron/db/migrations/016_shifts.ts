import type { Migration } from '../open.ts';

/**
 * Shifts and the cash drawer (electron/shifts). A shift opens with a counted float, takes cash in and out
 * (each with a reason, audited), and closes with the drawer counted: expected, counted and the difference
 * are stored with it, never recomputed. One open shift per till (the till has one drawer); the partial
 * unique index keeps it so even against two closes or opens racing. Amounts in para.
 */
export const m016: Migration = {
  name: 'shifts',
  up(db) {
    db.exec(`
      CREATE TABLE shifts (
        id INTEGER PRIMARY KEY,
        cashier TEXT NOT NULL,
        opened_at TEXT NOT NULL,
        opening_float_para INTEGER NOT NULL CHECK (opening_float_para >= 0),
        closed_at TEXT,
        closed_by TEXT,
        expected_para INTEGER,
        counted_para INTEGER CHECK (counted_para IS NULL OR counted_para >= 0),
        -- JSON {"<denomination in para>": count} when the drawer was counted by denomination.
        counted_detail TEXT,
        CHECK ((closed_at IS NULL) = (counted_para IS NULL) AND (closed_at IS NULL) = (expected_para IS NULL))
      ) STRICT;
      CREATE UNIQUE INDEX shifts_one_open ON shifts((1)) WHERE closed_at IS NULL;
      CREATE INDEX shifts_opened ON shifts(opened_at);
      CREATE TABLE shift_moves (
        id INTEGER PRIMARY KEY,
        shift_id INTEGER NOT NULL REFERENCES shifts(id),
        kind TEXT NOT NULL CHECK (kind IN ('in', 'out')),
        amount_para INTEGER NOT NULL CHECK (amount_para > 0),
        reason TEXT NOT NULL,
        at TEXT NOT NULL,
        actor TEXT,
        approver TEXT
      ) STRICT;
      CREATE INDEX shift_moves_shift ON shift_moves(shift_id);
    `);
  },
};
