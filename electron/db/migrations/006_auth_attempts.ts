import type { Migration } from '../open.ts';

/**
 * PIN brute-force protection: attempt counters per scope (`till`, `person:<id>`,
 * `anonymous`) that survive a restart, and the approving manager beside the actor in the audit log.
 */
export const m006: Migration = {
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
