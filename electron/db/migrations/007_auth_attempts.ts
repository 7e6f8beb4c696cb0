import type { Migration } from '../open.ts';

/**
 * PIN brute-force protection (issue #12): attempt counters per scope (`till`, `person:<id>`,
 * `anonymous`) that survive a restart, and the approving manager beside the actor in the audit log.
 *
 * Numbered 007 by assignment; its version is the next free one on this branch (6). The lead sets the
 * version to follow whatever 006 lands as.
 */
export const m007: Migration = {
  version: 6,
  name: 'auth_attempts',
  up(db) {
    db.exec(`
      CREATE TABLE auth_attempts (
        scope TEXT PRIMARY KEY,
        failures INTEGER NOT NULL DEFAULT 0,
        lockouts INTEGER NOT NULL DEFAULT 0,
        locked_until INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL
      ) STRICT;
      ALTER TABLE audit_log ADD COLUMN approver TEXT;
    `);
  },
};
