import type { Migration } from '../open.ts';

/**
 * What the L-PFR's own counter said just before an L-PFR signing left (docs/lpfr.md, "One signature per sale"):
 * the card's UID and its total counter, written with the attempt in the same transaction. A real L-PFR may
 * remember only its latest RequestId, so a look-up's "not found" proves nothing by itself; it proves "never
 * signed" only when the same card's total counter has not moved since this snapshot. NULL: no snapshot (an
 * attempt from before this migration, or a look-up), so a "not found" for it is never trusted.
 */
export const m023: Migration = {
  name: 'lpfr_counter',
  up(db) {
    db.exec(`
      ALTER TABLE attempts ADD COLUMN lpfr_uid TEXT;
      ALTER TABLE attempts ADD COLUMN lpfr_counter INTEGER;
    `);
  },
};
