import type { Migration } from '../open.ts';

/**
 * The statement that makes print_jobs with the kinds `kinds` (SQL literals), as this migration made it and migration
 * 025 made it again with one kind more: the text, indentation included, is what sqlite_master keeps.
 */
export const printJobsTable = (kinds: string): string => `CREATE TABLE print_jobs (
        id INTEGER PRIMARY KEY,
        order_id INTEGER,
        kind TEXT NOT NULL CHECK (kind IN (${kinds})),
        payload TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN
          ('queued','printing','sent','unconfirmed','printed','failed','held','dropped')),
        attempts INTEGER NOT NULL DEFAULT 0,
        -- Epoch milliseconds: the job is not tried before then.
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        created_at TEXT NOT NULL,
        printed_at TEXT,
        sent_at INTEGER,
        released INTEGER NOT NULL DEFAULT 0 CHECK (released IN (0, 1))
      ) STRICT;`;

/**
 * The print queue learns what the printer says (electron/printer). New job states:
 * - `sent`: every byte reached the printer but it reported a stop (paper out, cover open) before it
 *   finished; the rest waits in the printer's buffer and comes out once it is fixed. Never sent again.
 * - `unconfirmed`: Kasa cannot know whether it came out (the printer does not answer status, or lost
 *   power mid-job); the counter asks the cashier.
 * - `held`: it waited too long (no printer, or unreachable) to come out unasked; a manager prints or drops it.
 * - `dropped`: a manager dropped a held job. Kept as history, never printed.
 * `released` marks a job a manager chose to print: it is never held again. `sent_at` is when its bytes
 * reached the printer (epoch ms). SQLite cannot change a CHECK in place, so the table is rebuilt: copied
 * aside, dropped, created, copied back. Neither ALTER TABLE … RENAME nor a TEMP table: after either, a
 * later VACUUM and return to WAL leaves `wal_checkpoint(TRUNCATE)` failing with "database table is
 * locked" (the SQLite bundled with better-sqlite3 13.2; test/electron/restore-points.test.ts caught it).
 */
export const m014: Migration = {
  name: 'print_truth',
  up(db) {
    db.exec(`
      CREATE TABLE print_jobs_before_014 AS SELECT * FROM print_jobs;
      DROP TABLE print_jobs;
      ${printJobsTable(`'receipt','test','slip'`)}
      INSERT INTO print_jobs
        (id, order_id, kind, payload, state, attempts, next_attempt_at, last_error, created_at, printed_at)
        SELECT id, order_id, kind, payload, state, attempts, next_attempt_at, last_error, created_at, printed_at
        FROM print_jobs_before_014;
      DROP TABLE print_jobs_before_014;
      CREATE INDEX print_jobs_due ON print_jobs(state, next_attempt_at);
      CREATE INDEX print_jobs_order ON print_jobs(order_id);
    `);
  },
};
