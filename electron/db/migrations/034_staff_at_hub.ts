import type { Migration } from '../open.ts';

/**
 * A person the store hub sent is marked `at_hub` (electron/auth/hub-pins.ts): when the hub has no verifier of them
 * for this till yet, the pull keeps a PIN hash this till made itself (a manager made here before enrolment), which
 * then decides offline, and the hub is asked about it while it answers (it learns the PIN and makes every till's
 * verifier; a PIN changed at the hub is refused there). A hash of a person not at the hub (the first-run manager, a
 * person waiting for the manager's staff choice) is this till's alone: the hub is not asked.
 */
export const m034: Migration = {
  name: 'staff_at_hub',
  up(db) {
    db.exec(`
      ALTER TABLE staff ADD COLUMN at_hub INTEGER NOT NULL DEFAULT 0;
      UPDATE staff SET at_hub = 1 WHERE substr(pin_hash, 1, 4) = 'tv1$';
    `);
  },
};
