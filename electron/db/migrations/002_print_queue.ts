import type { Migration } from '../open.ts';

/**
 * The persistent print queue (electron/printer). A job's payload is a snapshot of what to print (the
 * receipt as stored when it was queued), so printing never needs the gateway. `order_id` is a plain
 * reference (no foreign key: test pages and slips have none, and a job outlives nothing it needs).
 */
export const m002: Migration = {
  name: 'print_queue',
  up(db) {
    db.exec(`
      CREATE TABLE print_jobs (
        id INTEGER PRIMARY KEY,
        order_id INTEGER,
        kind TEXT NOT NULL CHECK (kind IN ('receipt','test','slip')),
        payload TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued','printing','printed','failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        -- Epoch milliseconds: the job is not tried before then.
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        created_at TEXT NOT NULL,
        printed_at TEXT
      ) STRICT;
      CREATE INDEX print_jobs_due ON print_jobs(state, next_attempt_at);
      CREATE INDEX print_jobs_order ON print_jobs(order_id);
    `);
  },
};
