import type { Migration } from '../open.ts';

/**
 * The bookkeeper's monthly export (issue 41, docs/exports.md): one row per month whose files were written into the
 * shop's folder, inserted after the files were renamed into place. Its key is the month, so the scheduled pass writes
 * a month once: a restart finds the row and does nothing, and a month whose day passed while the till was off is
 * written at the next start (the pass runs for the last month without a row).
 */
export const m031: Migration = {
  name: 'export_runs',
  up(db) {
    db.exec(`
      CREATE TABLE export_runs (
        month TEXT PRIMARY KEY,
        done_at TEXT NOT NULL,
        folder TEXT NOT NULL,
        -- JSON [file name, …] written into folder/<month>/.
        files TEXT NOT NULL
      ) STRICT;
    `);
  },
};
