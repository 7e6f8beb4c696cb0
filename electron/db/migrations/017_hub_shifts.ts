import type { Migration } from '../open.ts';

/**
 * Shifts go up to the store hub like orders (docs/hub.md): the hub outbox takes a fourth kind, `shift`, and
 * triggers write a snapshot of the shift (its float, cash in and out so far, and at the close expected,
 * counted and the difference's parts) whenever it opens, takes a cash move or closes, inside the very
 * transaction that does it. Like migration 009's they fire only once the till is enrolled.
 *
 * The outbox's CHECK on `kind` cannot be altered in place, so the table is rebuilt: the rows waiting and
 * the AUTOINCREMENT counter are carried over, so a sequence number already sent is never used again (the
 * hub would refuse a reused one with other content as altered).
 */
const ENROLLED = `EXISTS (SELECT 1 FROM hub_state WHERE key = 'till_id')`;

/** The outbox row for shift `id` (an SQL expression): the shift as it stands, with its moves' sums. */
export const shiftOutboxSql = (id: string): string => `
  INSERT INTO hub_outbox (kind, ref, payload)
    SELECT 'shift', 'shift:' || s.id, json_object('id', s.id, 'cashier', s.cashier, 'opened_at', s.opened_at,
      'opening_float_para', s.opening_float_para, 'closed_at', s.closed_at, 'closed_by', s.closed_by,
      'expected_para', s.expected_para, 'counted_para', s.counted_para, 'counted_detail', json(s.counted_detail),
      'cash_in_para', (SELECT coalesce(sum(amount_para), 0) FROM shift_moves WHERE shift_id = s.id AND kind = 'in'),
      'cash_out_para', (SELECT coalesce(sum(amount_para), 0) FROM shift_moves WHERE shift_id = s.id AND kind = 'out'),
      'moves', (SELECT count(*) FROM shift_moves WHERE shift_id = s.id))
    FROM shifts s WHERE s.id = ${id}`;

export const m017: Migration = {
  name: 'hub_shifts',
  up(db) {
    // Copied aside, dropped, created anew, copied back: not ALTER TABLE … RENAME (nor a TEMP table), after
    // which a later VACUUM and return to WAL leave wal_checkpoint(TRUNCATE) failing (migration 014 says
    // more). Migration 009's triggers name `hub_outbox` in their bodies only (none is ON it), so they keep
    // working on the new table of that name.
    db.exec(`
      CREATE TABLE hub_outbox_before_017 AS SELECT seq, kind, ref, payload, created_at FROM hub_outbox;
      CREATE TABLE hub_outbox_seq_before_017 AS SELECT seq FROM sqlite_sequence WHERE name = 'hub_outbox';
      DROP TABLE hub_outbox;
      CREATE TABLE hub_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('order','audit','staff','shift')),
        ref TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      ) STRICT;
      INSERT INTO hub_outbox (seq, kind, ref, payload, created_at)
        SELECT seq, kind, ref, payload, created_at FROM hub_outbox_before_017 ORDER BY seq;
      -- The counter, also when every row was already sent (the table is empty but numbers were used).
      DELETE FROM sqlite_sequence WHERE name = 'hub_outbox';
      INSERT INTO sqlite_sequence (name, seq) SELECT 'hub_outbox', seq FROM hub_outbox_seq_before_017;
      DROP TABLE hub_outbox_before_017;
      DROP TABLE hub_outbox_seq_before_017;
    `);
    db.exec(`

      CREATE TRIGGER hub_shift_insert AFTER INSERT ON shifts WHEN ${ENROLLED}
      BEGIN ${shiftOutboxSql('NEW.id')}; END;

      CREATE TRIGGER hub_shift_update AFTER UPDATE ON shifts WHEN ${ENROLLED}
      BEGIN ${shiftOutboxSql('NEW.id')}; END;

      CREATE TRIGGER hub_shift_move_insert AFTER INSERT ON shift_moves WHEN ${ENROLLED}
      BEGIN ${shiftOutboxSql('NEW.shift_id')}; END;
    `);
  },
};
